/* stats.h - summary statistics of repetitions and threads. */
#ifndef SB_STATS_H
#define SB_STATS_H

#include <stddef.h>

#include <jansson.h>

struct st_summary {
	size_t n;
	double mean, stddev, median, min, max;
	double ci95_lo, ci95_hi; /* Student-t interval of the mean; = mean when n < 2 */
};

void st_summarize(const double *x, size_t n, struct st_summary *out);
/* Jain's fairness index (sum x)^2 / (n * sum x^2): 1 = perfectly fair,
 * 1/n = one thread did all the work.  1 when all are zero. */
double st_jain(const double *x, size_t n);
json_t *st_summary_json(const struct st_summary *s);

#endif
