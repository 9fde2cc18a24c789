/* stats.h - summary statistics of repetitions and threads, and the A/B
 * tests of compare: Welch on logs (decides), exact Mann-Whitney U
 * (cross-checks), Holm, outlier flags. */
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

/* out[i] = log(x[i]) for i < n: 1, or 0 (out partly written) when a value
 * is not a positive finite number, which has no log. */
int st_logs(const double *x, size_t n, double *out);

/* Welch's t-test on log values: the ratio of geometric means b/a with
 * its 95% CI.  p and the CI are NAN when either side has fewer than two
 * values; any value <= 0 gives ok = 0. */
struct st_welch {
	int ok;
	double ratio, lo, hi, t, df, p;
	double se; /* standard error of the log difference */
};
void st_welch_log(const double *a, size_t na, const double *b, size_t nb, struct st_welch *w);
/* The rest of a test of a log difference d with standard error se and df
 * degrees of freedom: ratio, t, two-sided p and the 95% interval (se 0:
 * exact); shared by Welch's test and the A/A check's paired one (aatest.c). */
void st_log_test(struct st_welch *w, double d, double se, double df);
/* The smallest ratio (>= 1; its inverse in the other direction) that a
 * two-sided Welch test at alpha detects with the given power, for the
 * test's standard error and degrees of freedom:
 * exp((t(1 - alpha/2, df) + t(power, df)) * se).  NAN without a test. */
double st_mde_log(const struct st_welch *w, double alpha, double power);
/* Two one-sided Welch tests (TOST) of the log ratio against +-log(1 +
 * margin): the larger one-sided p.  Below alpha, the ratio lies within
 * 1/(1 + margin)..(1 + margin) at that level.  NAN without a test. */
double st_tost_log(const struct st_welch *w, double margin);
/* An equivalence check decided at level: 1 equivalent (the TOST p below
 * level), -1 different (Welch's p below level and the ratio outside the
 * margin), 0 neither or no test.  *tost: the TOST p, NAN without a test. */
int st_equiv_decide(const struct st_welch *w, double margin, double level, double *tost);
/* Two-sided Mann-Whitney U p-value: exact (no-ties distribution) up to 50
 * values per side, else normal with tie correction.  *exact says which;
 * *ties whether any value repeats across the samples. */
double st_mann_whitney(const double *a, size_t na, const double *b, size_t nb, int *exact,
		       int *ties);
/* The widest gap between neighbours of a and b pooled and sorted, as the
 * ratio of the upper to the lower one, with their geometric midpoint in
 * *cut; NAN when a value is not positive or fewer than two are given. */
double st_widest_gap(const double *a, size_t na, const double *b, size_t nb, double *cut);
/* Fisher's exact test of k1 of n1 against k2 of n2, two-sided: the
 * probability, the margins fixed, of every table no more likely than the
 * one seen (Agresti, Categorical Data Analysis, 2002, 3.5.1). */
double st_fisher(size_t k1, size_t n1, size_t k2, size_t n2);
/* The smallest change of a share p0 measured in n0 trials that n1 trials
 * detect at level alpha with the given power, in either direction the share
 * can move (Cohen's h = 2 asin sqrt p1 - 2 asin sqrt p0, Cohen, Statistical
 * Power Analysis, 1988, ch. 6): |p1 - p0|, a fraction; NAN without a
 * design. */
double st_share_mde(double p0, size_t n0, size_t n1, double alpha, double power);
/* Holm step-down adjustment in place; NAN entries are left out. */
void st_holm(double *p, size_t n);
/* Flags by index: 1 = beyond 1.5 IQR of the quartiles, 2 = beyond 3 scaled
 * MADs of the median (both need enough values to mean anything). */
void st_outliers(const double *x, size_t n, int *flags);
/* The mean of x, or its median when median is set; NAN when n = 0. */
double st_center(const double *x, size_t n, int median);

#endif
