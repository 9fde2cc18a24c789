/* stats.c - the suite's statistics: the summary of repetitions and
 * threads (mean, spread, Student-t interval), and the A/B tests of
 * `slicebench compare` (Welch's t-test on logs, exact Mann-Whitney U,
 * Holm's step-down, outlier flags; Fisher's exact test and the power of
 * a share for two-state rows).  Quantiles of t and the normal
 * distribution from GSL. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "resset.h"

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static void mean_var(const double *x, size_t n, double *m, double *v)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	*m = n ? s / (double)n : NAN;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *m) * (x[i] - *m);
	*v = n > 1 ? ss / (double)(n - 1) : NAN;
}

void st_summarize(const double *x, size_t n, struct st_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	double *sorted = malloc(n * sizeof(*sorted));

	if (!sorted)
		abort();
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	double var;

	mean_var(x, n, &s->mean, &var);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
	s->ci95_lo = s->ci95_hi = s->mean;
	if (n < 2)
		return;
	s->stddev = sqrt(var);
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

/* The shape of fields.h's SB_FLD_STATS: every instance has the same keys,
 * named here by summary.ops_per_sec. */
json_t *st_summary_json(const struct st_summary *s)
{
	return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", fld_key(fld_s_ops_n), (json_int_t)s->n,
			 fld_key(fld_s_ops_mean), s->mean, fld_key(fld_s_ops_stddev), s->stddev,
			 fld_key(fld_s_ops_median), s->median, fld_key(fld_s_ops_min), s->min,
			 fld_key(fld_s_ops_max), s->max, fld_key(fld_s_ops_ci95_lo), s->ci95_lo,
			 fld_key(fld_s_ops_ci95_hi), s->ci95_hi);
}

/* ---- A/B tests ---- */

int st_logs(const double *x, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return 0;
		out[i] = log(x[i]);
	}
	return 1;
}

void st_welch_log(const double *a, size_t na, const double *b, size_t nb, struct st_welch *w)
{
	double ma, va, mb, vb;

	memset(w, 0, sizeof(*w));
	w->ratio = w->lo = w->hi = w->t = w->df = w->p = w->se = NAN;
	if (!na || !nb)
		return;
	/* Heap, not the stack: the sizes come from the input. */
	double *la = malloc((na + nb) * sizeof(*la)), *lb = la + na;

	if (!la)
		return;
	if (!st_logs(a, na, la) || !st_logs(b, nb, lb)) {
		free(la);
		return;
	}
	w->ok = 1;
	mean_var(la, na, &ma, &va);
	mean_var(lb, nb, &mb, &vb);
	free(la);
	w->ratio = exp(mb - ma);
	if (na < 2 || nb < 2)
		return;
	double sa = va / (double)na, sb = vb / (double)nb, se = sqrt(sa + sb);

	/* Welch-Satterthwaite degrees of freedom; constant on both sides,
	 * the pooled count. */
	st_log_test(w, mb - ma, se,
		    se == 0 ? (double)(na + nb - 2)
			    : (sa + sb) * (sa + sb) /
				      (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1)));
}

void st_log_test(struct st_welch *w, double d, double se, double df)
{
	w->ratio = exp(d);
	w->se = se;
	w->df = df;
	if (se == 0) {
		/* Exact: the difference is d, or none. */
		w->lo = w->hi = w->ratio;
		w->p = d == 0 ? 1.0 : 0.0;
		w->t = d == 0 ? 0 : copysign(INFINITY, d);
		return;
	}
	w->t = d / se;
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), df);
	if (w->p > 1)
		w->p = 1;
	double h = gsl_cdf_tdist_Pinv(0.975, df) * se;

	w->lo = exp(d - h);
	w->hi = exp(d + h);
}

#define MW_EXACT_MAX 50

/* Counts of U = #(x > y) over all arrangements of m x's and n y's, by the
 * recurrence f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u) (is the largest value an
 * x or a y?), only additions so the doubles stay exact far enough. */
static double *mw_counts(size_t m, size_t n)
{
	size_t U = m * n + 1;
	double *prev = calloc((n + 1) * U, sizeof(double));
	double *cur = calloc((n + 1) * U, sizeof(double));

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NULL;
	}
	for (size_t j = 0; j <= n; j++)
		prev[j * U] = 1; /* m = 0: one arrangement, U = 0 */
	for (size_t i = 1; i <= m; i++) {
		memset(cur, 0, (n + 1) * U * sizeof(double));
		cur[0] = 1; /* n = 0 */
		for (size_t j = 1; j <= n; j++)
			for (size_t u = 0; u <= i * j; u++)
				cur[j * U + u] = (u >= j ? prev[j * U + u - j] : 0) +
						 cur[(j - 1) * U + u];
		double *t = prev;

		prev = cur;
		cur = t;
	}
	double *res = malloc(U * sizeof(double));

	if (res)
		memcpy(res, prev + n * U, U * sizeof(double));
	free(prev);
	free(cur);
	return res;
}

