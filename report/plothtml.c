/* plothtml.c - index.html of `slicebench plot` (plothtml.h).  The page is
 * laid out for a laptop screen: figures scale down to the page width and
 * every table fits it or wraps; the full statistics of each comparison sit
 * in a collapsed section below the verdicts. */
#include "plothtml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "outfile.h"
#include "resload.h"
#include "textfmt.h"

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
	".stats{overflow-x:auto}.desc{font-size:1.05em}\n";

/* The study's name and description: the first input's config has them. */
static void heading(FILE *f, const struct plotctx *c)
{
	const char *name = NULL, *desc = NULL;

	for (size_t d = 0; d < c->ndocs && !name; d++) {
		name = res_str(c->docs[d], "config.name", NULL);
		desc = res_str(c->docs[d], "config.description", NULL);
	}
	fputs("<title>slicebench: ", f);
	html_esc(f, name ? name : "report");
	fprintf(f, "</title>\n<style>\n%s</style></head><body>\n<h1>slicebench: ", style);
	html_esc(f, name ? name : "report");
	fputs("</h1>\n", f);
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

static void verdict_rows(FILE *f, const json_t *rep)
{
	size_t i;
	json_t *row;

	json_array_foreach(json_object_get(rep, "rows"), i, row) {
		const char *v = res_str(row, "verdict", "inconclusive");
		const json_t *ci = json_object_get(row, "ratio_ci95");
		double r = res_num(row, "ratio");
		char buf[128];

		fprintf(f, "<tr class=\"%s\"><td>", v);
		html_esc(f, res_str(row, "b.workload", "?"));
		fputs("</td><td>", f);
		html_esc(f, res_str(row, "a.workload", "?"));
		fputs("</td><td>", f);
		html_esc(f, res_str(row, "point", ""));
		if (isfinite(r) && json_is_number(json_array_get(ci, 0)))
			snprintf(buf, sizeof(buf), "%.3g [%.3g, %.3g]", r,
				 json_number_value(json_array_get(ci, 0)),
				 json_number_value(json_array_get(ci, 1)));
		else
			snprintf(buf, sizeof(buf), isfinite(r) ? "%.3g" : "-", r);
		fprintf(f, "</td><td>%s</td><td>%s", buf, v);
		if (strcmp(v, "improved") && strcmp(v, "regressed")) {
			fputs(" (", f);
			html_esc(f, res_str(row, "why", ""));
			fputs(")", f);
		}
		fputs("</td></tr>\n", f);
	}
}

static void verdicts(FILE *f, const struct verdicts *vs)
{
	fputs("<h2 id=\"verdicts\">Verdicts</h2>\n", f);
	if (!vs->n) {
		fputs("<p class=\"skipped\">", f);
		html_esc(f, vs->note ? vs->note : "no comparison");
		fputs("</p>\n", f);
		return;
	}
	fputs("<p>A row is <b>improved</b> or <b>regressed</b> only when Welch's test on log "
	      "values is significant after Holm's correction <i>and</i> the ratio is outside "
	      "the noise band; every other row is inconclusive, with the reason.</p>\n",
	      f);
	for (size_t k = 0; k < vs->n; k++) {
		const json_t *rep = vs->reps[k];
		size_t i, nv[3] = { 0 };
		json_t *row;

		json_array_foreach(json_object_get(rep, "rows"), i, row) {
			const char *v = res_str(row, "verdict", "");

			nv[!strcmp(v, "improved") ? 0 : !strcmp(v, "regressed") ? 1 : 2]++;
		}
		fputs("<h3>", f);
		html_esc(f, vs->what[k]);
		fprintf(f, ": %zu improved, %zu regressed, %zu inconclusive</h3>\n", nv[0], nv[1],
			nv[2]);
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
		json_array_foreach(json_object_get(c->docs[d], "results"), i, r) {
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
			json_array_foreach(json_object_get(c->docs[d], "results"), j, x) {
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
	fprintf(f, "<p class=\"%s\">%s: ", p->state ? "failed" : "skipped",
		p->state ? "failed" : "skipped");
	html_esc(f, p->note);
	fputs("</p>\n", f);
}

int plot_index(const struct plotctx *c, const struct verdicts *v, char *err, size_t len)
{
	char path[PATH_MAX];
	struct outfile o;
	FILE *f;

	snprintf(path, sizeof(path), "%s/index.html", c->outdir);
	f = outfile_open(&o, path, err, len);
	if (!f)
		return -1;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
	      f);
	heading(f, c);
	fputs("<ul>\n<li><a href=\"#verdicts\">Verdicts</a></li>\n", f);
	for (size_t i = 0; i < c->nplots; i++) {
		const struct plot *p = &c->plots[i];

		fprintf(f, "<li><a href=\"#%s\">", p->name);
		html_esc(f, p->title);
		fprintf(f, "</a> %s</li>\n", p->state > 0 ? "" : p->state ? "(failed)" : "(skipped)");
	}
	fputs("<li><a href=\"#machines\">Machines and kernels</a></li>\n</ul>\n", f);
	/* The answer figures come first, then the verdicts they summarise. */
	for (size_t i = 0; i < c->nplots; i++)
		if (!strncmp(c->plots[i].name, "answer", 6))
			figure(f, &c->plots[i]);
	verdicts(f, v);
	for (size_t i = 0; i < c->nplots; i++)
		if (strncmp(c->plots[i].name, "answer", 6))
			figure(f, &c->plots[i]);
	meta_rows(f, c);
	fputs("</body></html>\n", f);
	return outfile_commit(&o, err, len);
}
