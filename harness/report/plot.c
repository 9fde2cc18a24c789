/* plot.c - the `plot` verb: reads result files, builds the comparisons
 * (compare.c's statistics), draws the figures (plots.c, plotcost.c,
 * forest.c, each through gnuplot.c) and writes index.html (plothtml.c).
 * A figure without data is skipped with a note in index.html; a gnuplot
 * failure is reported with its stderr and makes the verb exit 1. */
#define _GNU_SOURCE
#include "plot.h"
#include "../lib/cliopt.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "../lib/exitcodes.h"
#include "../lib/txtshow.h"
#include "forest.h"
#include "gnuplot.h"
#include "plothtml.h"
#include "plotpanel.h"
#include "plots.h"
#include "qanswer.h"
#include "question.h"
#include "resget.h"
#include "resload.h"

#define MAXBASE 4
/* The gnuplot templates, relative to the tree. */
#define TEMPLATES "plots/templates"

/* plots/templates/ of the binary's tree (build/slicebench,
 * build/san-x/...), else of the working directory. */
static int find_templates(char *buf, size_t len)
{
	static const char *const rel[] = { "/../" TEMPLATES, "/../../" TEMPLATES, NULL };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		char *dir = dirname(exe);

		for (size_t i = 0; rel[i]; i++) {
			char t[PATH_MAX + 64];

			snprintf(t, sizeof(t), "%s%s/forest.gp", dir, rel[i]);
			if (!access(t, R_OK)) {
				snprintf(buf, len, "%s%s", dir, rel[i]);
				return 0;
			}
		}
	}
	if (!access(TEMPLATES "/forest.gp", R_OK)) {
		snprintf(buf, len, "%s", TEMPLATES);
		return 0;
	}
	return -1;
}

/* Creates the output directory and its parents; an existing path that is
 * not a directory is an error, never replaced. */
static int out_dir(const char *path, char *err, size_t len)
{
	char tmp[PATH_MAX];
	struct stat sb;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		goto fail;
	if (stat(path, &sb))
		goto fail;
	if (!S_ISDIR(sb.st_mode)) {
		snprintf(err, len, "--out %s: exists and is not a directory", path);
		return -1;
	}
	return 0;
fail:
	snprintf(err, len, "--out %s: %s: %s", path, tmp, strerror(errno));
	return -1;
}

#define STR_(x) #x
#define STR(x) STR_(x)
static const struct cli_opt plot_opts[] = {
	{ 'o', "out", "DIR", "output directory (created; default plots/RUN/, RUN the first\n"
			     "result's name without .json or .json.gz)" },
	{ 'b', "baseline", "NAME", "draw an answer figure against workload NAME (up to " STR(MAXBASE) ")" },
	{ 'T', "templates", "DIR", "gnuplot templates (default: " TEMPLATES " of the tree)" },
	{ 'm', "metric", "NAME", "metric of the comparisons (default ops_per_sec)" },
	{ 'q', "question", "FILE", "the study's question as contrasts (configs/questions/NAME.json)" },
	{ 'h', "help", NULL, "this text" },
	{ 0 }
};

static const struct cli_cmd plot_cmd = {
	.name = "plot",
	.synopsis = "slicebench plot RESULT.json [MORE.json | DIR ...] [--out DIR]\n"
		    "                       [--baseline WORKLOAD]... [--templates DIR] [--metric NAME]\n"
		    "                       [--question FILE]\n",
	.about = "Renders PNG and SVG figures with gnuplot (templates in " TEMPLATES "/*.gp,\n"
		 "data as DIR/NAME.dat) and DIR/index.html, the report: the study's\n"
		 "description, the question's verdict table and answer figure, every figure\n"
		 "with a caption, the machines; DIR/details.html, every comparison's verdicts\n"
		 "and statistics; with --question, DIR/answer.json, the verdict table's rows\n"
		 "with each contrast's time to an MDE of x1.25.\n"
		 "Figures: answer (the --question file's contrasts: each ratio with its\n"
		 "interval and its minimum detectable effect), answer-WORKLOAD (each workload of each input against the baseline,\n"
		 "as a forest chart), answer-primitives (the primitives workload's costs),\n"
		 "compare (each input against the first), throughput_threads, throughput_cs,\n"
		 "hold_ns, acquire_ns, victim_ccdf, extension_ccdf, ext_tradeoff, counters.  A\n"
		 "figure without data is skipped with a note in index.html.\n",
	.opts = plot_opts,
	.exits = "0 done, 1 gnuplot failed, 2 bad input",
};

