/* cmpprint.c - the report of `slicebench compare` as text, Markdown,
 * JSON or HTML. */
#define _GNU_SOURCE
#include "compare.h"
#include "cmpnoise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aacheck.h"
#include "cmpbrief.h"
#include "resget.h"
#include "textfmt.h"
#include "../lib/txtshow.h"

static void fmt_num(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (a >= 1e9)
		snprintf(buf, len, "%.4gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.4gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%.4gk", v / 1e3);
	else
		snprintf(buf, len, "%.4g", v);
}

static void fmt_p(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 1e-4)
		snprintf(buf, len, "<1e-4");
	else
		snprintf(buf, len, "%.3g", p);
}

#define NCOL 14

struct cells {
	char c[NCOL][256];
};

static const char *const heads[NCOL] = { "workload", "point", "metric", "A", "B",
					 "ratio [95% CI]", "p Welch", "p Holm", "p MW", "n A/B",
					 "grants/1k ops A/B", "MDE", "verdict", "flags" };

static void row_cells(const json_t *r, int within, struct cells *c)
{
	char a[32], b[32], lo[32], hi[32];
	const json_t *ci = json_object_get(r, "ratio_ci95");
	json_t *fl = json_object_get(r, "flags"), *f;
	size_t i;

	if (within)
		snprintf(c->c[0], sizeof(c->c[0]), "%s vs %s", res_str(r, "b.workload", "?"),
			 res_str(r, "a.workload", "?"));
	else
		snprintf(c->c[0], sizeof(c->c[0]), "%s", res_str(r, "workload", "?"));
	if (within && res_str(r, "b.label", NULL))
		snprintf(c->c[1], sizeof(c->c[1]), "%s [%s]", res_str(r, "point", ""),
			 res_str(r, "b.label", ""));
	else
		snprintf(c->c[1], sizeof(c->c[1]), "%s", res_str(r, "point", ""));
	snprintf(c->c[2], sizeof(c->c[2]), "%s%s", res_str(r, "metric", "?"),
		 json_is_true(json_object_get(r, "lower_is_better")) ? " (lower better)" : "");
	fmt_num(res_num(r, "a.value"), c->c[3], sizeof(c->c[3]));
	fmt_num(res_num(r, "b.value"), c->c[4], sizeof(c->c[4]));
	double lov = json_is_number(json_array_get(ci, 0)) ? json_number_value(json_array_get(ci, 0)) : NAN;
	double hiv = json_is_number(json_array_get(ci, 1)) ? json_number_value(json_array_get(ci, 1)) : NAN;

	snprintf(lo, sizeof(lo), isfinite(lov) ? "%.3f" : "-", lov);
	snprintf(hi, sizeof(hi), isfinite(hiv) ? "%.3f" : "-", hiv);
	if (isfinite(res_num(r, "ratio")))
		snprintf(c->c[5], sizeof(c->c[5]), "%.3f [%s, %s]", res_num(r, "ratio"), lo, hi);
	else
		snprintf(c->c[5], sizeof(c->c[5]), "-");
	fmt_p(res_num(r, "welch_p"), c->c[6], sizeof(c->c[6]));
	fmt_p(res_num(r, "holm_p"), c->c[7], sizeof(c->c[7]));
	fmt_p(res_num(r, "mw_p"), a, sizeof(a));
	snprintf(c->c[8], sizeof(c->c[8]), "%s%s", a,
		 json_is_false(json_object_get(r, "mw_exact")) ? " (normal)" : "");
	snprintf(b, sizeof(b), "%.0f/%.0f", res_num(r, "a.n"), res_num(r, "b.n"));
	snprintf(c->c[9], sizeof(c->c[9]), "%s", b);
	/* Grants per 1000 acquisitions of each side, where it requests. */
	double ga = res_num(r, "a.grants_per_1000_ops"), gb = res_num(r, "b.grants_per_1000_ops");

	if (isfinite(ga) || isfinite(gb)) {
		fmt_num(ga, a, sizeof(a));
		fmt_num(gb, b, sizeof(b));
		snprintf(c->c[10], sizeof(c->c[10]), "%s/%s", a, b);
		if (isfinite(res_num(r, "b.can_fire_per_1000"))) {
			size_t l = strlen(c->c[10]);

			snprintf(c->c[10] + l, sizeof(c->c[10]) - l, " (can %.3g)",
				 res_num(r, "b.can_fire_per_1000"));
		}
	} else {
		snprintf(c->c[10], sizeof(c->c[10]), "-");
	}
	/* The smallest ratio the row could have declared (either way). */
	double mde = res_num(r, "mde.ratio");

	snprintf(c->c[11], sizeof(c->c[11]), !isfinite(mde) ? "-" : mde < 1000 ? "x%.3g" : "x%.0f",
		 mde);
	snprintf(c->c[12], sizeof(c->c[12]), "%s",
		 res_str(r, "reading", res_str(r, "verdict", "?")));
	c->c[13][0] = '\0';
	json_array_foreach(fl, i, f) {
		size_t l = strlen(c->c[13]);

		snprintf(c->c[13] + l, sizeof(c->c[13]) - l, "%s%s", l ? "; " : "",
			 json_string_value(f));
	}
}

