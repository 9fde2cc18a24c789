/* question.c - a study's question as contrasts, paired and tested
 * (question.h).  The pairs become two documents, controls and treatments,
 * each pair under one label, so compare's own pairing, tests, Holm and
 * power (compare.c, cmppower.c) decide them: nothing is recomputed here. */
#define _GNU_SOURCE
#include "question.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aacheck.h"
#include "cmppair.h"
#include "compare.h"
#include "plotpanel.h"
#include "qref.h"
#include "qtarget.h"
#include "resget.h"
#include "textfmt.h"

static const char *const top_keys[] = { "question", "contrasts", "targets", NULL };
static const char *const con_keys[] = { "name", "metric", "treatment", "control", "where",
					"ignore", "published", "published_by", "reference",
					"target", NULL };

static int known(const char *const *keys, const char *k)
{
	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(keys[i], k))
			return 1;
	return 0;
}

/* The checks of one contrast; 0, or -1 with err. */
static int check_contrast(const char *path, size_t i, const json_t *c, char *err, size_t len)
{
	const char *k;
	json_t *v;

	if (!json_is_object(c)) {
		snprintf(err, len, "%s: contrasts[%zu]: not an object", path, i);
		return -1;
	}
	json_object_foreach((json_t *)c, k, v) {
		if (!known(con_keys, k)) {
			snprintf(err, len, "%s: contrasts[%zu].%s: unknown key (expected name, metric, "
				 "treatment, control or reference, where, ignore, published, "
				 "published_by, target)",
				 path, i, k);
			return -1;
		}
	}
	if (!json_is_string(json_object_get(c, "name"))) {
		snprintf(err, len, "%s: contrasts[%zu].name: missing or not a string", path, i);
		return -1;
	}
	static const char *const sel[] = { "treatment", "control", "where" };
	const json_t *ref = json_object_get(c, "reference");

	if (ref && (json_object_get(c, "control") || !json_is_number(ref) ||
		    !(json_number_value(ref) > 0))) {
		snprintf(err, len, "%s: contrasts[%zu].reference: %s", path, i,
			 json_object_get(c, "control") ? "a contrast has a control or a reference, "
							 "not both"
						       : "expected a published value above 0");
		return -1;
	}
	for (size_t s = 0; s < 3; s++) {
		v = json_object_get(c, sel[s]);
		if (s == 1 && ref)
			continue;
		if ((v || s < 2) && (!json_is_object(v) || (s < 2 && !json_object_size(v)))) {
			snprintf(err, len, "%s: contrasts[%zu].%s: expected an object of keys and "
				 "values%s", path, i, sel[s], s < 2 ? " (not empty)" : "");
			return -1;
		}
	}
	v = json_object_get(c, "metric");
	if (v && (!json_is_string(v) || !cmp_metric_find(json_string_value(v)))) {
		snprintf(err, len, "%s: contrasts[%zu].metric: unknown metric \"%s\"", path, i,
			 json_is_string(v) ? json_string_value(v) : "(not a string)");
		return -1;
	}
	v = json_object_get(c, "published");
	if (v && !(json_is_number(v) && json_number_value(v) > 0 && json_number_value(v) != 1)) {
		snprintf(err, len, "%s: contrasts[%zu].published: expected a ratio above 0, not 1",
			 path, i);
		return -1;
	}
	v = json_object_get(c, "ignore");
	if (v && !json_is_array(v)) {
		snprintf(err, len, "%s: contrasts[%zu].ignore: expected a list of run keys", path, i);
		return -1;
	}
	return 0;
}

int question_load(const char *path, struct question *q, char *err, size_t len)
{
	json_error_t je;
	const char *k;
	json_t *v, *c;
	size_t i;

	memset(q, 0, sizeof(*q));
	q->doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!q->doc) {
		snprintf(err, len, "%s:%d:%d: %s", path, je.line, je.column, je.text);
		return -1;
	}
	if (!json_is_object(q->doc)) {
		snprintf(err, len, "%s: expected an object with \"question\" and \"contrasts\"", path);
		goto fail;
	}
	json_object_foreach(q->doc, k, v)
		if (!known(top_keys, k)) {
			snprintf(err, len, "%s: %s: unknown key (expected question, contrasts, targets)",
				 path, k);
			goto fail;
		}
	q->text = json_string_value(json_object_get(q->doc, "question"));
	c = json_object_get(q->doc, "contrasts");
	if (!q->text || !json_array_size(c)) {
		snprintf(err, len, "%s: %s", path, q->text ? "contrasts: expected a non-empty list"
							   : "question: missing or not a string");
		goto fail;
	}
	if (qtarget_resolve(path, q->doc, err, len))
		goto fail;
	json_array_foreach(c, i, v)
		if (check_contrast(path, i, v, err, len))
			goto fail;
	return 0;
