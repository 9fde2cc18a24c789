/* compare.h - A/B comparison of result files: pairing, verdicts (the tests
 * themselves are in stats.h), the printed report. */
#ifndef SB_COMPARE_H
#define SB_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

struct cmp_metric {
	const char *name;
	/* field names of harness/lib/fields.h */
	const char *rep_path; /* inside a repetition */
	const char *div_path; /* if set, the value is rep_path / div_path */
	const char *sum_path; /* inside the result (summary), when repetitions are missing */
	const char *unit;
	int lower_better;     /* latencies: a smaller value is an improvement */
	int use_median;	      /* show the median of repetitions, not the mean */
	const char *help;
};

extern const struct cmp_metric cmp_metrics[];
const struct cmp_metric *cmp_metric_find(const char *name);
/* A result's values of metric m: every repetition's (m->rep_path), else
 * the summary's single value (*from_summary set), in a new array *out
 * (free it); the count. */
size_t cmp_metric_values(const json_t *r, const struct cmp_metric *m, double **out,
			 int *from_summary);

struct cmp_opts {
	const struct cmp_metric *metrics[32];
	size_t nmetrics;
	double threshold; /* noise band, fraction (0.05 = 5%) */
	double alpha;	  /* the family's level (CMP_FAM_EXPLORATORY: each row's) */
	enum cmp_family {
		CMP_FAM_REPORT,	     /* the report's rows are the family: Holm over them */
		CMP_FAM_PRIMARY,     /* a study's primary contrasts: Holm at the share of
				      * alpha the caller gives (question.c) */
		CMP_FAM_EXPLORATORY, /* each row on its own at alpha, labelled so */
	} family;
	double equiv;	  /* smallest effect of interest for TOST, fraction; 0 = threshold */
	double grant_floor; /* grants per 1000 ops below which a slice row says the
			     * extension is too rare to move it; 0 = CMP_GRANT_FLOOR */
	int control_dry;    /* side a is the dry control of side b whatever its name
			     * (a question gives both one label to pair them) */
};

/* One grant in 10,000 acquisitions: a grant must then save the time of 500
 * acquisitions to move a ratio by a 5% band (compare --grant-floor). */
#define CMP_GRANT_FLOOR 0.1
/* Scheduler rounds an oversubscribed window should hold (each runnable
 * thread of a PU switched out once a round); fewer are flagged. */
#define CMP_MIN_ROUNDS 10

/* The power a row's minimum detectable effect is computed for. */
#define CMP_POWER 0.8

enum cmp_format { CMP_TEXT, CMP_MARKDOWN, CMP_JSON, CMP_HTML };

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