/* The question's figure: every contrast's rows, a panel per contrast and
 * input. */
static void question_fig(struct plotctx *c, struct question *q, char tags[][200])
{
	json_t *reps[Q_MAXREPS];
	const char *tp[Q_MAXREPS];
	double pub = 0;
	size_t nref = 0;

	for (size_t i = 0; i < q->n; i++) {
		nref += json_object_get(q->reps[i].c, "reference") != NULL;
		const char *nm = res_str(q->reps[i].c, "name", "?");

		snprintf(tags[i], 200, q->reps[i].tag[0] ? "%s, %s" : "%s", nm, q->reps[i].tag);
		tp[i] = tags[i];
		reps[i] = q->reps[i].rep;
		if (!pub)
			pub = res_num(q->reps[i].c, "published");
	}
	plot_answer(c, "answer",
		    nref == q->n ? "Answer: measured / published (95% CI over repetitions; grey: "
				   "the smallest effect each row could detect)"
				 : "Answer: treatment / control (95% CI; grey: the smallest "
				   "effect each row could detect)",
		    "Read this first: each dot is one contrast of the study's question at one "
		    "run point, the treatment's throughput (or the declared metric) divided by "
		    "its control's, the whisker its 95% interval.  The grey bar behind it spans "
		    "1/MDE to MDE: an effect inside it could have gone unseen (80% power at the "
		    "row's Holm level), so an inconclusive row inside its bar is no evidence of "
		    "absence.  A triangle at an edge is a ratio beyond the axis, its value printed; "
		    "an X is a collapse (windows without an operation).  The right column names "
		    "each significant or equivalent row's verdict; the red dotted line is the "
		    "published effect.  A contrast against a published number divides the "
		    "measured value by it: its rows sit at 1 where they reproduce it.",
		    nref == q->n ? "measured / published (log scale)"
				 : "treatment / control (log scale)",
		    reps, tp, q->n, isfinite(pub) ? pub : 0);
}

struct answers {
	json_t *reps[MAXBASE * 8];
	char *what[MAXBASE * 8], *names[MAXBASE], *titles[MAXBASE];
	char tags[8][128];
	size_t n;
};

/* One forest chart per baseline: every workload of every input (up to 8)
 * against it, at the same run parameters. */
static void answers(struct plotctx *c, const char *const *base, size_t nbase,
		    const struct cmp_opts *o, struct answers *a, struct verdicts *v)
{
	for (size_t b = 0; b < nbase; b++) {
		json_t *reps[8] = { 0 };
		const char *tags[8] = { 0 };
		char err[1024] = "", note[1200];

		for (size_t d = 0; d < c->ndocs && d < 8; d++) {
			doc_tag(c, d, a->tags[d], sizeof(a->tags[d]));
			tags[d] = a->tags[d];
			if (cmp_within(c->docs[d], tags[d], base[b], o, &reps[d], err, sizeof(err)))
				continue;
			a->reps[a->n] = reps[d];
			if (asprintf(&a->what[a->n], "each workload against %s in %s", base[b],
				     tags[d]) < 0)
				a->what[a->n] = NULL;
			if (v->n < sizeof(v->reps) / sizeof(v->reps[0])) {
				v->reps[v->n] = reps[d];
				v->what[v->n++] = a->what[a->n] ? a->what[a->n] : base[b];
			}
			a->n++;
		}
		if (asprintf(&a->names[b], "answer-%s", base[b]) < 0 ||
		    asprintf(&a->titles[b], "Answer: throughput ratio to %s (95%% CI)", base[b]) < 0)
			return;
		snprintf(note, sizeof(note), "no comparison against %s: %s", base[b], err);
		plot_forest(c, a->names[b], a->titles[b],
			    "Read this first: each dot is a workload's throughput divided by the "
			    "baseline's at the same parameters, the whisker its 95% interval; right "
			    "of the dashed line is faster. A row with a verdict printed beside it is "
			    "significant and outside the shaded noise band; the others are "
			    "inconclusive.",
			    "workload / baseline (log scale)", reps, tags, c->ndocs < 8 ? c->ndocs : 8, note);
	}
}

