/* plotqtab.c - the question's section of index.html (plothtml.h): its
 * text, then the table with a line per contrast and input and one row per
 * run point: the ratio, the reading, the published claim's verdict, the
 * MDE and the repetitions the published effect would need. */
#include "plothtml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "claim.h"
#include "cmppower.h"
#include "cmptime.h"
#include "question.h"
#include "resget.h"
#include "textfmt.h"
#include "../lib/verdict.h"

/* A row's first cells: B, A, the point, the ratio with its interval;
 * the caller writes the rest after "</td><td>". */
void plot_row_start(FILE *f, const json_t *row, const char *cls)
{
	const json_t *ci = json_object_get(row, "ratio_ci95");
	double r = res_num(row, "ratio");

	fprintf(f, "<tr class=\"%s\"><td>", cls);
	html_esc(f, res_str(row, "b.workload", "?"));
	fputs("</td><td>", f);
	html_esc(f, res_str(row, "a.workload", "?"));
	fputs("</td><td>", f);
	html_esc(f, res_str(row, "point", ""));
	if (isfinite(r) && json_is_number(json_array_get(ci, 0)))
		fprintf(f, "</td><td>%.3g [%.3g, %.3g]", r, json_number_value(json_array_get(ci, 0)),
			json_number_value(json_array_get(ci, 1)));
	else
		fprintf(f, isfinite(r) ? "</td><td>%.3g" : "</td><td>-", r);
	fputs("</td><td>", f);
}

/* "3 improved, 1 regressed, 60 inconclusive" of a report's rows. */
void plot_counts(FILE *f, const json_t *rep)
{
	size_t i, nv[6] = { 0 };
	json_t *row;

	json_array_foreach(json_object_get(rep, "rows"), i, row) {
		const char *v = res_str(row, "verdict", "");

		nv[vd_is(v, VD_IMPROVED) ? 0 : vd_is(v, VD_REGRESSED) ? 1
				: vd_is(v, VD_COLLAPSED) ? 2 : vd_is(v, VD_ABOVE) ? 4
				: vd_is(v, VD_BELOW) ? 5 : 3]++;
	}
	if (json_object_get(rep, "axis_max")) /* against a published number */
		fprintf(f, "%zu above, %zu below, %zu inconclusive", nv[4], nv[5], nv[3]);
	else
		fprintf(f, "%zu improved, %zu regressed, %zu collapsed, %zu inconclusive", nv[0],
			nv[1], nv[2], nv[3]);
}

/* The published claim's verdict on row (claim.c), after its reading. */
static void claim_cell(FILE *f, const json_t *c, json_t *row, double pub)
{
	if (!question_dry_control(c)) {
		fputs("; the published claim is judged against the dry control, not here", f);
		return;
	}
	json_t *in = json_pack("{s:f,s:O}", "published", pub, "row", row);
	json_t *v = claim_judge(in);

	fputs("; the published claim: <b>", f);
	html_esc(f, res_str(v, "verdict", "?"));
	fputs("</b> (", f);
	html_esc(f, res_str(v, "why", ""));
	fputs(")", f);
	json_decref(v);
	json_decref(in);
}

/* One line per row of the question's contrasts, under a line per contrast
 * and input: the answer in numbers. */