double st_mann_whitney(const double *a, size_t na, const double *b, size_t nb, int *exact,
			int *ties)
{
	double u = 0;
	size_t N = na + nb;

	*exact = 0;
	*ties = 0;
	if (!na || !nb)
		return NAN;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			if (a[i] > b[j])
				u += 1;
			else if (a[i] == b[j]) {
				u += 0.5;
				*ties = 1;
			}
		}
	if (na <= MW_EXACT_MAX && nb <= MW_EXACT_MAX) {
		double *f = mw_counts(na, nb), tot = 0, lo = 0, hi = 0;

		if (f) {
			for (size_t k = 0; k <= na * nb; k++) {
				tot += f[k];
				if ((double)k <= floor(u))
					lo += f[k];
				if ((double)k >= ceil(u))
					hi += f[k];
			}
			free(f);
			*exact = 1;
			double p = 2 * fmin(lo, hi) / tot;

			return p > 1 ? 1 : p;
		}
	}
	/* Normal approximation with the tie-corrected variance. */
	double *all = malloc(N * sizeof(double)), tsum = 0;

	if (!all)
		return NAN;
	memcpy(all, a, na * sizeof(double));
	memcpy(all + na, b, nb * sizeof(double));
	for (size_t i = 0; i < N; i++) {
		size_t t = 0;

		for (size_t j = 0; j < N; j++)
			t += all[j] == all[i];
		tsum += (double)t * (double)t - 1; /* summed per member: (t^3 - t) per group */
	}
	free(all);
	double mu = (double)na * (double)nb / 2;
	double var = (double)na * (double)nb / 12 *
		     ((double)N + 1 - tsum / ((double)N * ((double)N - 1)));

	if (!(var > 0))
		return 1;
	double z = (fabs(u - mu) - 0.5) / sqrt(var);

	return z <= 0 ? 1 : fmin(1, 2 * gsl_cdf_ugaussian_Q(z));
}

struct holm_ent {
	double p;
	size_t i;
};

static int holm_cmp(const void *x, const void *y)
{
	const struct holm_ent *a = x, *b = y;

	return a->p < b->p ? -1 : a->p > b->p ? 1 : (a->i > b->i) - (a->i < b->i);
}

/* The finite entries of p sorted ascending (ties by index), *m of them;
 * NULL when out of memory. */
static struct holm_ent *holm_sorted(const double *p, size_t n, size_t *m)
{
	struct holm_ent *e = malloc((n ? n : 1) * sizeof(*e));

	*m = 0;
	if (!e)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (isfinite(p[i]))
			e[(*m)++] = (struct holm_ent){ p[i], i };
	/* Rows can be thousands (a directory of results): n log n. */
	qsort(e, *m, sizeof(*e), holm_cmp);
	return e;
}

void st_holm(double *p, size_t n)
{
	size_t m;
	struct holm_ent *e = holm_sorted(p, n, &m);

	if (!e) { /* no correction possible: say nothing is significant */
		for (size_t i = 0; i < n; i++)
			p[i] = isfinite(p[i]) ? 1.0 : p[i];
		return;
	}
	double run = 0;

	for (size_t k = 0; k < m; k++) {
		double adj = fmin(1, (double)(m - k) * e[k].p);

		run = fmax(run, adj); /* step-down: adjusted p never decreases */
		p[e[k].i] = run;
	}
	free(e);
}

double st_mde_log(const struct st_welch *w, double alpha, double power)
{
	if (!isfinite(w->se) || !isfinite(w->df) || !(alpha > 0 && alpha < 1))
		return NAN;
	if (w->se == 0)
		return 1; /* constant on both sides: any difference shows */
	double k = gsl_cdf_tdist_Pinv(1 - alpha / 2, w->df) + gsl_cdf_tdist_Pinv(power, w->df);

	return exp(k * w->se);
}

double st_tost_log(const struct st_welch *w, double margin)
{
	if (!isfinite(w->se) || !isfinite(w->df) || !(margin >= 0))
		return NAN;
	double d = log(w->ratio), e = log1p(margin);

	if (w->se == 0)
		return fabs(d) < e ? 0 : 1;
	/* H0: d <= -e (rejected for large t) and H0: d >= +e (for small t). */
	double lo = gsl_cdf_tdist_Q((d + e) / w->se, w->df);
	double hi = gsl_cdf_tdist_P((d - e) / w->se, w->df);

	return fmax(lo, hi);
}