static void answers_free(struct answers *a)
{
	for (size_t i = 0; i < a->n; i++) {
		json_decref(a->reps[i]);
		free(a->what[i]);
	}
	for (size_t b = 0; b < MAXBASE; b++) {
		free(a->names[b]);
		free(a->titles[b]);
	}
}

static int report(struct plotctx *c, const char *const *base, size_t nbase,
		  const struct cmp_metric *m, const char *out, struct question *q)
{
	char qtags[Q_MAXREPS][200];
	struct cmp_opts o = { .threshold = 0.05, .alpha = 0.05, .nmetrics = 1 };
	struct answers a = { 0 };
	struct verdicts v = { .note = "one input and no --baseline: nothing to compare" };
	char err[8192], cmp_err[8192] = "one input: nothing to compare", xl[300] = "";
	json_t *rep = NULL;
	int rc = 0;

	o.metrics[0] = m;
	v.q = q;
	if (q) {
		question_answer(q, c);
		question_fig(c, q, qtags);
	}
	answers(c, base, nbase, &o, &a, &v);
	plot_primitives(c);
	if (c->ndocs > 1 &&
	    cmp_docs(c->docs, c->names, c->ndocs, &o, &rep, cmp_err, sizeof(cmp_err)))
		rep = NULL;
	if (rep && v.n < sizeof(v.reps) / sizeof(v.reps[0])) {
		v.reps[v.n] = rep;
		v.what[v.n++] = "each input against the first";
	}
	if (c->ndocs > 1) {
		char t0[128], t1[128];

		doc_tag(c, 0, t0, sizeof(t0));
		doc_tag(c, 1, t1, sizeof(t1));
		snprintf(xl, sizeof(xl), "%s%s / %s (log scale)", t1, c->ndocs > 2 ? " ..." : "",
			 t0);
	}
	if (!v.n && nbase)
		v.note = "no input has the baselines' workloads at shared parameters";
	plot_forest(c, "compare", "Throughput ratio to the first input (95% CI)",
		    "Each dot is a workload's throughput in a later input divided by the first "
		    "input's at the same parameters, the whisker its 95% interval; rows with a "
		    "verdict beside them are significant and outside the shaded noise band.",
		    xl, &rep, NULL, 1,
		    c->ndocs < 2 ? "one input: nothing to compare"
				 : "the inputs share no run (no overlapping workload and parameters)");
	plot_throughput(c, "threads");
	plot_contention(c);
	plot_throughput(c, "cs_ns");
	plot_ccdfs(c);
	plot_ext(c);
	plot_counters(c);
	if (plot_index(c, &v, err, sizeof(err))) {
		fprintf(stderr, "slicebench plot: %s\n", err);
		rc = 1;
	}
	/* The verdict table's rows for scripts: answer.json beside it. */
	char ap[4200];

	snprintf(ap, sizeof(ap), "%s/answer.json", out);
	if (q && question_write(q, ap, err, sizeof(err))) {
		fprintf(stderr, "slicebench plot: %s\n", err);
		rc = 1;
	}
	for (size_t i = 0; i < c->nplots; i++) {
		const struct plot *p = &c->plots[i];
		/* a note may quote a label or a baseline: no control byte of
		 * theirs reaches the terminal */
		char *name = txt_term(p->name), *note = txt_term(p->note);

		if (p->state < 0) {
			fprintf(stderr, "slicebench plot: %s: %s\n", name ? name : "?", note ? note : "?");
			rc = 1;
		} else if (p->state == 0) {
			fprintf(stderr, "slicebench plot: %s skipped: %s\n", name ? name : "?",
				note ? note : "?");
		}
		free(name);
		free(note);
	}
	if (!rc)
		fprintf(stderr, "slicebench plot: wrote %s/index.html\n", out);
	answers_free(&a);
	json_decref(rep);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	const char *out = NULL, *tdir = NULL, *metric = "ops_per_sec", *base[MAXBASE];
	const char *qpath = NULL;
	struct question q = { 0 };
	char err[8192], tbuf[PATH_MAX];
	struct plotctx c = { 0 };
	size_t nbase = 0;
	int opt, rc = 0;

	optind = 1;
	while ((opt = cli_next(argc, argv, &plot_cmd, &rc)) > 0) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'b':
			if (nbase == MAXBASE) {
				fprintf(stderr, "slicebench plot: --baseline %s: at most %d baselines\n",
					optarg, MAXBASE);
				return EXIT_USAGE;
			}
			base[nbase++] = optarg;
			break;
		case 'T': tdir = optarg; break;
		case 'm': metric = optarg; break;
		case 'q': qpath = optarg; break;
		}
	}
	if (!opt)
		return rc;
	if (optind >= argc)
		return cli_misuse(&plot_cmd, "%s", "need at least one result file or directory");
	char defout[NAME_MAX + 8];

	if (!out) {
		/* plots/RUN/ beside the working directory's other output */
		const char *b = strrchr(argv[optind], '/');
		char run[NAME_MAX + 1];
		size_t n;

		b = b ? b + 1 : argv[optind];
		snprintf(run, sizeof(run), "%s", *b ? b : "results");
		n = strlen(run);
		if (n > 8 && !strcmp(run + n - 8, ".json.gz"))
			run[n - 8] = '\0';
		else if (n > 5 && !strcmp(run + n - 5, ".json"))
			run[n - 5] = '\0';
		snprintf(defout, sizeof(defout), "plots/%s", run);
		out = defout;
	}
	const struct cmp_metric *m = cmp_metric_find(metric);

	if (!m) {
		fprintf(stderr, "slicebench plot: --metric: unknown metric \"%s\"\n", metric);
		return EXIT_USAGE;
	}
	if (!tdir) {
		if (find_templates(tbuf, sizeof(tbuf))) {
			fprintf(stderr, "slicebench plot: cannot find the gnuplot templates "
					"(" TEMPLATES "/*.gp); give --templates DIR\n");
			return EXIT_USAGE;
		}
		tdir = tbuf;
	}
	char *abs_t = realpath(tdir, NULL);

	if (!abs_t) {
		fprintf(stderr, "slicebench plot: --templates %s: %s\n", tdir, strerror(errno));
		return EXIT_USAGE;
	}
	c.ndocs = (size_t)(argc - optind);
	c.names = (const char *const *)&argv[optind];
	rc = res_load_all("slicebench plot", c.names, c.ndocs, &c.docs);
	if (!rc && qpath && question_load(qpath, &q, err, sizeof(err))) {
		fprintf(stderr, "slicebench plot: --question %s\n", err);
		rc = EXIT_USAGE;
	}
	if (!rc && out_dir(out, err, sizeof(err))) {
		fprintf(stderr, "slicebench plot: %s\n", err);
		rc = EXIT_USAGE;
	}
	char *abs_out = rc ? NULL : realpath(out, NULL);

	if (!rc && !abs_out) {
		fprintf(stderr, "slicebench plot: --out %s: %s\n", out, strerror(errno));
		rc = EXIT_USAGE;
	}
	if (!rc) {
		c.outdir = abs_out;
		c.tmpldir = abs_t;
		rc = report(&c, base, nbase, m, out, qpath ? &q : NULL);
	}
	question_free(&q);
	res_free_all(c.docs, c.ndocs);
	free(abs_out);
	free(abs_t);
	return rc;
}
