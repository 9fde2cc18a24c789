/* stats.c - summary statistics and histogram percentiles against values
 * computed by hand. */
#include <math.h>
#include <stdlib.h>

#include "../../harness/lib/hist.h"
#include "../../harness/lib/stats.h"
#include "tap.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

int main(void)
{
	struct st_summary s;
	/* mean 5, sample variance ((9+1+1+9)/3)=20/3 -> sd 2.5820;
	 * t(0.975, 3) = 3.182446 -> half width 3.182446*2.581989/2 = 4.108521 */
	const double x[] = { 2, 4, 6, 8 };

	st_summarize(x, 4, &s);
	CHECK(s.n == 4 && s.mean == 5.0, "stats: mean of 2,4,6,8 is 5");
	CHECK(near(s.stddev, 2.5819889, 1e-6), "stats: sample stddev is 2.5820");
	CHECK(s.median == 5.0 && s.min == 2 && s.max == 8, "stats: median 5, min 2, max 8");
	CHECK(near(s.ci95_lo, 5 - 4.108521, 1e-5) && near(s.ci95_hi, 5 + 4.108521, 1e-5),
	      "stats: 95%% CI uses Student t with 3 df (5 +- 4.1085)");
	const double odd[] = { 9, 1, 5 };

	st_summarize(odd, 3, &s);
	CHECK(s.median == 5.0, "stats: median of an odd count is the middle value");
	st_summarize(x, 1, &s);
	CHECK(s.stddev == 0 && s.ci95_lo == 2 && s.ci95_hi == 2, "stats: one value has no spread");

	/* The widest gap of {1, 2} and {1000, 2000}: 2 to 1000, x500, cut at
	 * their geometric midpoint sqrt(2000); a window without operations
	 * has no log and no gap. */
	const double lo2[] = { 2, 1 }, hi2[] = { 2000, 1000 }, zero[] = { 0, 1000 };
	double cut;

	CHECK(near(st_widest_gap(lo2, 2, hi2, 2, &cut), 500, 1e-9) && near(cut, sqrt(2000), 1e-9),
	      "stats: widest gap of 1,2 and 1000,2000 is x500, cut at sqrt(2000) (got %g)", cut);
	CHECK(isnan(st_widest_gap(lo2, 2, zero, 2, &cut)) && isnan(cut),
	      "stats: a zero value has no log: no gap");
	/* Fisher's tea-tasting table, 3 of 4 against 1 of 4: the tables as
	 * likely or less are 1, 16, 16 and 1 of 70, so p = 34/70.  10 of 20
	 * against 0 of 20: 2 C(20,10) / C(40,10) = 0.00043592. */
	CHECK(near(st_fisher(3, 4, 1, 4), 34.0 / 70, 1e-12), "stats: Fisher p of 3/4 vs 1/4 is 34/70 (got %g)",
	      st_fisher(3, 4, 1, 4));
	CHECK(near(st_fisher(10, 20, 0, 20), 2 * 184756.0 / 847660528.0, 1e-12) &&
		      st_fisher(0, 20, 10, 20) == st_fisher(10, 20, 0, 20),
	      "stats: Fisher p of 10/20 vs 0/20 is 0.000436, either way round");
	CHECK(st_fisher(5, 5, 5, 5) == 1 && isnan(st_fisher(6, 5, 0, 5)),
	      "stats: Fisher p of equal shares is 1; more successes than trials has none");
	/* Cohen's h at alpha 0.05, power 0.8, 20 a side: (1.95996 + 0.84162)
	 * sqrt(0.1) = 0.88594; from 0: sin^2(0.88594 / 2) = 0.18372; from
	 * 0.5 either way 0.38725. */
	CHECK(near(st_share_mde(0, 20, 20, 0.05, 0.8), 0.1837188, 1e-6),
	      "stats: a share of 0 in 20 windows: 20 more detect 18.4 points (got %g)",
	      st_share_mde(0, 20, 20, 0.05, 0.8));
	CHECK(near(st_share_mde(0.5, 20, 20, 0.05, 0.8), 0.3872547, 1e-6) &&
		      near(st_share_mde(1, 20, 20, 0.05, 0.8), 0.1837188, 1e-6),
	      "stats: from a share of 0.5, 38.7 points; from 1, downwards only");
	CHECK(isnan(st_share_mde(0.5, 0, 20, 0.05, 0.8)), "stats: no windows, no share MDE");

	const double fair[] = { 10, 10, 10, 10 }, unfair[] = { 40, 0, 0, 0 };

	CHECK(near(st_jain(fair, 4), 1.0, 1e-12), "stats: Jain index of equal shares is 1");
	CHECK(near(st_jain(unfair, 4), 0.25, 1e-12), "stats: Jain index of one worker is 1/n");
	const double half[] = { 1, 1, 0, 0 };

	CHECK(near(st_jain(half, 4), 0.5, 1e-12), "stats: Jain index of half the workers is 0.5");

	struct hist *h = malloc(sizeof(*h));

	hist_init(h);
	for (int v = 1; v <= 10; v++)
		hist_add(h, (uint64_t)v);
	/* Below 16 every value has its own bucket: percentiles are exact. */
	CHECK(hist_quantile(h, 0.5) == 5, "hist: p50 of 1..10 is 5 (exact below 16)");
	CHECK(hist_quantile(h, 0.9) == 9, "hist: p90 of 1..10 is 9");
	CHECK(hist_quantile(h, 1.0) == 10 && h->min == 1 && h->max == 10,
	      "hist: p100 is the max, min and max tracked");
	CHECK(hist_index(16) == 16 && hist_index(31) == 31 && hist_index(32) == 32 &&
		      hist_index(33) == 32 && hist_index(34) == 33,
	      "hist: 16 linear buckets per octave (32,33 share one, 34 is next)");
	CHECK(hist_bucket_lo(hist_index(1000)) == 992 && hist_bucket_width(hist_index(1000)) == 32,
	      "hist: 1000 ns lands in [992, 1024)");
	hist_init(h);
	/* 990 samples at 100 ns and 10 at 10000 ns: p99 is still 100 ns,
	 * p99.9 is 10000 ns: bucket [9728,10240) midpoint 9984, clamped to
	 * the observed max 10000. */
	for (int i = 0; i < 990; i++)
		hist_add(h, 100);
	for (int i = 0; i < 10; i++)
		hist_add(h, 10000);
	uint64_t p99 = hist_quantile(h, 0.99), p999 = hist_quantile(h, 0.999);

	CHECK(p99 >= 98 && p99 <= 102, "hist: p99 of 990x100 + 10x10000 is ~100 (got %llu)",
	      (unsigned long long)p99);
	CHECK(p999 >= 9728 && p999 <= 10000, "hist: p99.9 is in the 10000 bucket (got %llu)",
	      (unsigned long long)p999);
	CHECK(hist_quantile(h, 0.5) <= 102 && h->count == 1000 && h->sum == 990 * 100 + 100000,
	      "hist: count and sum exact");
	struct hist *g = calloc(1, sizeof(*g));

	hist_init(g);
	hist_add(g, 5);
	hist_merge(g, h);
	CHECK(g->count == 1001 && g->min == 5 && g->max == 10000, "hist: merge keeps count/min/max");
	hist_add(h, UINT64_MAX);
	CHECK(hist_index(UINT64_MAX) == HIST_BUCKETS - 1, "hist: huge values clamp to the last bucket");
	/* Victim-like latencies: 10000 samples uniform over 50..149.99 us
	 * (ns resolution): p50 = 100 us, p99 = 149 us, within 1/32. */
	hist_init(h);
	for (uint64_t i = 0; i < 10000; i++)
		hist_add(h, 50000 + i * 10);
	uint64_t q50 = hist_quantile(h, 0.5), q99 = hist_quantile(h, 0.99);

	CHECK(q50 >= 100000 - 3125 && q50 <= 100000 + 3125,
	      "hist: p50 of uniform 50..150 us is 100 us +- 1/32 (got %llu)", (unsigned long long)q50);
	CHECK(q99 >= 149000 - 4657 && q99 <= 149990,
	      "hist: p99 of uniform 50..150 us is 149 us +- 1/32 (got %llu)", (unsigned long long)q99);
	free(g);
	free(h);
	return tap_failed ? 1 : 0;
}