static void rows(FILE *f, const struct question *q)
{
	for (size_t k = 0; k < q->n; k++) {
		const struct contrast_rep *cr = &q->reps[k];
		double pub = res_num(cr->c, "published");
		size_t i;
		json_t *row;

		fputs("<tr><th colspan=\"8\">", f);
		html_esc(f, res_str(cr->c, "name", "?"));
		if (cr->tag[0]) {
			fputs(" (", f);
			html_esc(f, cr->tag);
			fputs(")", f);
		}
		fputs(": ", f);
		plot_counts(f, cr->rep);
		if (!json_array_size(json_object_get(cr->rep, "rows"))) {
			/* say why: "slice-spin threads=2x: A ok, B unsupported: ..." */
			const json_t *nc = json_object_get(cr->rep, "not_compared");

			fputs("; nothing compared", f);
			if (json_array_size(nc)) {
				fputs(": ", f);
				html_esc(f, json_string_value(json_array_get(nc, 0)));
				if (json_array_size(nc) > 1)
					fprintf(f, " (and %zu more)", json_array_size(nc) - 1);
			}
		}
		size_t without;
		double t = cmp_time_to_goal(json_object_get(cr->rep, "rows"), NULL, NULL, &without);

		if (isfinite(t))
			fprintf(f, "; time to MDE x%.3g at every point: %.0f s%s", CMP_MDE_GOAL, t,
				without ? " (some points without an estimate)" : "");
		if (isfinite(pub)) {
			fprintf(f, "; published effect x%.3g", pub);
			if (json_is_string(json_object_get(cr->c, "published_by"))) {
				fputs(" (", f);
				html_esc(f, res_str(cr->c, "published_by", ""));
				fputs(")", f);
			}
		}
		fputs("</th></tr>\n", f);
		json_array_foreach(json_object_get(cr->rep, "rows"), i, row) {
			const char *v = res_str(row, "verdict", vd_name(VD_INCONCLUSIVE));
			double mde = res_num(row, "mde.ratio");
			double need = isfinite(pub) ? power_reps_for(row, pub) : NAN;
			int eq = json_is_true(res_get(row, "tost.equivalent"));

			plot_row_start(f, row, eq ? vd_name(VD_EQUIVALENT) : v);
			html_esc(f, res_str(row, "reading", v));
			if (res_str(row, "control_aa.verdict", NULL)) {
				fputs("; the control's A/A check: ", f);
				html_esc(f, res_str(row, "control_aa.verdict", ""));
			}
			if (isfinite(pub))
				claim_cell(f, cr->c, row, pub);
			double gr = res_num(row, "mde.goal.reps"), gs = res_num(row, "mde.goal.seconds");

			fprintf(f, isfinite(mde) ? "</td><td>x%.3g" : "</td><td>-", mde);
			if (isfinite(gr))
				fprintf(f, "</td><td>%.0f (%.0f s)", gr, gs);
			else
				fputs("</td><td>-", f);
			if (isfinite(need))
				fprintf(f, "</td><td>%.0f (has %.0f)</td></tr>\n", need,
					fmin(res_num(row, "a.n"), res_num(row, "b.n")));
			else
				fputs("</td><td>-</td></tr>\n", f);
		}
	}
}

void plot_question_head(FILE *f, const struct question *q)
{
	fputs("<h2 id=\"question\">The question</h2>\n<p class=\"question\">", f);
	html_esc(f, q->text);
	fputs("</p>\n", f);
}

void plot_question_table(FILE *f, const struct question *q)
{
	if (!q->n) {
		fputs("<p class=\"skipped\">no contrast has a pair in these inputs: ", f);
		html_esc(f, q->note);
		fputs("</p>\n", f);
		return;
	}
	fputs("<table class=\"answer\" id=\"verdict-table\"><tr><th>treatment</th>"
	      "<th>control</th><th>point</th><th>ratio [95% CI]</th><th>verdict</th>"
	      "<th>MDE</th><th>reps to x1.25</th><th>reps for published</th></tr>\n", f);
	rows(f, q);
	fputs("</table>\n<details class=\"howto\"><summary>How to read this table</summary>"
	      "<p>Each row: the treatment against its control at one run point, the ratio of "
	      "geometric means with its 95% interval, the verdict (or what the row could have "
	      "seen), the minimum detectable effect (MDE: 80% power at the level the design "
	      "holds the row to: the question's contrasts share alpha 0.05), "
	      "the repetitions per side an MDE of x1.25 would need with the time they take "
	      "(a round of the point each, where the arms took turns), and those an MDE at "
	      "the published effect would need (both scaled from this row's spread).</p>"
	      "</details>\n", f);
}