fail:
	json_decref(q->doc);
	q->doc = NULL;
	return -1;
}

/* The value selector key k reads from result r of document doc. */
static const json_t *sel_value(const json_t *doc, const json_t *r, const char *k)
{
	if (!strcmp(k, "workload"))
		return json_object_get(r, "workload");
	if (!strncmp(k, "meta.", 5))
		return res_get(res_meta_of(doc, r), k + 5);
	return json_object_get(json_object_get(r, "params"), k);
}

static int matches(const json_t *doc, const json_t *r, const json_t *sel)
{
	const char *k;
	json_t *want;

	json_object_foreach((json_t *)sel, k, want) {
		const json_t *v = sel_value(doc, r, k);
		int any = 0;
		size_t i;
		json_t *w;

		if (!json_is_array(want))
			any = v && json_equal((json_t *)v, want);
		else
			json_array_foreach(want, i, w)
				any |= v && json_equal((json_t *)v, w);
		if (!any)
			return 0;
	}
	return 1;
}

int question_check_runs(const struct question *q, const json_t *runs, const char *config,
			char *err, size_t len)
{
	static const char *const arms[] = { "treatment", "control" };
	size_t i, k;
	json_t *c, *r;

	json_array_foreach(json_object_get(q->doc, "contrasts"), i, c) {
		for (size_t a = 0; a < 2; a++) {
			const json_t *arm = json_object_get(c, arms[a]);
			const char *key;
			json_t *v, *sel;
			int found = 0;

			if (!arm)
				continue; /* a reference instead of a control */
			sel = json_object();
			/* the meta a result is measured under is not known
			 * before it runs: those keys are left out */
			for (size_t s = 0; s < 2; s++)
				json_object_foreach((json_t *)(s ? json_object_get(c, "where") : arm), key, v)
					if (strncmp(key, "meta.", 5))
						json_object_set(sel, key, v);
			json_array_foreach(runs, k, r)
				found |= matches(NULL, r, sel);
			json_decref(sel);
			if (!found) {
				char *want = json_dumps(arm, JSON_COMPACT | JSON_SORT_KEYS);

				snprintf(err, len, "contrasts[%zu].%s: no run of %s is %s%s", i,
					 arms[a], config, want ? want : "?",
					 json_object_get(c, "where") ? " where the contrast's \"where\" "
								       "holds" : "");
				free(want);
				return -1;
			}
		}
	}
	return 0;
}

/* Whether r is in arm ("treatment" or "control") of contrast c. */
static int in_arm(const json_t *doc, const json_t *r, const json_t *c, const char *arm)
{
	const json_t *where = json_object_get(c, "where");

	return matches(doc, r, json_object_get(c, arm)) && (!where || matches(doc, r, where));
}

static int in_treatment(const json_t *doc, const json_t *r, const json_t *c)
{
	return in_arm(doc, r, c, "treatment");
}

static int across_inputs(const json_t *c)
{
	static const char *const sel[] = { "treatment", "control" };
	const char *k;
	json_t *v;

	for (size_t s = 0; s < 2; s++)
		json_object_foreach(json_object_get(c, sel[s]), k, v)
			if (!strncmp(k, "meta.", 5))
				return 1;
	return 0;
}

/* A copy of r without the params that do not define the pair (the
 * treatment's and control's keys and "ignore"'s), its meta kept.  The
 * "where" keys stay: they filter, and a pair agrees on them (fault_mem
 * ["private", "shared"] pairs private with private). */
static json_t *stripped(const json_t *doc, const json_t *r, const json_t *c)
{
	static const char *const sel[] = { "treatment", "control" };
	json_t *x = json_deep_copy(r), *p = json_object_get(x, "params"), *v;
	const char *k;
	size_t i;

	for (size_t s = 0; s < 2; s++)
		json_object_foreach(json_object_get(c, sel[s]), k, v)
			json_object_del(p, k);
	json_array_foreach(json_object_get(c, "ignore"), i, v)
		if (json_is_string(v))
			json_object_del(p, json_string_value(v));
	if (!json_object_get(x, "_meta") && res_meta_of(doc, r))
		json_object_set(x, "_meta", (json_t *)res_meta_of(doc, r));
	return x;
}

