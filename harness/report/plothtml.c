/* plothtml.c - index.html of `slicebench plot` (plothtml.h).  The page is
 * laid out for a laptop screen: figures scale down to the page width and
 * every table fits it or wraps; the full statistics of each comparison sit
 * in a collapsed section below the verdicts. */
#include "plothtml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "claim.h"
#include "cmppower.h"
#include "compare.h"
#include "outfile.h"
#include "question.h"
#include "../lib/extstate.h"
#include "resget.h"
#include "../lib/fields.h"
#include "textfmt.h"
#include "../lib/verdict.h"
#include "../lib/status.h"

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1050px;padding:0 1em;"
	"line-height:1.4}\n"
	"table{border-collapse:collapse;font-size:0.85em;max-width:100%}\n"
	"td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top;"
	"overflow-wrap:anywhere}\n"
	"tr.regressed td{background:#fdd}tr.improved td{background:#dfd}\n"
	".skipped{color:#666}.failed{color:#b00}.warnings{color:#b00}\n"
	"figure{margin:1em 0}figcaption{color:#333;font-size:0.9em}\n"
	"img{max-width:100%;height:auto;border:1px solid #eee}\n"
	".stats{overflow-x:auto}.desc{font-size:1.05em}\n"
	"tr.collapsed td{background:#fed}tr.equivalent td{background:#eef}"
	"table.answer th[colspan]{background:#f4f4f4}.ext{font-weight:bold}\n";

/* The study's name and description: the first input's config has them. */
static void heading(FILE *f, const struct plotctx *c)
{
	const char *name = NULL, *desc = NULL;

	for (size_t d = 0; d < c->ndocs && !name; d++) {
		name = res_str(c->docs[d], fld_config_name, NULL);
		desc = res_str(c->docs[d], fld_config_desc, NULL);
	}
	fputs("<title>slicebench: ", f);
	html_esc(f, name ? name : "report");
	fprintf(f, "</title>\n<style>\n%s</style></head><body>\n<h1>slicebench: ", style);
	html_esc(f, name ? name : "report");
	fputs("</h1>\n", f);
	/* first: whether the extension ran in each input, and why not */
	for (size_t d = 0; d < c->ndocs; d++) {
		char line[2048];

		ext_state_line(c->docs[d], line, sizeof(line));
		fputs("<p class=\"ext\">", f);
		if (c->ndocs > 1) {
			html_esc(f, c->names[d]);
			fputs(": ", f);
		}
		html_esc(f, line);
		fputs("</p>\n", f);
	}
	if (desc) {
		fputs("<p class=\"desc\">", f);
		html_esc(f, desc);
		fputs("</p>\n", f);
	}
	fputs("<p>Inputs:", f);
	for (size_t d = 0; d < c->ndocs; d++) {
		fputs(d ? ", <code>" : " <code>", f);
		html_esc(f, c->names[d]);
		fputs("</code>", f);
	}
	fputs(".</p>\n", f);
}

/* A row's first cells: B, A, the point, the ratio with its interval;
 * the caller writes the rest after "</td><td>". */
static void row_start(FILE *f, const json_t *row, const char *cls)
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

static void verdict_rows(FILE *f, const json_t *rep)
{
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(rep, "rows"), i, row) {
		const char *v = res_str(row, "verdict", vd_name(VD_INCONCLUSIVE));

		row_start(f, row, v);
		fputs(v, f);
		if (!vd_is(v, VD_IMPROVED) && !vd_is(v, VD_REGRESSED)) {
			fputs(" (", f);
			html_esc(f, res_str(row, "why", ""));
			fputs(")", f);
		}
		fputs("</td></tr>\n", f);
	}
}

/* "3 improved, 1 regressed, 60 inconclusive" of a report's rows. */
static void counts(FILE *f, const json_t *rep)
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

/* Whether contrast c's control is a dry control (the claim's test). */
static int dry_control(const json_t *c)
{
	const json_t *ctl = json_object_get(c, "control");
	const char *w = res_str(ctl, "workload", "");
	size_t n = strlen(w);

	return json_is_true(json_object_get(ctl, "dry")) ||
	       (n >= 3 && !strcmp(w + n - 3, "dry"));
}

