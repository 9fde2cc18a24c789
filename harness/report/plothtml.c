/* plothtml.c - index.html of `slicebench plot` (plothtml.h).  The page is
 * laid out for a laptop screen: figures scale down to the page width and
 * every table fits it or wraps; the full statistics of each comparison sit
 * in a collapsed section below the verdicts. */
#include "plothtml.h"

#include <errno.h>
#include <limits.h>
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

/* The stylesheet, plots/templates/report.css (scripts/replicate.sh's page
 * has the same), inlined: the page loads nothing. */
static void style(FILE *f, const struct plotctx *c)
{
	char path[PATH_MAX], buf[4096];
	FILE *in;
	size_t n;

	snprintf(path, sizeof(path), "%s/report.css", c->tmpldir);
	in = fopen(path, "r");
	if (!in) {
		fprintf(stderr, "slicebench plot: warning: %s: %s; the page is unstyled\n", path,
			strerror(errno));
		return;
	}
	fputs("<style>\n", f);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, f);
	fputs("</style>", f);
	fclose(in);
}

static const char *config_str(const struct plotctx *c, const char *key)
{
	for (size_t d = 0; d < c->ndocs; d++)
		if (res_str(c->docs[d], fld_config_name, NULL))
			return res_str(c->docs[d], key, NULL);
	return NULL;
}

/* The study's name, then whether the extension ran in each input, and
 * why not: the page's first lines. */
static void heading(FILE *f, const struct plotctx *c)
{
	const char *name = config_str(c, fld_config_name);

	fputs("<title>slicebench: ", f);
	html_esc(f, name ? name : "report");
	fputs("</title>\n", f);
	style(f, c);
	fputs("</head><body>\n<h1>slicebench: ", f);
	html_esc(f, name ? name : "report");
	fputs("</h1>\n", f);
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
}

/* The study's description and its inputs, collapsed: the method, read
 * after the answer. */
static void about(FILE *f, const struct plotctx *c)
{
	const char *desc = config_str(c, fld_config_desc);

	fputs("<details class=\"about\"><summary>About this study: its method and inputs"
	      "</summary>\n", f);
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
	fputs(".</p></details>\n", f);
}

static void verdict_rows(FILE *f, const json_t *rep)
{
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(rep, "rows"), i, row) {
		const char *v = res_str(row, "verdict", vd_name(VD_INCONCLUSIVE));

		plot_row_start(f, row, v);
		fputs(v, f);
		if (!vd_is(v, VD_IMPROVED) && !vd_is(v, VD_REGRESSED)) {
			fputs(" (", f);
			html_esc(f, res_str(row, "why", ""));
			fputs(")", f);
		}
		fputs("</td></tr>\n", f);
	}
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
		plot_counts(f, vs->reps[k]);
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
		plot_counts(f, rep);
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

/* Figure p; lead: the answer on the first screen.  A skipped figure is
 * not shown (stderr said why); a failed one says why. */
static void figure(FILE *f, const struct plot *p, int lead)
{
	if (!p->state) {
		fprintf(f, "<!-- %s %s: ", p->name, rs_name(RS_SKIPPED));
		html_esc(f, p->note);
		fputs(" -->\n", f);
		return;
	}
	fprintf(f, "<h2 id=\"%s\">", p->name);
	html_esc(f, p->title);
	fputs("</h2>\n", f);
	if (p->state > 0) {
		fprintf(f, "<figure%s><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"",
			lead ? " class=\"lead\"" : "", p->name, p->name);
		html_esc(f, p->title);
		fputs("\"></a>\n<figcaption>", f);
		if (p->caption && *p->caption) { /* how to read it, one click away */
			fputs("<details><summary>How to read this figure</summary>", f);
			html_esc(f, p->caption);
			fputs("</details>", f);
		}
		fprintf(f, "<a href=\"%s.svg\">%s.svg</a> &middot; <a href=\"%s.dat\">%s.dat</a>"
			   "</figcaption></figure>\n",
			p->name, p->name, p->name, p->name);
		return;
	}
	fprintf(f, "<p class=\"%s\">%s: ", rs_name(RS_FAILED), rs_name(RS_FAILED));
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

static int is_answer(const struct plot *p)
{
	return !strncmp(p->name, "answer", 6);
}

/* The figures that were drawn or failed, the rest of the page's sections. */
static void contents(FILE *f, const struct plotctx *c)
{
	fputs("<nav><ul>\n", f);
	for (size_t i = 0; i < c->nplots; i++) {
		const struct plot *p = &c->plots[i];

		if (!p->state)
			continue;
		fprintf(f, "<li><a href=\"#%s\">", p->name);
		html_esc(f, p->title);
		fprintf(f, "</a>%s</li>\n", p->state > 0 ? "" : " (failed)");
	}
	fputs("<li><a href=\"#verdicts\">Every comparison</a> (<a href=\"details.html\">"
	      "details.html</a>)</li>\n<li><a href=\"#machines\">Machines and kernels</a></li>"
	      "\n</ul></nav>\n", f);
}

/* The first screen: the question, the first answer figure drawn, the
 * verdict table; then the other answers, the method collapsed, every
 * comparison, the other figures and the machines. */
static int index_page(const struct plotctx *c, const struct verdicts *v, const char *path,
		      char *err, size_t len)
{
	struct outfile o;
	FILE *f = outfile_open(&o, path, err, len);
	size_t lead = c->nplots;

	if (!f)
		return -1;
	page_head(f, c);
	if (v->q)
		plot_question_head(f, v->q);
	for (size_t i = 0; i < c->nplots && lead == c->nplots; i++)
		if (is_answer(&c->plots[i]) && c->plots[i].state > 0)
			lead = i;
	if (lead < c->nplots)
		figure(f, &c->plots[lead], 1);
	if (v->q)
		plot_question_table(f, v->q);
	for (size_t i = 0; i < c->nplots; i++)
		if (i != lead && is_answer(&c->plots[i]))
			figure(f, &c->plots[i], 0);
	about(f, c);
	contents(f, c);
	verdict_summary(f, v);
	for (size_t i = 0; i < c->nplots; i++)
		if (!is_answer(&c->plots[i]))
			figure(f, &c->plots[i], 0);
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
