/* cmpbrief.c - the summary compare leads with, and its default text. */
#define _GNU_SOURCE
#include "cmpbrief.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmptime.h"
#include "resget.h"
#include "textfmt.h"
#include "../lib/txtshow.h"
#include "../lib/verdict.h"

enum { S_IMP, S_REG, S_EQ, S_CT };
static const char *const s_keys[] = { "improved", "regressed", "equivalent", "cannot_tell" };

/* The row's place among the four counts. */
static int row_kind(const json_t *r)
{
	const char *v = res_str(r, "verdict", "");

	if (vd_is(v, VD_COLLAPSED))
		v = res_str(r, "collapse.verdict", "");
	if (vd_is(v, VD_IMPROVED))
		return S_IMP;
	if (vd_is(v, VD_REGRESSED))
		return S_REG;
	return json_is_true(res_get(r, "tost.equivalent")) ? S_EQ : S_CT;
}

static const char *row_word(const json_t *r)
{
	static const char *const words[] = { "improved", "regressed", "equivalent",
					     "cannot tell" };
	return words[row_kind(r)];
}

json_t *cmp_summary(const json_t *rep)
{
	json_t *out = json_array(), *r, *s = NULL;
	size_t i, k;

	json_array_foreach(json_object_get(rep, "rows"), i, r) {
		const char *m = res_str(r, "metric", "?"), *g = res_str(r, "group", "");

		json_array_foreach(out, k, s)
			if (!strcmp(res_str(s, "metric", ""), m) && !strcmp(res_str(s, "group", ""), g))
				break;
		if (k == json_array_size(out)) {
			s = json_pack("{s:s,s:s,s:O?,s:O?,s:i,s:i,s:i,s:i,s:i,s:n,s:n}", "metric", m,
				      "group", g, "family", res_get(r, "family.kind"), "level",
				      res_get(r, "family.level"), "rows", 0, "improved", 0,
				      "regressed", 0, "equivalent", 0, "cannot_tell", 0, "mde_min",
				      "mde_max");
			json_array_append_new(out, s);
		}
		const char *key = s_keys[row_kind(r)];
		double mde = res_num(r, "mde.ratio");

		json_object_set_new(s, key,
				    json_integer(json_integer_value(json_object_get(s, key)) + 1));
		json_object_set_new(s, "rows",
				    json_integer(json_integer_value(json_object_get(s, "rows")) + 1));
		if (isfinite(mde)) {
			if (!(res_num(s, "mde_min") <= mde))
				json_object_set_new(s, "mde_min", json_real(mde));
			if (!(res_num(s, "mde_max") >= mde))
				json_object_set_new(s, "mde_max", json_real(mde));
		}
	}
	/* How long each family's design would take to reach the goal MDE. */
	json_array_foreach(out, k, s)
		json_object_set_new(s, "time_to_goal",
				    cmp_time_goal(json_object_get(rep, "rows"), res_str(s, "metric", ""),
						  res_str(s, "group", "")));
	return out;
}

/* Whether rep's rows come from more than one group (host / CPU / kernel). */
static int grouped(const json_t *rep)
{
	const json_t *rows = json_object_get(rep, "rows"), *r;
	size_t i;

	json_array_foreach(rows, i, r)
		if (strcmp(res_str(r, "group", ""), res_str(json_array_get(rows, 0), "group", "")))
			return 1;
	return 0;
}

/* "time to MDE x1.25: 14 min of windows (2 points without an estimate)". */
static void time_print(FILE *f, const json_t *s, const char *pre, const char *ind)
{
	double t = res_num(s, "time_to_goal.seconds"), w = res_num(s, "time_to_goal.points_without");

	if (!isfinite(t))
		return;
	fprintf(f, "%s%s  time to MDE x%.3g at every point: %.0f s of windows", pre, ind,
		res_num(s, "time_to_goal.mde"), t);
	if (w > 0)
		fprintf(f, " (%.0f point(s) without an estimate)", w);
	fputc('\n', f);
}

void cmp_summary_print(FILE *f, const json_t *rep, const char *pre)
{
	size_t i;
	json_t *s;
	int gr = grouped(rep);

	json_array_foreach(json_object_get(rep, "summary"), i, s) {
		const char *g = res_str(s, "group", "");

		/* A group's name is long (host / CPU / kernel): a line of its own. */
		if (gr && *g)
			fprintf(f, "%s%s:\n", pre, g);
		fprintf(f, "%s%s%s: %.0f improved, %.0f regressed, %.0f equivalent, %.0f cannot tell",
			pre, gr && *g ? "  " : "", res_str(s, "metric", "?"), res_num(s, "improved"),
			res_num(s, "regressed"), res_num(s, "equivalent"), res_num(s, "cannot_tell"));
		if (isfinite(res_num(s, "mde_min")))
			fprintf(f, " (MDE x%.3g-x%.3g)", res_num(s, "mde_min"), res_num(s, "mde_max"));
		fputc('\n', f);
		time_print(f, s, pre, gr && *g ? "  " : "");
	}
}

/* s cut to w columns, "..." marking the cut. */
static void cell(FILE *f, const char *s, int w, int last)
{
	int n = (int)strlen(s);

	if (n > w && w > 3)
		fprintf(f, "%.*s...", w - 3, s);
	else
		fprintf(f, "%-*s", last ? 0 : w, s);
	fputs(last ? "\n" : "  ", f);
}

static void print_brief(FILE *f, const json_t *rep);