/* The published claim's verdict on row (claim.c), after its reading. */
static void claim_cell(FILE *f, const json_t *c, json_t *row, double pub)
{
	if (!dry_control(c)) {
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
 * and input: the answer in numbers, before any figure. */
static void question_table(FILE *f, const struct question *q)
{
	fputs("<h2 id=\"question\">The question</h2>\n<p class=\"desc\">", f);
	html_esc(f, q->text);
	fputs("</p>\n", f);
	if (!q->n) {
		fputs("<p class=\"skipped\">no contrast has a pair in these inputs: ", f);
		html_esc(f, q->note);
		fputs("</p>\n", f);
		return;
	}
	fputs("<p>Each row: the treatment against its control at one run point, the ratio of "
	      "geometric means with its 95% interval, the verdict (or what the row could have "
	      "seen), the minimum detectable effect (MDE: 80% power at the level the design "
	      "holds the row to: the question's contrasts share alpha 0.05) and "
	      "the repetitions per side an MDE at the published effect would need (scaled from "
	      "this row's spread).</p>\n<table class=\"answer\"><tr><th>treatment</th>"
	      "<th>control</th><th>point</th><th>ratio [95% CI]</th><th>verdict</th>"
	      "<th>MDE</th><th>reps for published</th></tr>\n", f);
	for (size_t k = 0; k < q->n; k++) {
		const struct contrast_rep *cr = &q->reps[k];
		double pub = res_num(cr->c, "published");
		size_t i;
		json_t *row;

		fputs("<tr><th colspan=\"7\">", f);
		html_esc(f, res_str(cr->c, "name", "?"));
		if (cr->tag[0]) {
			fputs(" (", f);
			html_esc(f, cr->tag);
			fputs(")", f);
		}
		fputs(": ", f);
		counts(f, cr->rep);
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

			row_start(f, row, eq ? vd_name(VD_EQUIVALENT) : v);
			html_esc(f, res_str(row, "reading", v));
			if (isfinite(pub))
				claim_cell(f, cr->c, row, pub);
			fprintf(f, isfinite(mde) ? "</td><td>x%.3g" : "</td><td>-", mde);
			if (isfinite(need))
				fprintf(f, "</td><td>%.0f (has %.0f)</td></tr>\n", need,
					fmin(res_num(row, "a.n"), res_num(row, "b.n")));
			else
				fputs("</td><td>-</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

/* One line per comparison in index.html; its table is in details.html. */
/* The heading of the verdicts' section; 1, with the reason, when there
 * is no comparison. */
static int verdicts_head(FILE *f, const struct verdicts *vs, const char *h2)
{
	fprintf(f, "<h2 id=\"verdicts\">%s</h2>\n", h2);
	if (vs->n)
		return 0;
	fputs("<p class=\"skipped\">", f);
	html_esc(f, vs->note ? vs->note : "no comparison");
	fputs("</p>\n", f);
	return 1;
}

static void verdict_summary(FILE *f, const struct verdicts *vs)
{
	if (verdicts_head(f, vs, "Every comparison"))
		return;
	fputs("<details><summary>Verdict counts of each comparison; every row with its "
	      "statistics is in <a href=\"details.html\">details.html</a></summary><ul>\n", f);
	for (size_t k = 0; k < vs->n; k++) {
		fprintf(f, "<li><a href=\"details.html#cmp%zu\">", k);
		html_esc(f, vs->what[k]);
		fputs("</a>: ", f);
		counts(f, vs->reps[k]);
		fputs("</li>\n", f);
	}
	fputs("</ul></details>\n", f);
}

static void verdicts(FILE *f, const struct verdicts *vs)
{
	if (verdicts_head(f, vs, "Verdicts"))
		return;
	fputs("<p>A row is <b>improved</b> or <b>regressed</b> only when Welch's test on log "
	      "values is significant after Holm's correction <i>and</i> the ratio is outside "
	      "the noise band; every other row is inconclusive, with the reason.</p>\n",
	      f);
	for (size_t k = 0; k < vs->n; k++) {
		const json_t *rep = vs->reps[k];

		fprintf(f, "<h3 id=\"cmp%zu\">", k);
		html_esc(f, vs->what[k]);
		fputs(": ", f);
		counts(f, rep);
		fputs("</h3>\n", f);
		fprintf(f, "<table class=\"verdicts\"><tr><th>B</th><th>A (baseline)</th>"
			   "<th>parameters</th><th>B/A [95%% CI]</th><th>verdict</th></tr>\n");
		verdict_rows(f, rep);
		fputs("</table>\n<details><summary>All statistics of this comparison</summary>"
		      "<div class=\"stats\">\n", f);
		cmp_print(f, rep, CMP_HTML);
		fputs("</div></details>\n", f);
	}
}

static void meta_rows(FILE *f, const struct plotctx *c)
{
	json_t *seen = json_array();

	fputs("<h2 id=\"machines\">Machines and kernels</h2>\n<table class=\"meta\"><tr>"
	      "<th>input</th><th>host / CPU / kernel</th><th>summary</th><th>results</th></tr>\n",
	      f);
	for (size_t d = 0; d < c->ndocs; d++) {
		size_t i;
		json_t *r;

		/* A directory may hold several machines: one row per group. */
		json_array_foreach(json_object_get(c->docs[d], fld_results), i, r) {
			const json_t *m = res_meta_of(c->docs[d], r);
			char g[512], line[1024], key[1200];
			size_t n = 0, j;
			json_t *x, *v;
			int dup = 0;

			res_group(m, g, sizeof(g));
			snprintf(key, sizeof(key), "%zu|%s", d, g);
			json_array_foreach(seen, j, v)
				dup |= !strcmp(json_string_value(v), key);
			if (dup)
				continue;
			json_array_append_new(seen, json_string(key));
			json_array_foreach(json_object_get(c->docs[d], fld_results), j, x) {
				char g2[512];

				res_group(res_meta_of(c->docs[d], x), g2, sizeof(g2));
				n += !strcmp(g, g2);
			}
			res_meta_line(m, line, sizeof(line));
			fputs("<tr><td><code>", f);
			html_esc(f, c->names[d]);
			fputs("</code></td><td>", f);
			html_esc(f, g);
			fputs("</td><td>", f);
			html_esc(f, line);
			fprintf(f, "</td><td>%zu</td></tr>\n", n);
		}
	}
	fputs("</table>\n", f);
	json_decref(seen);
}

static void figure(FILE *f, const struct plot *p)
{
	fprintf(f, "<h2 id=\"%s\">", p->name);
	html_esc(f, p->title);
	fputs("</h2>\n", f);
	if (p->state > 0) {
		fprintf(f, "<figure><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"", p->name, p->name);
		html_esc(f, p->title);
		fputs("\"></a>\n<figcaption>", f);
		html_esc(f, p->caption ? p->caption : "");
		fprintf(f, " <a href=\"%s.svg\">%s.svg</a> &middot; <a href=\"%s.dat\">%s.dat</a>"
			   "</figcaption></figure>\n",
			p->name, p->name, p->name, p->name);
		return;
	}
	const char *st = rs_name(p->state ? RS_FAILED : RS_SKIPPED);

	fprintf(f, "<p class=\"%s\">%s: ", st, st);
	html_esc(f, p->note);
	fputs("</p>\n", f);
}

static void page_head(FILE *f, const struct plotctx *c)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
	      f);
	heading(f, c);
}

static int index_page(const struct plotctx *c, const struct verdicts *v, const char *path,
		      char *err, size_t len)
{
	struct outfile o;
	FILE *f = outfile_open(&o, path, err, len);

	if (!f)
		return -1;
	page_head(f, c);
	fputs("<ul>\n", f);
	if (v->q)
		fputs("<li><a href=\"#question\">The question</a></li>\n", f);
	for (size_t i = 0; i < c->nplots; i++) {
		const struct plot *p = &c->plots[i];

		fprintf(f, "<li><a href=\"#%s\">", p->name);
		html_esc(f, p->title);
		fprintf(f, "</a> %s</li>\n", p->state > 0 ? "" : p->state ? "(failed)" : "(skipped)");
	}
	fputs("<li><a href=\"#verdicts\">Every comparison</a> (<a href=\"details.html\">"
	      "details.html</a>)</li>\n<li><a href=\"#machines\">Machines and kernels</a></li>"
	      "\n</ul>\n", f);
	/* The question's verdicts, its answer figures, then the rest. */
	if (v->q)
		question_table(f, v->q);
	for (size_t i = 0; i < c->nplots; i++)
		if (!strncmp(c->plots[i].name, "answer", 6))
			figure(f, &c->plots[i]);
	verdict_summary(f, v);
	for (size_t i = 0; i < c->nplots; i++)
		if (strncmp(c->plots[i].name, "answer", 6))
			figure(f, &c->plots[i]);
	meta_rows(f, c);
	fputs("</body></html>\n", f);
	return outfile_commit(&o, err, len);
}

int plot_index(const struct plotctx *c, const struct verdicts *v, char *err, size_t len)
{
	char path[PATH_MAX];
	struct outfile o;
	struct stat sb;
	FILE *f;

	snprintf(path, sizeof(path), "%s/details.html", c->outdir);
	f = outfile_open(&o, path, err, len);
	if (!f)
		return -1;
	page_head(f, c);
	fputs("<p><a href=\"index.html\">Back to the report</a></p>\n", f);
	verdicts(f, v);
	fputs("</body></html>\n", f);
	if (outfile_commit(&o, err, len))
		return -1;
	snprintf(path, sizeof(path), "%s/index.html", c->outdir);
	if (index_page(c, v, path, err, len))
		return -1;
	if (!stat(path, &sb) && sb.st_size > PLOT_INDEX_BUDGET)
		fprintf(stderr, "slicebench plot: warning: %s is %lld bytes, over its budget of %d\n",
			path, (long long)sb.st_size, PLOT_INDEX_BUDGET);
	return 0;
}
