/* compare.c - the statistics of `compare` against hand-checked values, and
 * res_load_buffer on bad input (every prefix of a good document). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/report/compare.h"
#include "../../harness/report/resload.h"
#include "../../harness/lib/stats.h"
#include "tap.h"

#define NEAR(x, y, tol) (fabs((x) - (y)) <= (tol))

int main(void)
{
	double a[5], b[5];
	struct st_welch w;
	int exact, ties;

	/* logs 1..5 vs 3.5..7.5: mean difference 2.5, both variances 2.5, so
	 * se = 1, t = 2.5, df = 8, two-sided p = 0.03694 (t tables). */
	for (int i = 0; i < 5; i++) {
		a[i] = exp(1.0 + i);
		b[i] = exp(3.5 + i);
	}
	st_welch_log(a, 5, b, 5, &w);
	CHECK(w.ok && NEAR(w.t, 2.5, 1e-9) && NEAR(w.df, 8, 1e-9), "welch: t = 2.5, df = 8 (got %g, %g)",
	      w.t, w.df);
	CHECK(NEAR(w.p, 0.03694, 5e-5), "welch: p = 0.03694 (got %.5f)", w.p);
	CHECK(NEAR(log(w.ratio), 2.5, 1e-9), "welch: ratio of geometric means = e^2.5");
	/* t(0.975, 8) = 2.306004: the CI of the log difference is 2.5 +- 2.306. */
	CHECK(NEAR(log(w.lo), 2.5 - 2.306004, 1e-5) && NEAR(log(w.hi), 2.5 + 2.306004, 1e-5),
	      "welch: 95%% CI from t(0.975, 8)");
	/* U = 3 for 5 vs 5 without ties: P(U <= 3) = (1+1+2+3)/252. */
	double p = st_mann_whitney(a, 5, b, 5, &exact, &ties);

	CHECK(exact && !ties && NEAR(p, 14.0 / 252, 1e-12), "mann-whitney: exact p = 14/252 (got %g)",
	      p);
	p = st_mann_whitney(a, 3, b + 2, 3, &exact, &ties);
	CHECK(exact && NEAR(p, 0.1, 1e-12), "mann-whitney: 3 vs 3 cannot go below 2/20 (got %g)", p);
	p = st_mann_whitney(a, 4, b + 1, 4, &exact, &ties);
	CHECK(NEAR(p, 2.0 / 70, 1e-12), "mann-whitney: 4 vs 4 reaches 2/70 (got %g)", p);
	double big_a[60], big_b[60];

	for (int i = 0; i < 60; i++) {
		big_a[i] = i;
		big_b[i] = i + 0.5;
	}
	p = st_mann_whitney(big_a, 60, big_b, 60, &exact, &ties);
	CHECK(!exact && p > 0.5 && p <= 1, "mann-whitney: normal beyond 50 per side (p %g)", p);
	st_welch_log(a, 5, a, 5, &w);
	CHECK(NEAR(w.p, 1, 1e-12) && NEAR(w.ratio, 1, 1e-12), "welch: identical samples give p = 1");
	a[2] = 0;
	st_welch_log(a, 5, b, 5, &w);
	CHECK(!w.ok, "welch: a zero value means no log test");

	double hp[3] = { 0.01, 0.04, 0.03 };

	st_holm(hp, 3);
	CHECK(NEAR(hp[0], 0.03, 1e-12) && NEAR(hp[1], 0.06, 1e-12) && NEAR(hp[2], 0.06, 1e-12),
	      "holm: {0.01, 0.04, 0.03} -> {0.03, 0.06, 0.06}");
	/* Sizes from the input, larger than the 8 MiB default stack: 2M rows
	 * (a VLA of them overflowed it: SIGSEGV).  p_k = (k+1)e-9: the
	 * step-down adjustment of the k-th smallest is (m-k)p_k, which rises
	 * with k up to k = m/2 (capped at 1), then the running maximum holds. */
	size_t nbig = 2000000;
	double *big = malloc(nbig * sizeof(*big));
	int *bigfl = malloc(nbig * sizeof(*bigfl));

	for (size_t k = 0; k < nbig; k++)
		big[nbig - 1 - k] = (double)(k + 1) * 1e-9;
	st_holm(big, nbig);
	double top = fmin(1, (double)(nbig / 2) * (double)(nbig / 2 + 1) * 1e-9);

	CHECK(NEAR(big[nbig - 1], (double)nbig * 1e-9, 1e-15) && NEAR(big[0], top, 1e-9),
	      "holm: 2M rows on the heap: smallest %.9g (want %.9g), largest %.9g (want %.9g)",
	      big[nbig - 1], (double)nbig * 1e-9, big[0], top);
	for (size_t k = 0; k < nbig; k++)
		big[k] = k == 7 ? 1e6 : 10.0 + (double)(k % 3);
	st_outliers(big, nbig, bigfl);
	size_t nfl = 0;

	for (size_t k = 0; k < nbig; k++)
		nfl += bigfl[k] != 0;
	CHECK(nfl == 1 && bigfl[7] == 3, "outliers: 2M values on the heap, the one outlier found (%zu flagged)", nfl);
	struct st_welch wb;

	st_welch_log(big + 8, nbig / 2, big + 8, nbig / 2, &wb);
	CHECK(wb.ok && NEAR(wb.ratio, 1.0, 1e-12), "welch: 1M values per side on the heap, ratio %g", wb.ratio);
	free(big);
	free(bigfl);
	double x[5] = { 10, 10.1, 9.9, 10, 30 };
	int fl[5];

	st_outliers(x, 5, fl);
	CHECK(fl[4] == 3 && !fl[0] && !fl[1] && !fl[2] && !fl[3],
	      "outliers: 30 among 10s is beyond 1.5 IQR and 3 MAD");

	/* Every prefix of a good document is rejected cleanly, never crashes. */
	static const char good[] =
		"{\"schema\": \"slicebench/1\", \"meta\": {}, \"results\": [{\"workload\": "
		"\"futex\", \"params\": {\"threads\": 2}, \"status\": \"ok\", \"repetitions\": "
		"[{\"ops_per_sec\": 5}]}]}";
	char err[512];
	json_t *doc;
	int bad = 0;

	for (size_t n = 0; n < sizeof(good) - 1; n++)
		if (!res_load_buffer("p.json", good, n, &doc, err, sizeof(err)) ||
		    strncmp(err, "p.json:", 7))
			bad++;
	CHECK(!bad, "resload: all %zu prefixes rejected with a named error", sizeof(good) - 1);
	CHECK(!res_load_buffer("g.json", good, sizeof(good) - 1, &doc, err, sizeof(err)),
	      "resload: the whole document loads");
	json_decref(doc);
	static const struct {
		const char *doc, *want;
	} cases[] = {
		{ "{\"schema\": \"slicebench/2\", \"meta\": {}, \"results\": []}", "not supported" },
		{ "{\"schema\": \"fio/1\", \"meta\": {}, \"results\": []}", "not a slicebench" },
		{ "{\"schema\": \"slicebench/1\", \"results\": []}", "meta: missing" },
		{ "{\"schema\": \"slicebench/1\", \"meta\": {}, \"results\": [{\"workload\": "
		  "\"x\", \"params\": 3, \"status\": \"ok\"}]}",
		  "results[0].params: must be an object" },
		{ "[1]", "(top level): must be an object" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = res_load_buffer("c.json", cases[i].doc, strlen(cases[i].doc), &doc, err,
					 sizeof(err));

		CHECK(rc && strstr(err, cases[i].want), "resload: \"%s\"", err);
	}
	printf("%d failed\n", tap_failed);
	return tap_failed ? 1 : 0;
}
