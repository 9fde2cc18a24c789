/* qanswer.c - a study's answer in numbers (see qanswer.h). */
#include "qanswer.h"

#include "cmptime.h"
#include "outfile.h"
#include "resget.h"

/* The row's cells a reader of the answer needs, and no per-window value. */
static json_t *slim(const json_t *r)
{
	static const char *const keep[][2] = {
		{ "treatment", "b.workload" }, { "control", "a.workload" },
		{ "point", "point" },	       { "label", "b.label" },
		{ "ratio", "ratio" },	       { "ratio_ci95", "ratio_ci95" },
		{ "verdict", "verdict" },      { "reading", "reading" },
		{ "equivalent", "tost.equivalent" }, { "mde", "mde.ratio" },
		{ "mde_goal", "mde.goal" },    { "n", "b.n" },
		{ "grants_per_1000_ops", "b.grants_per_1000_ops" },
		{ "grants_ended", "b.grants_ended" }, { "control_aa", "control_aa.verdict" },
		{ "states", "states" },	       { "extension_over_hold", "b.extension_over_hold" },
	};
	json_t *o = json_object();

	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		json_t *v = res_get(r, keep[i][1]);

		if (v)
			json_object_set(o, keep[i][0], v);
	}
	return o;
}

int question_write(const struct question *q, const char *path, char *err, size_t len)
{
	json_t *doc = json_pack("{s:s,s:[]}", "question", q->text ? q->text : "", "contrasts");
	struct outfile of;
	int rc = -1;

	for (size_t k = 0; k < q->n; k++) {
		const struct contrast_rep *cr = &q->reps[k];
		const json_t *rows = json_object_get(cr->rep, "rows"), *r;
		size_t i;
		json_t *c = json_pack("{s:s,s:s,s:O?,s:O?,s:o,s:[]}", "name",
				      res_str(cr->c, "name", "?"), "input", cr->tag, "family",
				      res_get(json_array_get(rows, 0), "family"), "published",
				      json_object_get(cr->c, "published"), "time_to_goal",
				      cmp_time_goal(rows, NULL, NULL), "rows");

		json_array_foreach(rows, i, r)
			json_array_append_new(json_object_get(c, "rows"), slim(r));
		json_array_append_new(json_object_get(doc, "contrasts"), c);
	}
	FILE *f = outfile_open(&of, path, err, len);

	if (f) {
		json_dumpf(doc, f, JSON_INDENT(1) | JSON_SORT_KEYS);
		fputc('\n', f);
		rc = outfile_commit(&of, err, len);
	}
	json_decref(doc);
	return rc;
}