/* The treatment's values of "ignore"'s keys back into its stripped copy
 * x, once paired: the row's point names them (the extension length a
 * victim's latency is asked about, which its control does not have). */
static void restore_ignored(json_t *x, const json_t *r, const json_t *c)
{
	const json_t *rp = json_object_get(r, "params");
	json_t *p = json_object_get(x, "params"), *v;
	size_t i;

	json_array_foreach(json_object_get(c, "ignore"), i, v) {
		const json_t *val = json_is_string(v) ? json_object_get(rp, json_string_value(v))
						      : NULL;

		if (val && json_is_object(p))
			json_object_set(p, json_string_value(v), (json_t *)val);
	}
}

/* "tas+pre", and " model=full" for a meta key of the treatment with a list
 * of values: the workload's name says the rest. */
static void pair_label(const json_t *doc, const json_t *r, const json_t *c, char *buf,
		       size_t len)
{
	const char *k;
	json_t *v;
	size_t n = (size_t)snprintf(buf, len, "%s", res_str(r, "workload", "?"));

	json_object_foreach(json_object_get(c, "treatment"), k, v) {
		char s[64];

		if (!json_is_array(v) || strncmp(k, "meta.", 5) || n >= len)
			continue;
		val_str(sel_value(doc, r, k), s, sizeof(s));
		n += (size_t)snprintf(buf + n, len - n, " %s=%s",
				      strrchr(k, '.') ? strrchr(k, '.') + 1 : k, s);
	}
}

/* Row a's workload is the pair's label: the reader wants the control's
 * own name ("tas+pre+dry"), kept by label in names. */
static void name_controls(json_t *rep, const json_t *names)
{
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(rep, "rows"), i, row) {
		json_t *a = json_object_get(row, "a");
		const char *cn = json_string_value(json_object_get(names, res_str(a, "workload", "")));

		if (cn)
			json_object_set_new(a, "workload", json_string(cn));
	}
}

int question_dry_control(const json_t *c)
{
	const json_t *ctl = json_object_get(c, "control");

	return json_is_true(json_object_get(ctl, "dry")) ||
	       cmp_dry_name(res_str(ctl, "workload", ""));
}

/* The key a treatment and its control share: the run point, which leaves
 * out what makes the workload (lock, policy, dry: compare pairs by name),
 * and those of the three the contrast does not select on, so a tas
 * placement never pairs with an adaptive lock's control, nor pre with
 * rearm's.  A contrast that names its workloads has fixed all three. */
static char *pair_key(const json_t *x, const json_t *c)
{
	static const char *const ident[] = { "lock", "policy", "dry" };
	const json_t *p = json_object_get(x, "params");
	char *pt = cmp_point_key(x, 0, 1);

	if (!pt || json_object_get(json_object_get(c, "treatment"), "workload") ||
	    json_object_get(json_object_get(c, "control"), "workload"))
		return pt;
	json_t *o = json_pack("{s:s}", " point", pt);

	free(pt);
	for (size_t i = 0; i < sizeof(ident) / sizeof(ident[0]); i++)
		if (json_object_get(p, ident[i]))
			json_object_set(o, ident[i], json_object_get(p, ident[i]));
	char *k = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(o);
	return k;
}

/* The pairs of contrast c among docs[0..n) into a report, tested at
 * alpha (its share of the question's); NULL with why. */