void cmp_print_brief(FILE *f, const json_t *rep)
{
	/* Labels, reasons and file names may hold any bytes: printed from a
	 * copy with each control byte as \xNN (cmp_print's rule). */
	json_t *shown = json_map_strings(rep, txt_term);

	print_brief(f, shown ? shown : rep);
	json_decref(shown);
}

static void print_brief(FILE *f, const json_t *rep)
{
	const json_t *rows = json_object_get(rep, "rows"), *r, *v;
	int within = !strcmp(res_str(rep, "mode", ""), "within");
	size_t i, nv = 0, ni = 0, nc = 0;
	const char *prev = NULL;
	int gr = grouped(rep);

	fprintf(f, "slicebench compare%s%s\n", within ? ": every workload vs " : "",
		within ? res_str(rep, "baseline", "?") : "");
	cmp_summary_print(f, rep, "");
	json_array_foreach(json_object_get(rep, "aa_checks"), i, v) {
		const char *x = res_str(v, "verdict", "");

		if (json_object_get(v, "superseded_by"))
			continue;
		vd_is(x, VD_VALID) ? nv++ : vd_is(x, VD_INVALID) ? ni++ : nc++;
	}
	if (nv + ni + nc)
		fprintf(f, "A/A checks of the dry controls: %zu valid, %zu invalid, %zu inconclusive\n",
			nv, ni, nc);
	if (json_array_size(json_object_get(rep, "warnings")))
		fprintf(f, "%zu warning(s) on stderr\n",
			json_array_size(json_object_get(rep, "warnings")));
	fprintf(f, "family: %s, each row at %.3g; --detail: every column, the checks and notes\n",
		res_str(json_array_get(rows, 0), "family.kind", "report"),
		res_num(json_array_get(rows, 0), "family.level"));
	/* workload 28, ratio [CI] 22, grants (model) 17, MDE 7, verdict 13:
	 * 97 columns with the indent and the gaps. */
	static const int w[] = { 28, 22, 17, 7, 13 };

	json_array_foreach(rows, i, r) {
		char point[256], name[128], ratio[64], g[48], mde[16];
		const json_t *ci = json_object_get(r, "ratio_ci95");

		snprintf(point, sizeof(point), "%s%s%s%s%s", gr ? res_str(r, "group", "") : "",
			 gr && *res_str(r, "group", "") ? ": " : "", res_str(r, "point", ""),
			 res_str(r, "b.label", NULL) ? " " : "",
			 res_str(r, "b.label", NULL) ? res_str(r, "b.label", "") : "");
		if (!prev || strcmp(prev, point)) {
			fputc('\n', f);
			cell(f, point, CMP_BRIEF_WIDTH, 1);
			fprintf(f, "  %-28s  %-22s  %-17s  %-7s  %s\n", "workload", "ratio [95% CI]",
				"grants/1k (can)", "MDE", "verdict");
		}
		free((void *)prev);
		prev = strdup(point);
		if (within)
			snprintf(name, sizeof(name), "%s vs %s", res_str(r, "b.workload", "?"),
				 res_str(r, "a.workload", "?"));
		else
			snprintf(name, sizeof(name), "%s", res_str(r, "workload", "?"));
		if (json_array_size(json_object_get(rep, "metrics")) > 1) {
			size_t l = strlen(name);

			snprintf(name + l, sizeof(name) - l, " %s", res_str(r, "metric", ""));
		}
		if (isfinite(res_num(r, "ratio")) && json_array_size(ci) == 2)
			snprintf(ratio, sizeof(ratio), "%.3f [%.3f, %.3f]", res_num(r, "ratio"),
				 json_number_value(json_array_get(ci, 0)),
				 json_number_value(json_array_get(ci, 1)));
		else
			snprintf(ratio, sizeof(ratio), isfinite(res_num(r, "ratio")) ? "%.3f" : "-",
				 res_num(r, "ratio"));
		/* B's grants per 1000 acquisitions, and in brackets how often a
		 * holder was preempted inside its section (cmpmech.h). */
		double gb = res_num(r, "b.grants_per_1000_ops"), cf = res_num(r, "b.can_fire_per_1000");

		snprintf(g, sizeof(g), isfinite(gb) ? "%.3g" : "-", gb);
		if (isfinite(gb) && isfinite(cf)) {
			size_t l = strlen(g);

			snprintf(g + l, sizeof(g) - l, " (%.3g)", cf);
		}
		snprintf(mde, sizeof(mde), isfinite(res_num(r, "mde.ratio")) ? "x%.3g" : "-",
			 res_num(r, "mde.ratio"));
		fputs("  ", f);
		cell(f, name, w[0], 0);
		cell(f, ratio, w[1], 0);
		cell(f, g, w[2], 0);
		cell(f, mde, w[3], 0);
		cell(f, row_word(r), w[4], 1);
		/* How the kernel's grants to B ended. */
		const json_t *ge = res_get(r, "b.grants_ended");

		if (res_num(ge, "granted") > 0)
			fprintf(f, "    kernel grants: %.0f, %.0f ended in a yield, %.0f revoked (%.0f as the "
				   "timer expired)\n",
				res_num(ge, "granted"), res_num(ge, "yielded"), res_num(ge, "revoked"),
				res_num(ge, "expired"));
	}
	free((void *)prev);
	if (json_array_size(json_object_get(rep, "not_compared")))
		fprintf(f, "\n%zu point(s) not compared (no data on a side): --detail lists them\n",
			json_array_size(json_object_get(rep, "not_compared")));
}
