/* cmppair.h - pairing the results of compare by their run point. */
#ifndef SB_CMPPAIR_H
#define SB_CMPPAIR_H

#include <stddef.h>

#include <jansson.h>

/* workload (with_workload) + params without the keys that do not define a
 * point; run_keys_only also drops the workloads' own knobs (--within).
 * A compact JSON string to free(). */
char *cmp_point_key(const json_t *r, int with_workload, int run_keys_only);
/* Which params vary among each workload's results:
 * {workload: {"n": results, "keys": {key: [first value, count, differs]}}}. */
json_t *cmp_variation(json_t *const *all, size_t nall);
/* "threads=2x pin=oversubscribe:2": threads, then the keys that vary. */
void cmp_point_desc(const json_t *r, const json_t *var, char *buf, size_t len);
/* Whether a workload's name is a dry control's (LOCK+POLICY+dry,
 * slice-dry, slice-adaptive-dry: the name ends in "dry"). */
int cmp_dry_name(const char *workload);

#endif
