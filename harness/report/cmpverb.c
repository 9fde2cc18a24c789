/* cmpverb.c - the `slicebench compare` verb: options, inputs, exit codes. */
#define _GNU_SOURCE
#include "compare.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cliopt.h"
#include "../lib/exitcodes.h"
#include "cmpnoise.h"
#include "outfile.h"
#include "cmpbrief.h"
#include "resload.h"

static const struct cli_opt compare_opts[] = {
	{ 'm', "metric", "LIST", "comma-separated, repeatable (default ops_per_sec)" },
	{ 'f', "format", "FMT", "text | markdown | json | html (default text: the\n"
			       "summary and a table in 100 columns)" },
	{ 'd', "detail", NULL, "text: every column, each A/A check, the notes and\n"
			       "the run-to-run spread (markdown and html have them)" },
	{ 't', "threshold", "PCT", "noise band in percent (default 5)" },
	{ 'e', "equivalence", "PCT", "smallest effect of interest of the equivalence\n"
				     "tests (TOST; default: the noise band)" },
	{ 'g', "grant-floor", "G", "grants per 1000 acquisitions below which a row\n"
				   "of slice arms says the extension is too rare here to\n"
				   "move its ratio (default 0.1)" },
	{ 'x', "exploratory", NULL, "test each row on its own at alpha, labelled\n"
				    "exploratory (a study's primary contrasts are its\n"
				    "question's, configs/questions/)" },
	{ 'r', "fail-on-regression", NULL, "exit 1 when any row regressed" },
	{ 'o', "out", "FILE", "write there (temp file + rename; a new path or a\n"
			      "regular file, replaced), not stdout" },
	{ 'w', "within", "FILE", "compare workloads inside one file" },
	{ 'b', "baseline", "WL", "the baseline workload for --within" },
	{ 'n', "noise", "FILE", "an independent run of the same config as --within's\n"
				"(a fresh boot, another day); repeatable: each row's\n"
				"run-to-run spread, and verdicts on the wider interval" },
	{ 'h', "help", NULL, "this text" },
	{ 0 }
};

static void compare_more(FILE *f)
{
	fprintf(f, "\nmetrics:\n");
	for (size_t i = 0; cmp_metrics[i].name; i++)
		fprintf(f, "  %-18s %s\n", cmp_metrics[i].name, cmp_metrics[i].help);
}

static const struct cli_cmd compare_cmd = {
	.name = "compare",
	.synopsis = "slicebench compare A.json B.json [C.json ...] [options]\n"
		    "       slicebench compare --within A.json --baseline WORKLOAD [options]\n",
	.about = "Pairs the results of each file with the baseline A by workload and\n"
		 "parameters (duration, warm-up, repetitions, events and timeout do not\n"
		 "define a point), or with --within every workload of one file with the\n"
		 "baseline workload at the same run parameters.  A file may be a\n"
		 "directory of result files; rows are then grouped by host / CPU / kernel.\n"
		 "\n"
		 "Statistics, per metric and pair, over one value per repetition:\n"
		 "  ratio   B/A of the geometric means, with its 95% CI from Welch's\n"
		 "          t-test on log values (ratio-scale, skewed data; unequal\n"
		 "          variances).  This test decides the verdict.\n"
		 "  p MW    exact two-sided Mann-Whitney U, a distribution-free cross-check\n"
		 "          (it cannot reach p < 0.05 below 4 repetitions per side).\n"
		 "  p Holm  the Welch p after Holm's correction over all rows (with\n"
		 "          --exploratory: the Welch p, each row on its own).\n"
		 "  verdict improved / regressed when the Holm p < 0.05 and the ratio lies\n"
		 "          outside the noise band; else inconclusive.  Lower-is-better\n"
		 "          metrics (latencies) invert the sense.  An inconclusive row\n"
		 "          reads \"equivalent within +-5%\" (two one-sided Welch tests,\n"
		 "          Holm over the rows, margin --equivalence) or \"underpowered:\n"
		 "          could detect >= x1.9\".  A throughput row with a 0-op window\n"
		 "          is decided by the Mann-Whitney p: \"collapsed: 0 ops in k of\n"
		 "          n windows\", improved, regressed or not significant.\n"
		 "          Where the windows fall into two states (a gap of x10 or\n"
		 "          more between them), the reading adds each side's share\n"
		 "          above the gap, Fisher's exact p and the share the design\n"
		 "          could see move.\n"
		 "          Where the slice arms' grants per 1000 acquisitions are\n"
		 "          below --grant-floor, the reading adds \"the extension is too\n"
		 "          rare here to move this ratio\" and how many acquisitions'\n"
		 "          time each grant would have to save to move it by the band;\n"
		 "          a row that moved against its dry control says instead how\n"
		 "          many acquisitions' time each grant stood for.\n"
		 "  MDE     the smallest ratio (or its inverse) the row could have\n"
		 "          declared, from the design: 80% power at alpha / m for m\n"
		 "          rows (alpha when exploratory), never from the row's p,\n"
		 "          exp((t(1-a/2, df) + t(0.8, df)) * se) from Welch's se;\n"
		 "          the unadjusted MDE (at alpha) beside it where they differ.\n"
		 "  flags   repetitions beyond 1.5 IQR or 3 MADs (flagged, never dropped).\n"
		 "  run-to-run  with --noise: the ratio in each of the K runs, its CV, and\n"
		 "          one run's interval, ratio * exp(+-t(K-1) * sd of log ratios);\n"
		 "          where that is wider than the within-run interval and holds 1,\n"
		 "          an improved or regressed verdict becomes inconclusive.\n"
		 "Meta differences that make a comparison suspect (CPU, PUs, VM accelerator,\n"
		 "virtualization, suite version, HZ, preemption model) are warned about on\n"
		 "stderr and in the table header; a different kernel is a note.  So are\n"
		 "two VM results' guest timing floors (meta.vm.calibration) that differ.\n",
	.opts = compare_opts,
	.more = compare_more,
	.exits = "0 done, 1 regression (with --fail-on-regression), 2 bad input",
};