static json_t *pairs_report(json_t *const *docs, size_t n, const json_t *c, double alpha,
			    char *why, size_t len)
{
	json_t *ctl = json_array(), *trt = json_array();
	json_t *keys = json_object(), *names = json_object(), *rep = NULL, *r;
	size_t i, nt = 0;

	/* The controls by their pairing key: the first of a point wins. */
	for (size_t d = 0; d < n; d++)
		json_array_foreach(json_object_get(docs[d], "results"), i, r) {
			if (!in_arm(docs[d], r, c, "control"))
				continue;
			json_t *x = stripped(docs[d], r, c);
			char *k = pair_key(x, c);

			if (k && !json_object_get(keys, k))
				json_object_set_new(keys, k, x);
			else
				json_decref(x);
			free(k);
		}
	for (size_t d = 0; d < n; d++)
		json_array_foreach(json_object_get(docs[d], "results"), i, r) {
			if (!in_arm(docs[d], r, c, "treatment"))
				continue;
			json_t *x = stripped(docs[d], r, c);
			char *k = pair_key(x, c), lbl[160];
			json_t *a = k ? json_object_get(keys, k) : NULL;

			free(k);
			if (!a) {
				json_decref(x);
				continue;
			}
			/* One label on both sides, the treatment's run point on
			 * both: compare pairs exactly these two. */
			pair_label(docs[d], r, c, lbl, sizeof(lbl));
			restore_ignored(x, r, c);
			json_t *y = json_deep_copy(a);

			json_object_set_new(names, lbl, json_string(res_str(a, "workload", "?")));
			json_object_set_new(y, "workload", json_string(lbl));
			json_object_set_new(x, "workload", json_string(lbl));
			json_object_set(y, "params", json_object_get(x, "params"));
			json_array_append_new(ctl, y);
			json_array_append_new(trt, x);
			nt++;
		}
	json_decref(keys);
	if (!nt) {
		snprintf(why, len, "no treatment result has a control at its run point");
	} else {
		json_t *pd[2] = { json_pack("{s:s,s:o,s:O}", "schema", "slicebench/1", "results",
					    ctl, "meta", json_object_get(docs[0], "meta")),
				  json_pack("{s:s,s:o,s:O}", "schema", "slicebench/1", "results",
					    trt, "meta", json_object_get(docs[0], "meta")) };
		const char *side[2] = { "control", "treatment" };
		const char *mn = res_str(c, "metric", "ops_per_sec");
		struct cmp_opts o = { .threshold = 0.05, .alpha = alpha, .nmetrics = 1,
				      .family = CMP_FAM_PRIMARY,
				      .control_dry = question_dry_control(c) };

		o.metrics[0] = cmp_metric_find(mn);
		if (cmp_docs(pd, side, 2, &o, &rep, why, len))
			rep = NULL;
		json_decref(pd[0]);
		json_decref(pd[1]);
		name_controls(rep, names);
		json_decref(names);
		/* The A/A checks of the inputs' dry controls, beside the rows
		 * that rest on them (compare --within's). */
		for (size_t d = 0; rep && d < n; d++)
			aa_attach(rep, docs[d], "input", &o);
		return rep;
	}
	json_decref(ctl);
	json_decref(trt);
	json_decref(names);
	return NULL;
}

void question_answer(struct question *q, struct plotctx *c)
{
	size_t i, k = 0;
	json_t *con;

	/* The question's contrasts against a control are its primary
	 * contrasts: they share alpha 0.05 (Bonferroni over the contrasts,
	 * Holm within each), so a row's level is known before any test. */
	json_array_foreach(json_object_get(q->doc, "contrasts"), i, con)
		k += !json_object_get(con, "reference");
	json_array_foreach(json_object_get(q->doc, "contrasts"), i, con) {
		char why[1024] = "";
		int across = across_inputs(con);
		size_t nd = across ? 1 : c->ndocs;

		/* One Holm family per input, as compare --within has; a contrast
		 * between inputs is one family over all of them. */
		for (size_t d = 0; d < nd && q->n < Q_MAXREPS; d++) {
			json_t *const *docs = across ? c->docs : &c->docs[d];
			size_t n = across ? c->ndocs : 1;
			json_t *rep = json_object_get(con, "reference")
					      ? qref_report(docs, n, con, in_treatment, why, sizeof(why))
					      : pairs_report(docs, n, con, 0.05 / (double)(k ? k : 1),
							     why, sizeof(why));
			struct contrast_rep *cr = &q->reps[q->n];

			if (!rep)
				continue;
			cr->rep = rep;
			cr->c = con;
			cr->tag[0] = '\0';
			if (!across && c->ndocs > 1)
				doc_tag(c, d, cr->tag, sizeof(cr->tag));
			q->n++;
		}
		if (!q->n)
			snprintf(q->note, sizeof(q->note), "%s: %s", res_str(con, "name", "?"), why);
	}
}

void question_free(struct question *q)
{
	for (size_t i = 0; i < q->n; i++)
		json_decref(q->reps[i].rep);
	json_decref(q->doc);
	memset(q, 0, sizeof(*q));
}
