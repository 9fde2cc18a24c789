/* fldcheck.c - walks a result document along the field table.  Each
 * table row's parent is the row of its path minus the last segment (".key",
 * or "[]" for a list's elements); a value is matched to its parent row's
 * child of the same key, else to its "*" child.  Checking follows the
 * tree: a value of the wrong type is named and not descended into. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fldcheck.h"
#include "resget.h"

#include "../lib/fields.h"
#include "../lib/status.h"

/* The tree over the table: full paths, parents, first child, next sibling;
 * index fld_count is the document itself. */
#define MAXF 1024
#define ROOT fld_count
static char full[MAXF][160];
static size_t parent[MAXF + 1], child[MAXF + 1], sibling[MAXF + 1];
static const char *seg[MAXF];
static int built;

static void build(void)
{
	if (built)
		return;
	for (size_t i = 0; i <= fld_count; i++)
		parent[i] = child[i] = sibling[i] = SIZE_MAX;
	for (size_t i = 0; i < fld_count && i < MAXF; i++) {
		char *f = full[i], up[160];
		size_t n;

		snprintf(f, sizeof(full[i]), "%s%s", fld_scope_prefix(fld_table[i].scope),
			 fld_table[i].path);
		n = strlen(f);
		if (n >= 2 && !strcmp(f + n - 2, "[]")) {
			seg[i] = f + n - 2;
			snprintf(up, sizeof(up), "%.*s", (int)(n - 2), f);
		} else {
			char *dot = strrchr(f, '.');

			seg[i] = dot ? dot + 1 : f;
			snprintf(up, sizeof(up), "%.*s", dot ? (int)(dot - f) : 0, f);
		}
		if (!*up)
			parent[i] = ROOT;
		for (size_t j = 0; j < i && *up; j++)
			if (!strcmp(full[j], up))
				parent[i] = j;
		if (parent[i] == SIZE_MAX)
			continue;
		/* appended, so members keep the table's order */
		size_t *p = &child[parent[i]];

		while (*p != SIZE_MAX)
			p = &sibling[*p];
		*p = i;
	}
	built = 1;
}

size_t fld_orphans(FILE *out)
{
	size_t n = 0;

	build();
	for (size_t i = 0; i < fld_count; i++)
		if (i >= MAXF || parent[i] == SIZE_MAX) {
			fprintf(out, "%s: no row for its parent\n", i < MAXF ? full[i] : "?");
			n++;
		}
	return n;
}

struct walk {
	fld_report_fn *fn;
	void *ctx;
	int strict, ok, prim, program;
	size_t stop, errors;
};

static int applies(const struct walk *w, unsigned need)
{
	switch (need) {
	case FN_WITH: return 1;
	case FN_OK: return w->ok;
	case FN_RATE: return w->ok && !w->prim;
	case FN_LOOP: return w->ok && !w->prim && !w->program;
	case FN_NOTOK: return !w->ok;
	}
	return 0;
}

static void report(struct walk *w, const char *path, const json_t *v, const char *msg)
{
	w->fn(w->ctx, path, v, msg);
	w->errors++;
}

static unsigned type_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return FT_OBJ;
	case JSON_ARRAY: return FT_LIST;
	case JSON_STRING: return FT_STR;
	case JSON_INTEGER: return FT_INT;
	case JSON_REAL: return FT_REAL;
	case JSON_TRUE:
	case JSON_FALSE: return FT_BOOL;
	default: return FT_NULL;
	}
}

static size_t match(size_t row, const char *key)
{
	size_t star = SIZE_MAX;

	for (size_t c = child[row]; c != SIZE_MAX; c = sibling[c]) {
		if (!strcmp(seg[c], key))
			return c;
		if (!strcmp(seg[c], "*"))
			star = c;
	}
	return star;
}

static void walk(struct walk *w, const json_t *v, size_t row, const char *path)
{
	char p[512], msg[160], t[96];
	unsigned type = row == ROOT ? FT_OBJ : fld_table[row].type;

	if (!(type_of(v) & type)) {
		fld_type_text(type, t, sizeof(t));
		snprintf(msg, sizeof(msg), "must be %s", t);
		report(w, path, v, msg);
		return;
	}
	if (row == w->stop)
		return;
	if (json_is_array(v)) {
		size_t el = match(row, "[]"), i;
		const json_t *x;

		json_array_foreach(v, i, x) {
			snprintf(p, sizeof(p), "%s[%zu]", path, i);
			if (el != SIZE_MAX)
				walk(w, x, el, p);
		}
		return;
	}
	if (!json_is_object(v))
		return;
	const char *k;
	json_t *x;

	json_object_foreach((json_t *)v, k, x) {
		size_t c = match(row, k);

		snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", k);
		if (c != SIZE_MAX)
			walk(w, x, c, p);
		else if (w->strict && !(type & FT_OPEN))
			report(w, p, x, "is not a field of the result schema (docs/result-schema.md)");
	}
	for (size_t c = child[row]; c != SIZE_MAX; c = sibling[c]) {
		static const char *const when[] = { "", " in an ok result", " in an ok result",
						    " in an ok result of the lock loop",
						    " in a result that is not ok" };
		unsigned need = fld_table[c].need;

		if (!strcmp(seg[c], "*") || !strcmp(seg[c], "[]") || !applies(w, need) ||
		    json_object_get(v, seg[c]))
			continue;
		snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", seg[c]);
		snprintf(msg, sizeof(msg), "is required%s", need < 5 ? when[need] : "");
		report(w, p, NULL, msg);
	}
}

static size_t row_of(const char *name)
{
	return (size_t)(fld_of(name) - fld_table);
}

size_t fld_check_result(const json_t *r, int strict, fld_report_fn *fn, void *ctx)
{
	const json_t *st = json_object_get(r, fld_r_status);
	struct walk w = { fn, ctx, strict, json_is_string(st) && rs_is(json_string_value(st), RS_OK),
			  res_get(r, fld_s_prim) != NULL, res_get(r, fld_s_metric_name) != NULL,
			  SIZE_MAX, 0 };

	build();
	walk(&w, r, row_of(fld_result), "");
	return w.errors;
}

size_t fld_check_envelope(const json_t *doc, int strict, fld_report_fn *fn, void *ctx)
{
	struct walk w = { fn, ctx, strict, 0, 0, 0, 0, 0 };

	build();
	w.stop = row_of(fld_result);
	walk(&w, doc, ROOT, "");
	return w.errors;
}
