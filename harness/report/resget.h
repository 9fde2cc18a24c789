/* resget.h - the accessors of a loaded result (resload.h): they return NAN
 * or NULL for a missing or mistyped field, so a hostile file can only
 * degrade a report, never crash it. */
#ifndef SB_RESGET_H
#define SB_RESGET_H

#include <stddef.h>

#include <jansson.h>

/* "a.b.c" inside obj; NULL when any step is missing or not an object. */
json_t *res_get(const json_t *obj, const char *path);
/* A number at path, NAN when missing or not a number. */
double res_num(const json_t *obj, const char *path);
/* A string at path, or def. */
const char *res_str(const json_t *obj, const char *path, const char *def);
/* The meta a result was measured under (its "_meta", else the document's). */
const json_t *res_meta_of(const json_t *doc, const json_t *result);
/* "host / cpu model / kernel release" of a meta, for grouping reports. */
void res_group(const json_t *meta, char *buf, size_t len);
/* Where a meta was measured: "VM (tcg)" under scripts/vm.sh, "virtualized
 * (KIND)" in another hypervisor's guest, else "bare metal". */
void res_where(const json_t *meta, char *buf, size_t len);
/* One line for a meta: kernel, CPU, where (res_where), date. */
void res_meta_line(const json_t *meta, char *buf, size_t len);

/* The finite values at path (divided by the one at div_path, when given and
 * above 0) of every repetition of result r, in a new array *out sized for
 * all of them (free it); the count.  No cap: a result with 5,000
 * repetitions gives 5,000 values. */
size_t res_rep_values(const json_t *r, const char *path, const char *div_path, double **out);

#endif
