/* fldcheck.h - a result document against the field table (harness/lib/fields.h):
 * every value's JSON type, the fields a result's status requires, and,
 * when strict, any key the table does not declare. */
#ifndef SB_FLDCHECK_H
#define SB_FLDCHECK_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Called per defect with the path of the value (relative to what was
 * walked: "summary.ops_per_sec.mean", "repetitions[2].ops"), the value
 * found (NULL when missing) and what is wrong. */
typedef void fld_report_fn(void *ctx, const char *path, const json_t *got, const char *msg);

/* One result (an element of "results"); the count of defects. */
size_t fld_check_result(const json_t *r, int strict, fld_report_fn *fn, void *ctx);
/* The document around its results: schema, meta, config, "results" being a
 * list of objects.  Paths are relative to the document. */
size_t fld_check_envelope(const json_t *doc, int strict, fld_report_fn *fn, void *ctx);
/* Rows whose parent path has no row (a table defect): their count, each
 * printed on out.  The table's own test calls it. */
size_t fld_orphans(FILE *out);

#endif