static int cmp_parse_metrics(struct cmp_opts *o, const char *list, char *err, size_t len)
{
	char *dup = strdup(list), *save = NULL;

	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct cmp_metric *m = cmp_metric_find(t);

		if (!m) {
			snprintf(err, len, "--metric: unknown metric \"%s\" (see --help)", t);
			free(dup);
			return -1;
		}
		if (o->nmetrics == sizeof(o->metrics) / sizeof(o->metrics[0])) {
			snprintf(err, len, "--metric: too many metrics");
			free(dup);
			return -1;
		}
		o->metrics[o->nmetrics++] = m;
	}
	free(dup);
	return 0;
}

/* The report in fmt: text is the brief one unless detail. */
static void report(FILE *f, const json_t *rep, enum cmp_format fmt, int detail)
{
	if (fmt == CMP_TEXT && !detail)
		cmp_print_brief(f, rep);
	else
		cmp_print(f, rep, fmt);
}

static int cmp_write_out(const char *path, const json_t *rep, enum cmp_format fmt, int detail,
			 char *err, size_t len)
{
	struct outfile o;

	if (!outfile_open(&o, path, err, len))
		return -1;
	report(o.f, rep, fmt, detail);
	return outfile_commit(&o, err, len);
}

/* The same --within comparison on each --noise run, then the run-to-run
 * spread into rep.  0, or 2 after saying which file failed. */
