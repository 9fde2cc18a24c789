/* plotstyle.c - every workload the registry can name has its own look in
 * the figures: the same one whether a result is found by its name (the
 * forest plots, results without a triple in their params) or by the lock,
 * policy and dry flag it recorded, an alias looks like its triple, and no
 * two different series share colour, dash pattern and point shape (a
 * figure may hold any of them: the contention study sweeps every lock
 * under every placement with its dry control). */
#include <stdio.h>
#include <string.h>

#include "../../harness/core/policy.h"
#include "../../harness/core/workload.h"
#include "../../harness/report/plotstyle.h"
#include "tap.h"

#define MAXS 512

struct series {
	const char *name;
	const struct workload_ops *ops;
	struct pstyle st, sp; /* by its name; by its recorded params */
};

static int same_look(const struct pstyle *a, const struct pstyle *b)
{
	return a->rgb == b->rgb && a->pt == b->pt &&
	       (a->dash == b->dash || (a->dash && b->dash && !strcmp(a->dash, b->dash)));
}

static const char *dash_of(const struct pstyle *s)
{
	return s->dash ? s->dash : "solid";
}

/* The look of a triple found by its recorded params. */
static void by_params(const struct workload_ops *o, struct pstyle *s)
{
	json_t *p = json_pack("{s:s, s:s, s:b}", "lock", o->lock->name, "policy",
			      wl_policy_names[o->policy], "dry", o->dry);

	pstyle_of(o->name, p, s);
	json_decref(p);
}

int main(void)
{
	static struct series v[MAXS];
	size_t n = 0, bad = 0, clash = 0;
	const struct workload_ops *o;
	const char *why;

	/* Every valid lock x policy x dry triple, dry controls included. */
	for (size_t l = 0; wl_locks[l]; l++)
		for (int p = 0; p < POL_COUNT; p++)
			for (int d = 0; d < 2; d++) {
				if (!(o = wl_resolve(wl_locks[l], p, d, &why)) || n == MAXS)
					continue;
				v[n].name = o->name;
				v[n].ops = o;
				pstyle_of(o->name, NULL, &v[n].st);
				n++;
			}
	/* The workloads with no lock of their own (programs, primitives). */
	for (size_t i = 0; (o = wl_named(i)) && n < MAXS; i++)
		if (!o->lock) {
			v[n].name = o->name;
			v[n].ops = o;
			pstyle_of(o->name, NULL, &v[n].st);
			n++;
		}
	CHECK(n > 60, "plotstyle: %zu series from the registry", n);

	for (size_t i = 0; i < n; i++) {
		struct pstyle *s = &v[i].sp;
		char canon[96];

		*s = v[i].st;
		if (!v[i].ops->lock) {
			if (!v[i].st.known && bad++ < 12)
				printf("# %s: no style of its own\n", v[i].name);
			continue;
		}
		by_params(v[i].ops, s);
		snprintf(canon, sizeof(canon), "%s+%s%s", v[i].ops->lock->name,
			 wl_policy_names[v[i].ops->policy], v[i].ops->dry ? "+dry" : "");
		struct pstyle c;

		pstyle_of(canon, NULL, &c);
		if (!same_look(s, &v[i].st) || !same_look(&c, &v[i].st) || !v[i].st.known) {
			if (bad++ < 12)
				printf("# %s: by name #%06x pt %d '%s'%s, by params #%06x pt %d "
				       "'%s', as %s #%06x pt %d '%s'\n",
				       v[i].name, v[i].st.rgb, v[i].st.pt, dash_of(&v[i].st),
				       v[i].st.known ? "" : " (no style of its own)", s->rgb, s->pt,
				       dash_of(s), canon, c.rgb, c.pt, dash_of(&c));
		}
	}
	CHECK(!bad, "plotstyle: each of the %zu series has its own style, the same by name, "
		    "by LOCK+POLICY[+dry] and by params (%zu differ)", n, bad);

	for (int by = 0; by < 2; by++) {
		clash = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				const struct pstyle *a = by ? &v[i].sp : &v[i].st;

				if (same_look(a, by ? &v[j].sp : &v[j].st) && clash++ < 8)
					printf("# %s and %s both #%06x pt %d '%s'\n", v[i].name,
					       v[j].name, a->rgb, a->pt, dash_of(a));
			}
		CHECK(!clash, "plotstyle: found by %s, no two of the %zu series share colour, "
			      "dash and point (%zu pairs do)", by ? "params" : "name", n, clash);
	}
	return tap_failed ? 1 : 0;
}
