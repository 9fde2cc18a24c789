/* runflags.c - run's flags: one table of the flags and the run key each
 * sets; values parsed by the key's type and unit and checked by key_check,
 * as the loader checks a file's, so the message names the flag and the
 * value as given.  The rest (workload names, pin's grammar, the keys read
 * together) is the loader's. */
#include "runflags.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/keys.h"
#include "../core/workload.h"
#include "../engine/config.h"
#include "../lib/units.h"

enum { F_PIN = CLI_LONG, F_CS, F_THINK, F_WARMUP, F_SET };

static const struct run_flag {
	struct cli_opt opt;
	const char *key; /* the run key it sets; NULL: --set names it */
} run_flags[] = {
	{ { 'w', "workload", "LIST", "workload(s), comma-separated, each a run of its own\n"
				     "(key workload; `slicebench list` names them)" },
	  "workload" },
	{ { 't', "threads", "LIST", "lock threads: N, or Nx per PU of the pin set (threads)" },
	  "threads" },
	{ { F_PIN, "pin", "SPEC", "none | compact | scatter | oversubscribe:N | cpus:LIST (pin)" },
	  "pin" },
	{ { F_CS, "cs", "DUR", "busy work inside the critical section: 200ns, 1.5us (cs_ns)" },
	  "cs_ns" },
	{ { F_THINK, "think", "DUR", "busy work between critical sections (think_ns)" },
	  "think_ns" },
	{ { 'd', "duration", "DUR", "measured window per repetition: 5s, 500ms (duration_s)" },
	  "duration_s" },
	{ { F_WARMUP, "warmup", "DUR", "unmeasured run-in before each window (warmup_s)" },
	  "warmup_s" },
	{ { 'r', "repetitions", "N", "repetitions of each run (repetitions)" }, "repetitions" },
	{ { F_SET, "set", "KEY=VALUE", "any other run key, or interleave or seed (repeatable);\n"
				       "VALUE as for the flags, or JSON (a list sweeps)" },
	  NULL },
};
#define NFLAGS (sizeof(run_flags) / sizeof(run_flags[0]))

int runflags_opts(struct cli_opt *out, size_t max, const struct cli_opt *head)
{
	size_t n = 0;

	for (; head[n].key; n++)
		if (n + 1 >= max)
			return -1;
		else
			out[n] = head[n];
	if (n + NFLAGS + 1 > max)
		return -1;
	for (size_t i = 0; i < NFLAGS; i++)
		out[n++] = run_flags[i].opt;
	out[n] = (struct cli_opt){ 0 };
	return 0;
}

/* A key a run takes: the run keys, then each lock's and workload's own
 * (the loader says which workloads take it); *top: a suite key, set at the
 * top level (interleave, seed).  NULL: none, which the loader names. */
static const struct key_desc *find_key(const char *name, int *top)
{
	const struct key_desc *k = key_find(run_keys, name);
	const struct workload_ops *o;

	*top = 0;
	for (size_t i = 0; !k && wl_locks[i]; i++)
		k = key_find(wl_locks[i]->keys, name);
	for (size_t i = 0; !k && (o = wl_named(i)); i++)
		if (!o->lock)
			k = key_find(o->keys, name);
	if (!k && (k = key_find(suite_opts, name)))
		*top = 1;
	return k;
}

/* A whole number: digits only (a sign where min < 0). */
static int whole(const char *t, const struct key_desc *k, json_int_t *out)
{
	char *end;

	if (!((*t >= '0' && *t <= '9') || (*t == '-' && k->min < 0)))
		return -1;
	errno = 0;
	*out = strtoll(t, &end, 10);
	return *end || errno ? -1 : 0;
}

