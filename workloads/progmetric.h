/* progmetric.h - the number a program's output reports: a regular
 * expression's first group, or a dotted path into its JSON output. */
#ifndef SB_PROGMETRIC_H
#define SB_PROGMETRIC_H

#include <stddef.h>

/* The largest metric taken (pm_extract refuses one above it, a negative
 * or not finite one): the statistics of 1000 repetitions (sums, squared
 * deviations) stay finite, and no program reports a rate near it. */
#define PM_MAX 1e15

/* Whether regex compiles with at least one group, and whether json_path
 * names no empty key; 0, or -1 with the message (the value quoted) in err. */
int pm_check_regex(const char *regex, char *err, size_t len);
int pm_check_path(const char *json_path, char *err, size_t len);
/* The metric in out (NUL-terminated), by regex when it is not "", else by
 * json_path (the caller checked that one of them is set): 0 and *v, or -1
 * with why in err (the value out of range named with its line of out).
 * The regex takes its last match (a final summary line beats the
 * interim reports programs print); the path is dot-separated keys and
 * array indices ("totals.ops_per_sec", "runs.0.rate"). */
int pm_extract(const char *out, const char *regex, const char *json_path, double *v, char *err,
	       size_t len);

#endif