static void print_list(FILE *f, const json_t *rep, const char *key, const char *prefix,
		       enum cmp_format fmt)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(rep, key), i, v) {
		if (fmt == CMP_HTML) {
			fprintf(f, "<p class=\"%s\">%s", key, prefix);
			html_esc(f, json_string_value(v));
			fputs("</p>\n", f);
		} else {
			fprintf(f, "%s%s%s\n", fmt == CMP_MARKDOWN ? "- " : "", prefix,
				json_string_value(v));
		}
	}
}

static void print_shown(FILE *f, const json_t *rep, enum cmp_format fmt);

/* A markdown table cell's text: a '|' would split the cell. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[]){ *s, 0 }, f);
}

void cmp_print(FILE *f, const json_t *rep, enum cmp_format fmt)
{
	if (fmt == CMP_JSON) {
		json_dumpf(rep, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', f);
		return;
	}
	/* Every string of the report comes from the results (labels, file
	 * names, reasons, meta) and may hold any bytes: a newline would add
	 * a markdown row, ESC would reach the terminal.  They are printed
	 * from a copy with each control byte as \xNN. */
	json_t *shown = json_map_strings(rep, txt_term), *esc;

	/* Markdown may hold inline HTML: a "<script>" in it is text.  The
	 * A/A lines print their strings as they are (aa_print): for HTML they
	 * get their entities here, the rest at its printing. */
	if (fmt == CMP_MARKDOWN) {
		esc = json_map_strings(shown, html_esc_dup);
		json_decref(shown);
		shown = esc;
	}
	for (size_t k = 0; fmt == CMP_HTML && k < 2; k++) {
		const char *key = k ? "true_aa" : "aa_checks";

		if ((esc = json_object_get(shown, key)))
			json_object_set_new(shown, key, json_map_strings(esc, html_esc_dup));
	}
	print_shown(f, shown, fmt);
	json_decref(shown);
}