/* One value of key k from its text; NULL after msg says why. */
static json_t *one_value(const struct key_desc *k, const char *t, char *msg, size_t len)
{
	json_int_t i;
	double x;
	char *end;

	if (!*t) {
		snprintf(msg, len, "an empty value");
		return NULL;
	}
	if (unit_is_time(k->unit) && (k->type == KT_INT || k->type == KT_NUM)) {
		if (unit_time(t, k->unit, &x, msg, len))
			return NULL;
		/* The integer the key is kept in, checked as a number first so
		 * 1e30s reads as out of range, not as garbage. */
		struct key_desc num = *k;

		num.type = KT_NUM;
		json_t *v = json_real(x);

		if (key_check(&num, v, msg, len)) {
			json_decref(v);
			return NULL;
		}
		json_decref(v);
		if (nearbyint(x) == x)
			return json_integer((json_int_t)x);
		if (k->type == KT_NUM)
			return json_real(x);
		snprintf(msg, len, "%.9g %s is not a whole number of %s", x, k->unit, k->unit);
		return NULL;
	}
	switch (k->type) {
	case KT_INT:
		if (!whole(t, k, &i))
			return json_integer(i);
		snprintf(msg, len, "not an integer");
		return NULL;
	case KT_THREADS:
		return !whole(t, k, &i) ? json_integer(i) : json_string(t);
	case KT_NUM:
		x = strtod(t, &end);
		if ((*t >= '0' && *t <= '9') && !*end)
			return json_real(x);
		snprintf(msg, len, "not a number");
		return NULL;
	case KT_BOOL:
		if (!strcmp(t, "true") || !strcmp(t, "false"))
			return json_boolean(!strcmp(t, "true"));
		snprintf(msg, len, "not true or false");
		return NULL;
	default:
		return json_string(t);
	}
}

/* Key k's value from text: a comma list sweeps (a free-form string such
 * as pin's "cpus:0,2" stays whole); text that starts with '[' or '{', or
 * any value of a list or object key, is JSON.  NULL after msg says why. */
static json_t *key_value(const struct key_desc *k, const char *text, char *msg, size_t len)
{
	if (!k || k->type == KT_LIST || k->type == KT_OBJ || *text == '[' || *text == '{') {
		json_error_t je;
		json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);

		/* a key no table has: the loader names it, with the nearest */
		if (!v && !k)
			v = json_string(text);
		if (!v)
			snprintf(msg, len, "not JSON: %s", je.text);
		return v;
	}
	/* its grammar (pin's: k->check) is the loader's, which knows the
	 * machine by then */
	if (k->type == KT_STR && !cfg_is_selector(k->name))
		return json_string(text);
	json_t *list = json_array();
	char *dup = strdup(text), *p = dup;

	for (char *c; p; p = c ? c + 1 : NULL) {
		json_t *v;

		if ((c = strchr(p, ',')))
			*c = '\0';
		if ((v = one_value(k, p, msg, len)) && key_check(k, v, msg, len)) {
			json_decref(v);
			v = NULL;
		}
		if (!v) {
			json_decref(list);
			list = NULL;
			break;
		}
		json_array_append_new(list, v);
	}
	free(dup);
	if (json_array_size(list) == 1) {
		json_t *v = json_incref(json_array_get(list, 0));

		json_decref(list);
		return v;
	}
	return list;
}

int runflags_add(json_t **cfg, int key, const char *text, char *msg, size_t len)
{
	const struct run_flag *f = NULL;
	char why[512], name[128];

	for (size_t i = 0; i < NFLAGS && !f; i++)
		if (run_flags[i].opt.key == key)
			f = &run_flags[i];
	if (!f)
		return 1;
	const char *val = text;

	if (f->key) {
		snprintf(name, sizeof(name), "%s", f->key);
	} else {
		const char *eq = strchr(text, '=');

		if (!eq || eq == text || (size_t)(eq - text) >= sizeof(name)) {
			snprintf(msg, len, "--set \"%s\": not KEY=VALUE", text);
			return -1;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - text), text);
		val = eq + 1;
	}
	if (!*cfg)
		*cfg = json_pack("{s:[{}]}", "runs");
	int top;
	const struct key_desc *k = find_key(name, &top);
	json_t *obj = top ? *cfg : json_array_get(json_object_get(*cfg, "runs"), 0), *v;

	if (json_object_get(obj, name)) {
		snprintf(msg, len, "--%s \"%s\": %s is given twice (a comma list sweeps)",
			 f->opt.name, text, name);
		return -1;
	}
	if (!(v = key_value(k, val, why, sizeof(why)))) {
		snprintf(msg, len, "--%s \"%s\": %s", f->opt.name, text, why);
		return -1;
	}
	json_object_set_new(obj, name, v);
	return 0;
}