int st_equiv_decide(const struct st_welch *w, double margin, double level, double *tost)
{
	*tost = w->ok ? st_tost_log(w, margin) : NAN;
	if (isfinite(*tost) && *tost < level)
		return 1;
	if (w->ok && isfinite(w->p) && w->p < level &&
	    (w->ratio > 1 + margin || w->ratio < 1 / (1 + margin)))
		return -1;
	return 0;
}

static double quantile_sorted(const double *s, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);

	return lo + 1 < n ? s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]) : s[n - 1];
}

void st_outliers(const double *x, size_t n, int *flags)
{
	memset(flags, 0, n * sizeof(*flags));
	if (n < 3)
		return;
	double *s = malloc(2 * n * sizeof(*s)), *dev = s + n;

	if (!s)
		return;
	memcpy(s, x, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	double med = quantile_sorted(s, n, 0.5);

	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	qsort(dev, n, sizeof(double), cmp_double);
	/* 1.4826 scales the MAD to a standard deviation for normal data. */
	double mad = 1.4826 * quantile_sorted(dev, n, 0.5);

	for (size_t i = 0; i < n; i++)
		if (mad > 0 && fabs(x[i] - med) > 3 * mad)
			flags[i] |= 2;
	if (n >= 4) {
		double q1 = quantile_sorted(s, n, 0.25), q3 = quantile_sorted(s, n, 0.75);
		double iqr = q3 - q1;

		for (size_t i = 0; i < n; i++)
			if (x[i] < q1 - 1.5 * iqr || x[i] > q3 + 1.5 * iqr)
				flags[i] |= 1;
	}
	free(s);
}

double st_center(const double *x, size_t n, int median)
{
	double m, v, *s;

	if (!n)
		return NAN;
	if (!median) {
		mean_var(x, n, &m, &v);
		return m;
	}
	if (!(s = malloc(n * sizeof(*s))))
		return NAN;
	memcpy(s, x, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	m = quantile_sorted(s, n, 0.5);
	free(s);
	return m;
}

double st_fisher(size_t k1, size_t n1, size_t k2, size_t n2)
{
	size_t t = k1 + k2, lo = t > n2 ? t - n2 : 0, hi = t < n1 ? t : n1;

	if (k1 > n1 || k2 > n2 || !n1 || !n2)
		return NAN;
	double seen = gsl_ran_hypergeometric_pdf((unsigned)k1, (unsigned)n1, (unsigned)n2,
						 (unsigned)t),
	       p = 0;

	/* Tables as likely as the one seen, to rounding, count as such. */
	for (size_t k = lo; k <= hi; k++) {
		double pk = gsl_ran_hypergeometric_pdf((unsigned)k, (unsigned)n1, (unsigned)n2,
						       (unsigned)t);

		if (pk <= seen * (1 + 1e-7))
			p += pk;
	}
	return fmin(1, p);
}

double st_share_mde(double p0, size_t n0, size_t n1, double alpha, double power)
{
	if (!(p0 >= 0 && p0 <= 1) || !n0 || !n1 || !(alpha > 0 && alpha < 1))
		return NAN;
	double h = (gsl_cdf_ugaussian_Pinv(1 - alpha / 2) + gsl_cdf_ugaussian_Pinv(power)) *
		   sqrt(1.0 / (double)n0 + 1.0 / (double)n1);
	double phi = 2 * asin(sqrt(p0)), best = NAN;

	if (phi + h <= 2 * asin(1.0)) { /* pi: the share cannot pass 1 */
		double s = sin((phi + h) / 2);

		best = s * s - p0;
	}
	if (phi - h >= 0) {
		double s = sin((phi - h) / 2), down = p0 - s * s;

		best = isfinite(best) ? fmin(best, down) : down;
	}
	return best;
}

double st_widest_gap(const double *a, size_t na, const double *b, size_t nb, double *cut)
{
	size_t n = na + nb, at = 0;
	double *x = n >= 2 ? malloc(n * sizeof(*x)) : NULL, gap = 0;

	*cut = NAN;
	if (!x)
		return NAN;
	if (!st_logs(a, na, x) || !st_logs(b, nb, x + na)) {
		free(x);
		return NAN;
	}
	qsort(x, n, sizeof(*x), cmp_double);
	for (size_t i = 1; i < n; i++)
		if (x[i] - x[i - 1] > gap) {
			gap = x[i] - x[i - 1];
			at = i;
		}
	if (at)
		*cut = exp((x[at] + x[at - 1]) / 2);
	free(x);
	return exp(gap);
}
