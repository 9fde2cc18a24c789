/* stats.c - mean, spread and confidence intervals (t quantiles from GSL). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void st_summarize(const double *x, size_t n, struct st_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	double *sorted = malloc(n * sizeof(*sorted));
	double sum = 0;

	if (!sorted)
		abort();
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / (double)n;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
	s->ci95_lo = s->ci95_hi = s->mean;
	if (n < 2)
		return;
	double ss = 0;

	for (size_t i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->stddev = sqrt(ss / (double)(n - 1));
	double half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * s->stddev / sqrt((double)n);

	s->ci95_lo = s->mean - half;
	s->ci95_hi = s->mean + half;
}

double st_jain(const double *x, size_t n)
{
	double sum = 0, sq = 0;

	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	return sq > 0 ? sum * sum / ((double)n * sq) : 1.0;
}

json_t *st_summary_json(const struct st_summary *s)
{
	return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "n", (json_int_t)s->n, "mean",
			 s->mean, "stddev", s->stddev, "median", s->median, "min", s->min,
			 "max", s->max, "ci95_lo", s->ci95_lo, "ci95_hi", s->ci95_hi);
}