static void print_shown(FILE *f, const json_t *rep, enum cmp_format fmt)
{
	json_t *rows = json_object_get(rep, "rows"), *r, *v;
	size_t n = json_array_size(rows), i;
	int within = !strcmp(res_str(rep, "mode", ""), "within");
	struct cells *cs;
	int w[NCOL] = { 0 }, groups = 0;

	cs = calloc(n ? n : 1, sizeof(*cs));
	if (!cs)
		return;
	json_array_foreach(rows, i, r) {
		row_cells(r, within, &cs[i]);
		if (i && strcmp(res_str(r, "group", ""),
				res_str(json_array_get(rows, i - 1), "group", "")))
			groups = 1;
	}
	const char *h1 = fmt == CMP_MARKDOWN ? "### " : fmt == CMP_HTML ? "<h3>" : "";

	fprintf(f, "%sslicebench compare%s%s%s\n", h1,
		within ? ": every workload vs " : "", within ? res_str(rep, "baseline", "?") : "",
		fmt == CMP_HTML ? "</h3>" : "");
	if (fmt == CMP_HTML)
		fputs("<p>", f);
	fprintf(f,
		"noise band %.3g%%, %zu rows, family %s (each row at %.3g); the verdict follows "
		"Welch's t-test on log values, the exact Mann-Whitney U p is a cross-check "
		"(and decides where a window had 0 ops); MDE: the smallest ratio the row "
		"could have declared (power %.0f%%, at the family's level); equivalence: "
		"two one-sided tests within +-%.3g%%%s\n",
		res_num(rep, "threshold_pct"), n,
		res_str(json_array_get(rows, 0), "family.kind", "report"),
		res_num(json_array_get(rows, 0), "family.level"), 100 * res_num(rep, "power"),
		res_num(rep, "equivalence_pct"),
		fmt == CMP_HTML ? "</p>" : fmt == CMP_MARKDOWN ? "\n" : "");
	if (fmt == CMP_HTML) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			cmp_summary_print(m, rep, "");
			fclose(m);
			fputs("<pre class=\"summary\">", f);
			html_esc(f, buf);
			fputs("</pre>\n", f);
			free(buf);
		}
	} else {
		cmp_summary_print(f, rep, fmt == CMP_MARKDOWN ? "- " : "");
	}
	json_array_foreach(json_object_get(rep, "files"), i, v) {
		if (fmt == CMP_HTML) {
			fputs("<p class=\"file\">", f);
			html_esc(f, res_str(v, "role", ""));
			fputs(": <code>", f);
			html_esc(f, res_str(v, "file", ""));
			fputs("</code>: ", f);
			html_esc(f, res_str(v, "meta", ""));
			fputs("</p>\n", f);
		} else {
			fprintf(f, "%s%s: %s: %s\n", fmt == CMP_MARKDOWN ? "- " : "  ",
				res_str(v, "role", ""), res_str(v, "file", ""), res_str(v, "meta", ""));
		}
	}
	print_list(f, rep, "warnings", "WARNING: ", fmt);
	print_list(f, rep, "notes", "note: ", fmt);
	aa_print(f, rep, fmt);
	noise_print(f, rep, fmt);
	if (fmt != CMP_HTML)
		fputc('\n', f);
	if (fmt == CMP_TEXT) {
		for (int k = 0; k < NCOL; k++)
			w[k] = (int)strlen(heads[k]);
		for (i = 0; i < n; i++)
			for (int k = 0; k < NCOL; k++)
				if ((int)strlen(cs[i].c[k]) > w[k])
					w[k] = (int)strlen(cs[i].c[k]);
		w[NCOL - 1] = 0; /* the last column is not padded */
	}
	const char *prev = NULL;

	if (fmt == CMP_HTML)
		fputs("<table class=\"compare\">\n<tr>", f);
	for (int k = 0; k < NCOL; k++) {
		int last = k == NCOL - 1;

		if (fmt == CMP_TEXT)
			fprintf(f, "%-*s%s", w[k], heads[k], last ? "\n" : "  ");
		else if (fmt == CMP_MARKDOWN)
			fprintf(f, "| %s %s", heads[k], last ? "|\n" : "");
		else
			fprintf(f, "<th>%s</th>%s", heads[k], last ? "</tr>\n" : "");
	}
	if (fmt == CMP_MARKDOWN)
		fprintf(f, "|---|---|---|--:|--:|---|--:|--:|--:|--:|--:|--:|---|---|\n");
	json_array_foreach(rows, i, r) {
		const char *g = res_str(r, "group", "");

		if (groups && (!prev || strcmp(prev, g))) {
			if (fmt == CMP_TEXT)
				fprintf(f, "== %s ==\n", g);
			else if (fmt == CMP_MARKDOWN) {
				fputs("| **", f);
				md_cell(f, g);
				fputs("** | | | | | | | | | | | | | |\n", f);
			}
			else {
				fprintf(f, "<tr><th colspan=\"%d\">", NCOL);
				html_esc(f, g);
				fputs("</th></tr>\n", f);
			}
		}
		prev = g;
		const char *verdict = res_str(r, "verdict", "?");

		if (fmt == CMP_HTML)
			fprintf(f, "<tr class=\"%s\">", verdict);
		for (int k = 0; k < NCOL; k++) {
			const char *s = cs[i].c[k];
			int last = k == NCOL - 1;

			if (fmt == CMP_TEXT) {
				fprintf(f, "%-*s%s", w[k], s, last ? "\n" : "  ");
			} else if (fmt == CMP_MARKDOWN) {
				fputs("| ", f);
				md_cell(f, s);
				fprintf(f, " %s", last ? "|\n" : "");
			} else {
				fputs("<td>", f);
				html_esc(f, s);
				fputs(last ? "</td></tr>\n" : "</td>", f);
			}
		}
	}
	if (fmt == CMP_HTML)
		fputs("</table>\n", f);
	if (json_array_size(json_object_get(rep, "not_compared"))) {
		if (fmt == CMP_HTML)
			fputs("<p>not compared (no data on a side):</p>\n", f);
		else
			fprintf(f, "\nnot compared (no data on a side):\n");
		print_list(f, rep, "not_compared", "", fmt);
	}
	free(cs);
}