static int with_noise(json_t *rep, const char *const *files, size_t n, const char *baseline,
		      const struct cmp_opts *o)
{
	json_t **docs, **reps = calloc(n, sizeof(*reps));
	char err[8192];
	int rc = reps ? res_load_all("slicebench compare: --noise", files, n, &docs) : 2;

	for (size_t i = 0; !rc && i < n; i++)
		if (cmp_within(docs[i], files[i], baseline, o, &reps[i], err, sizeof(err))) {
			fprintf(stderr, "slicebench compare: --noise: %s\n", err);
			rc = 2;
		}
	if (!rc)
		noise_attach(rep, reps, files, n);
	for (size_t i = 0; reps && i < n; i++)
		json_decref(reps[i]);
	if (reps)
		res_free_all(docs, n);
	free(reps);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_opts o = { .threshold = 0.05, .alpha = 0.05 };
	enum cmp_format fmt = CMP_TEXT;
	const char *out = NULL, *within = NULL, *baseline = NULL, *noise[64];
	size_t nnoise = 0;
	int fail = 0, detail = 0, c, rc;
	char err[8192], *end;

	optind = 1;
	while ((c = cli_next(argc, argv, &compare_cmd, &rc)) > 0) {
		switch (c) {
		case 'm':
			if (cmp_parse_metrics(&o, optarg, err, sizeof(err))) {
				fprintf(stderr, "slicebench compare: %s\n", err);
				return EXIT_USAGE;
			}
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = CMP_TEXT;
			else if (!strcmp(optarg, "markdown"))
				fmt = CMP_MARKDOWN;
			else if (!strcmp(optarg, "json"))
				fmt = CMP_JSON;
			else if (!strcmp(optarg, "html"))
				fmt = CMP_HTML;
			else {
				fprintf(stderr, "slicebench compare: --format \"%s\": not one of "
						"text, markdown, json, html\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 't':
			o.threshold = strtod(optarg, &end) / 100;
			if (end == optarg || *end || !(o.threshold >= 0 && o.threshold < 10)) {
				fprintf(stderr, "slicebench compare: --threshold \"%s\": not a "
						"percentage in 0..1000\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'e':
			o.equiv = strtod(optarg, &end) / 100;
			if (end == optarg || *end || !(o.equiv > 0 && o.equiv < 10)) {
				fprintf(stderr, "slicebench compare: --equivalence \"%s\": not a "
						"percentage above 0 and below 1000\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'g':
			o.grant_floor = strtod(optarg, &end);
			if (end == optarg || *end || !(o.grant_floor > 0 && o.grant_floor <= 1000)) {
				fprintf(stderr, "slicebench compare: --grant-floor \"%s\": not a "
						"rate above 0 and at most 1000 per 1000 ops\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'x': o.family = CMP_FAM_EXPLORATORY; break;
		case 'd': detail = 1; break;
		case 'r': fail = 1; break;
		case 'o': out = optarg; break;
		case 'w': within = optarg; break;
		case 'b': baseline = optarg; break;
		case 'n':
			if (nnoise == sizeof(noise) / sizeof(noise[0]))
				return cli_misuse(&compare_cmd, "--noise: at most %zu files",
						  sizeof(noise) / sizeof(noise[0]));
			noise[nnoise++] = optarg;
			break;
		}
	}
	if (!c)
		return rc;
	if (!o.nmetrics)
		o.metrics[o.nmetrics++] = cmp_metric_find("ops_per_sec");
	int nfiles = argc - optind;

	if (within ? (nfiles != 0 || !baseline) : (nfiles < 2 || baseline))
		return cli_misuse(&compare_cmd, "%s",
				  within ? (baseline ? "--within takes no other files"
						     : "--within needs --baseline WORKLOAD")
				  : baseline ? "--baseline only goes with --within"
					     : "need a baseline and at least one file to compare");
	if (nnoise && !within)
		return cli_misuse(&compare_cmd, "%s", "--noise goes with --within");
	size_t nd = within ? 1 : (size_t)nfiles;
	const char *const *names = within ? &within : (const char *const *)&argv[optind];
	json_t **docs, *rep = NULL;

	rc = res_load_all("slicebench compare", names, nd, &docs);
	if (!rc) {
		int e = within ? cmp_within(docs[0], names[0], baseline, &o, &rep, err, sizeof(err))
			       : cmp_docs(docs, names, nd, &o, &rep, err, sizeof(err));

		if (e) {
			fprintf(stderr, "slicebench compare: %s\n", err);
			rc = 2;
		}
	}
	if (!rc && nnoise)
		rc = with_noise(rep, noise, nnoise, baseline, &o);
	if (!rc) {
		size_t i;
		json_t *v;

		json_object_set_new(rep, "summary", cmp_summary(rep));
		/* Suspect comparisons are said on stderr, once: the brief text
		 * counts them, the detailed reports list them too. */
		json_array_foreach(json_object_get(rep, "warnings"), i, v)
			fprintf(stderr, "slicebench compare: WARNING: %s\n", json_string_value(v));
		if (out) {
			if (cmp_write_out(out, rep, fmt, detail, err, sizeof(err))) {
				fprintf(stderr, "slicebench compare: %s\n", err);
				rc = 2;
			}
		} else {
			report(stdout, rep, fmt, detail);
		}
		size_t nreg = cmp_regressions(rep);

		if (!rc && fail && nreg) {
			fprintf(stderr, "slicebench compare: %zu row(s) regressed beyond %.3g%%\n",
				nreg, 100 * o.threshold);
			rc = 1;
		}
	}
	res_free_all(docs, nd);
	json_decref(rep);
	return rc;
}
