/* compare.h - A/B statistics over result files: pairing, Welch's t-test on
 * log values (decides), exact Mann-Whitney U (cross-checks), Holm, verdicts. */
#ifndef SB_COMPARE_H
#define SB_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

struct cmp_metric {
	const char *name;
	const char *rep_path; /* inside a repetition */
	const char *div_path; /* if set, the value is rep_path / div_path */
	const char *sum_path; /* inside summary, when repetitions are missing */
	const char *unit;
	int lower_better;     /* latencies: a smaller value is an improvement */
	int use_median;	      /* show the median of repetitions, not the mean */
	const char *help;
};

extern const struct cmp_metric cmp_metrics[];
const struct cmp_metric *cmp_metric_find(const char *name);

struct cmp_opts {
	const struct cmp_metric *metrics[32];
	size_t nmetrics;
	double threshold; /* noise band, fraction (0.05 = 5%) */
	double alpha;	  /* family-wise, Holm-adjusted */
};

enum cmp_format { CMP_TEXT, CMP_MARKDOWN, CMP_JSON, CMP_HTML };

/* Welch's t-test on log values: the ratio of geometric means b/a with
 * its 95% CI.  p and the CI are NAN when either side has fewer than two
 * values; any value <= 0 gives ok = 0. */
struct cmp_welch {
	int ok;
	double ratio, lo, hi, t, df, p;
};
void cmp_welch_log(const double *a, size_t na, const double *b, size_t nb, struct cmp_welch *w);
/* Two-sided Mann-Whitney U p-value: exact (no-ties distribution) up to 50
 * values per side, else normal with tie correction.  *exact says which;
 * *ties whether any value repeats across the samples. */
double cmp_mann_whitney(const double *a, size_t na, const double *b, size_t nb, int *exact,
			int *ties);
/* Holm step-down adjustment in place; NAN entries are left out. */
void cmp_holm(double *p, size_t n);
/* Flags by index: 1 = beyond 1.5 IQR of the quartiles, 2 = beyond 3 scaled
 * MADs of the median (both need enough values to mean anything). */
void cmp_outliers(const double *x, size_t n, int *flags);

/* docs[0] is the baseline; each other document is compared with it.
 * 0 with *report, or -1 with err (nothing pairs: no overlapping runs). */
int cmp_docs(json_t *const *docs, const char *const *names, size_t ndocs,
	     const struct cmp_opts *o, json_t **report, char *err, size_t len);
/* Every workload of one document against the baseline workload at the same
 * run parameters (workload-specific keys ignored). */
int cmp_within(json_t *doc, const char *name, const char *baseline, const struct cmp_opts *o,
	       json_t **report, char *err, size_t len);
void cmp_print(FILE *f, const json_t *report, enum cmp_format fmt);
/* Rows whose verdict is "regressed". */
size_t cmp_regressions(const json_t *report);

int cmd_compare(int argc, char **argv);

#endif
