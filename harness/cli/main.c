/* main.c - the slicebench command line: run, list, info. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog.h"
#include "../lib/cliopt.h"
#include "../engine/config.h"
#include "../lib/fields.h"
#include "../engine/interleave.h"
#include "../core/keys.h"
#include "../engine/results.h"
#include "../engine/suite.h"
#include "../os/signals.h"
#include "../lib/txtshow.h"
#include "../os/slice.h"
#include "ready.h"
#include "runflags.h"
#include "../os/sysinfo.h"
#include "../os/knobs.h"
#include "../os/topo.h"
#include "timescale.h"
#include "vmmeta.h"
#include "../core/workload.h"

#include "../lib/exitcodes.h"
#include "../lib/extstate.h"

/* Runs started in one second that take a default name: far more than a
 * machine can start. */
#define MAX_DEFAULT_SEQ 1000

/* run's long-only options, above runflags.c's (CLI_LONG up). */
enum { RUN_SLOWDOWN = CLI_LONG + 0x80, RUN_TIMESCALE };

static const struct cli_opt run_opts[] = {
	{ 'c', "config", "FILE", "suite config (JSON)" },
	{ 'o', "out", "FILE", "result file" },
	{ 'q', "quiet", NULL, "no progress, no table" },
	{ 'm', "meta", "K=V", "add meta.K (dotted keys nest; @FILE reads a file)" },
	{ 'n', "dry-run", NULL, "validate, print the expanded runs, run nothing" },
	{ 'p', "planned-s", NULL, "validate, print only the seconds the windows,\n"
				  "warm-ups and repetitions (repetitions_max included)\n"
				  "plan, run nothing (what scripts size timeouts by)" },
	{ 'f', "force", NULL, "overwrite an existing --out file (a regular file only)" },
	{ RUN_SLOWDOWN, "slowdown", "K", "this machine runs the same loop K times slower than\n"
				"the host it stands for (slicebench timescale): each\n"
				"run states its extension in host-equivalent ns\n"
				"(slice_ext_host_ns = in force / K; default 1)" },
	{ RUN_TIMESCALE, "timescale", NULL, "with --slowdown: read each run's slice_ext_nsec as\n"
				  "host-equivalent and write K times it (clamped to\n"
				  "the kernel's range, the clamp recorded)" },
	{ 'k', "check-args", NULL, "check the options of a run that writes a result\n"
				   "and exit (0, or 2 naming the bad one), reading\n"
				   "no file (scripts/vm.sh checks --harness-args so)" },
	{ 'h', "help", NULL, "this text" },
	{ 0 }
};

static void run_more(FILE *f)
{
	fprintf(f, "\nsuite keys:\n");
	cfg_print_keys(f);
	fprintf(f, "\nrun keys (scalar, or a list to sweep):\n");
	key_print_table(f, run_keys);
	fprintf(f, "\nworkload keys: see `slicebench list`\n");
}

/* run_opts and then runflags.c's flags: filled by cmd_run. */
static struct cli_opt run_all_opts[CLI_MAX + 1];

static const struct cli_cmd run_cmd = {
	.name = "run",
	.synopsis = "slicebench run --config FILE [--out FILE.json] [--quiet] [--dry-run]\n"
		    "                      [--meta KEY=VALUE]...\n"
		    "       slicebench run [-w LIST] [-t LIST] [--cs DUR] [-d DUR] [-r N]\n"
		    "                      [--set KEY=VALUE]... [--out FILE.json] [...]\n",
	.about = "Runs every parameter point of a suite config, each in its own process,\n"
		 "and writes one JSON result (temp file + rename).  Default --out:\n"
		 "results/<utc>-<host>-<kernel>.json\n"
		 "\n"
		 "Without --config the flags from --workload on are the config: each sets\n"
		 "the run key in parentheses, keys not given keep their defaults, and the\n"
		 "result is the one of a config file with those keys in its one run.  A\n"
		 "comma list sweeps (-w spin-tas,slice-spin; -t 2,4).  A DUR is a number\n"
		 "and ns, us, ms or s; a bare number is in the key's own unit.\n",
	.opts = run_all_opts,
	.more = run_more,
};

static const char *param_str(const json_t *p, const char *k, char *buf, size_t len)
{
	json_t *v = json_object_get(p, k);

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else
		snprintf(buf, len, "%g", json_number_value(v));
	return buf;
}

/* The table of a run, under the line that says whether the extension ran
 * and why not: a reason said there is not said again in a row. */
static void print_table(FILE *f, const json_t *doc)
{
	const json_t *results = json_object_get(doc, "results");
	char ext[2048];
	size_t i;
	json_t *r;

	ext_state_line(doc, ext, sizeof(ext));
	fprintf(f, "%s\n", ext);
	fprintf(f, "%-18s %7s %6s %-24s %14s %9s %10s %6s  %s\n", "workload", "threads", "cs_ns",
	       "pin (+noise threads)", "ops/s", "+-95%", "p99 hold", "jain", "status");
	json_array_foreach(results, i, r) {
		const json_t *p = json_object_get(r, fld_r_params);
		const json_t *s = json_object_get(r, fld_r_summary);
		const json_t *o = json_object_get(s, fld_key(fld_s_ops));
		const char *st = json_string_value(json_object_get(r, fld_r_status));
		char th[32], cs[32];

		char nth[48];

		const json_t *nt = json_object_get(r, fld_r_nthreads);

		snprintf(nth, sizeof(nth), nt ? "%lld" : "-", (long long)json_integer_value(nt));
		if (json_is_string(json_object_get(p, "threads")))
			snprintf(nth + strlen(nth), sizeof(nth) - strlen(nth), "(%s)",
				 param_str(p, "threads", th, sizeof(th)));
		/* a row with noise threads says so: it is another experiment */
		char pin[64];
		json_int_t noise = json_integer_value(json_object_get(p, "noise"));

		snprintf(pin, sizeof(pin), noise > 0 ? "%s +noise:%lld" : "%s",
			 json_string_value(json_object_get(p, "pin")), (long long)noise);
		fprintf(f, "%-18s %7s %6s %-24s ", json_string_value(json_object_get(r, fld_r_workload)),
		       nth, param_str(p, "cs_ns", cs, sizeof(cs)), pin);
		if (o) {
			double mean = json_number_value(json_object_get(o, fld_key(fld_s_ops_mean)));
			double hi = json_number_value(json_object_get(o, fld_key(fld_s_ops_ci95_hi)));

			fprintf(f, "%14.0f %8.1f%% %8lldns %6.3f  %s\n", mean,
			       mean > 0 ? 100.0 * (hi - mean) / mean : 0.0,
			       (long long)json_integer_value(
				       json_object_get(json_object_get(s, fld_key(fld_s_hold)),
						       fld_key(fld_s_hold_p99))),
			       json_number_value(json_object_get(s, fld_key(fld_s_jain))), st);
		} else {
			const char *why = json_string_value(json_object_get(r, fld_r_reason));
			size_t k;

			/* each reason in full once: above, or at its first row */
			for (k = 0; why && !strstr(ext, why) && k < i; k++) {
				const char *ow = json_string_value(
					json_object_get(json_array_get(results, k), fld_r_reason));

				if (ow && !strcmp(ow, why))
					break;
			}
			char *shown = why ? txt_term(why) : NULL;

			if (why && (k < i || strstr(ext, why)))
				fprintf(f, "%14s %9s %10s %6s  %s (as above)\n", "-", "-", "-", "-", st);
			else
				fprintf(f, "%14s %9s %10s %6s  %s: %s\n", "-", "-", "-", "-", st,
					shown ? shown : "(no reason given)");
			free(shown);
		}
	}
}

static void free_metas(char ***p)
{
	free(*p);
}

/* What `run` was asked: its options, and the default name's state. */
struct run_args {
	const char *config, *out, *slowdown;
	json_t *flags; /* the config the flags built, NULL: none given */
	char **metas;
	int nmeta, quiet, dry, planned, force, check, timescale;
	int seq; /* > 0: the default name, -<seq> when taken */
	char defpath[512];
};

/* The options; -1 to go on, else the verb's exit status. */
static int run_parse(int argc, char **argv, struct run_args *a)
{
	int c, rc;

	while ((c = cli_next(argc, argv, &run_cmd, &rc)) > 0) {
		switch (c) {
		case 'c': a->config = optarg; break;
		case 'o': a->out = optarg; break;
		case 'q': a->quiet = 1; break;
		case 'm': a->metas[a->nmeta++] = optarg; break;
		case 'n': a->dry = 1; break;
		case 'p': a->dry = a->planned = 1; break;
		case 'f': a->force = 1; break;
		case 'k': a->check = 1; break;
		case RUN_SLOWDOWN: a->slowdown = optarg; break;
		case RUN_TIMESCALE: a->timescale = 1; break;
		default: {
			char msg[1024];

			if (runflags_add(&a->flags, c, optarg, msg, sizeof(msg)) < 0)
				return cli_misuse(&run_cmd, "%s", msg);
		}
		}
	}
	/* --check-args: the arguments of a run that must leave a result (the
	 * guest's), so --help, --dry-run and --planned-s are refused too. */
	if (!c && a->check && !rc)
		return cli_misuse(&run_cmd, "--help writes no result");
	if (!c)
		return rc;
	if (a->check && a->dry)
		return cli_misuse(&run_cmd, "%s writes no result", a->planned ? "--planned-s" : "--dry-run");
	double k = 1;
	char err[160];

	if (a->slowdown && ts_parse_k(a->slowdown, 0.01, TS_K_MAX, &k, err, sizeof(err)))
		return cli_misuse(&run_cmd, "--slowdown: %s", err);
	if (a->timescale && !a->slowdown)
		return cli_misuse(&run_cmd, "--timescale needs --slowdown K");
	knob_timescale(k, a->timescale);
	/* Armed before anything else: a signal during the config load or the
	 * first run's start is the same request as one later. */
	sig_install();
	if (optind != argc)
		return cli_misuse(&run_cmd, "unexpected argument \"%s\"", argv[optind]);
	if (a->config && a->flags)
		return cli_misuse(&run_cmd, "--config and the run flags (--workload ... --set) "
					    "exclude each other: a config file sets its own keys");
	if (!a->config && !a->flags)
		return cli_misuse(&run_cmd, "--config FILE, or the run's flags (-w LIST ...), "
					    "is required");
	return a->check ? 0 : -1;
}

static int run_load(const struct run_args *a, struct cfg_suite *s)
{
	char err[1024];

	if (topo_init(err, sizeof(err))) {
		fprintf(stderr, "slicebench: %s\n", err);
		return 1;
	}
	if (a->flags ? cfg_load_json("run flags", a->flags, s, err, sizeof(err))
		     : cfg_load(a->config, s, err, sizeof(err))) {
		fprintf(stderr, "slicebench: %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* --planned-s: the seconds; --dry-run: the expanded runs. */
static void run_dry(const struct run_args *a, const struct cfg_suite *s)
{
	double left = suite_planned_s(s);

	if (a->planned) {
		printf("%.0f\n", left);
		return;
	}
	for (size_t i = 0; i < s->nruns; i++) {
		char *p = json_dumps(s->runs[i].params, JSON_COMPACT | JSON_SORT_KEYS);

		printf("%zu %s %s\n", i, s->runs[i].ops->name, p);
		free(p);
	}
	if (s->interleave)
		fprintf(stderr, "%zu runs in %zu interleaved points, %.0f s planned\n", s->nruns,
			il_points(s), left);
	else
		fprintf(stderr, "%zu runs, %.0f s planned\n", s->nruns, left);
}

/* The result document with its --meta, and the --out path checked (or
 * the first free default name); NULL after saying why. */
static json_t *run_doc(struct run_args *a, const struct cfg_suite *s)
{
	char err[1024];
	json_t *doc = res_new(s->root, a->config);

	for (int i = 0; i < a->nmeta; i++)
		if (res_meta_set(doc, a->metas[i], err, sizeof(err)))
			goto fail;
	if (a->slowdown)
		json_object_set_new(json_object_get(doc, "meta"), "timescale",
				    json_pack("{s:f,s:b,s:s}", "slowdown", atof(a->slowdown),
					      "run_keys_scaled", a->timescale, "host_equivalent",
					      "slice_ext_host_ns = slice_ext_nsec_in_force / slowdown"));
	if (!a->out) {
		struct stat st;

		do
			res_default_path(doc, ++a->seq, a->defpath, sizeof(a->defpath));
		while (!lstat(a->defpath, &st) && a->seq < MAX_DEFAULT_SEQ);
		a->out = a->defpath;
	}
	if (!res_check_out(a->out, a->force, err, sizeof(err)))
		return doc;
fail:
	fprintf(stderr, "slicebench: %s\n", err);
	json_decref(doc);
	return NULL;
}

/* Writes doc and says so (the table too); the verb's exit status. */
static int run_write(struct run_args *a, const json_t *doc, int sig)
{
	char err[1024];
	int wrc;

	/* Another run that started in the same second may have taken the
	 * default name meanwhile: take the next one, never its file. */
	while ((wrc = res_write(a->out, a->force, doc, err, sizeof(err))) && errno == EEXIST &&
	       a->seq && a->seq < MAX_DEFAULT_SEQ)
		res_default_path(doc, ++a->seq, a->defpath, sizeof(a->defpath));
	if (wrc) {
		char where[4096];
		int k = res_keep(a->out, doc, where, sizeof(where));

		fprintf(stderr, "slicebench: %s\n", err);
		/* The measurements are not lost with the file: the table, and
		 * where the whole result went. */
		print_table(k == 1 ? stderr : stdout, doc);
		if (k < 0)
			fprintf(stderr, "slicebench: the result could not be kept anywhere: %s\n",
				strerror(errno));
		else if (k)
			fprintf(stderr, "slicebench: no file could take the result: it is on "
					"stdout, one line of JSON\n");
		else
			fprintf(stderr, "slicebench: the result is kept in %s\n", where);
		return 1;
	}
	/* Interrupted: the summary so far is printed even with --quiet. */
	if (!a->quiet || sig) {
		print_table(stdout, doc);
		fprintf(stderr, "%s%s\n", sig ? "interrupted; results so far in " : "wrote ",
			a->out);
	}
	return sig ? sig_exit_status(sig) : 0;
}

static int cmd_run(int argc, char **argv)
{
	/* Heap: argc is the user's (cleanup frees it on every return). */
	char **metas __attribute__((cleanup(free_metas))) =
		calloc(argc > 0 ? (size_t)argc : 1, sizeof(char *));
	struct run_args a = { .metas = metas };
	struct cfg_suite s = { 0 };
	json_t *doc = NULL;
	int rc;

	if (!metas || runflags_opts(run_all_opts, CLI_MAX + 1, run_opts))
		return 1;
	if ((rc = run_parse(argc, argv, &a)) >= 0) {
		json_decref(a.flags);
		return rc;
	}
	if ((rc = run_load(&a, &s)))
		goto out;
	if (a.dry) {
		run_dry(&a, &s);
		goto out;
	}
	if (!(doc = run_doc(&a, &s))) {
		rc = EXIT_USAGE;
		goto out;
	}
	int sig = suite_run(&s, doc, a.quiet);

	sysinfo_cleanup();
	rc = run_write(&a, doc, sig);
out:
	json_decref(doc);
	json_decref(a.flags);
	cfg_free(&s);
	return rc;
}

static const struct cli_cmd list_cmd = {
	.name = "list",
	.synopsis = "slicebench list [--keys-markdown | --tables-markdown]\n",
	.about = "Lists the locks with their own config keys, the waiting policies and\n"
		 "the named workloads; --keys-markdown prints every run and lock key as\n"
		 "the manual's key table, --tables-markdown the manual's lock, policy\n"
		 "and workload tables (docs/manual.md).\n",
};

static int cmd_list(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cli_cmd_usage(stdout, &list_cmd);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--keys-markdown")) {
		catalog_keys_markdown(stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--tables-markdown")) {
		catalog_tables_markdown(stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "slicebench list: unexpected argument \"%s\"\n", argv[1]);
		return EXIT_USAGE;
	}
	catalog_print(stdout);
	return 0;
}

static void info_text(const json_t *j, int depth)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)j, k, v) {
		if (json_is_object(v)) {
			printf("%*s%s:\n", depth * 2, "", k);
			info_text(v, depth + 1);
			continue;
		}
		char *s = json_is_string(v) ? strdup(json_string_value(v))
					    : json_dumps(v, JSON_ENCODE_ANY);

		printf("%*s%-*s %s\n", depth * 2, "", 24 - depth * 2, k, s);
		free(s);
	}
}

static const struct cli_cmd info_cmd = {
	.name = "info",
	.synopsis = "slicebench info [--json]\n",
	.about =
		"Kernel release, preemption model, HZ, slice-extension availability (and why not),\n"
		"topology, virtualization, glibc and compiler; then what a\n"
		"bare-metal run lacks here (the extension, RSEQ stats, tracefs,\n"
		"PMU, root) and the command that fixes each (--json: bare_metal).\n",
};

static int cmd_info(int argc, char **argv)
{
	int as_json = 0;
	char err[256];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			as_json = 1;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_cmd_usage(stdout, &info_cmd);
			return 0;
		} else {
			fprintf(stderr, "slicebench info: unknown option \"%s\"\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (topo_init(err, sizeof(err))) {
		fprintf(stderr, "slicebench: %s\n", err);
		return 1;
	}
	json_t *j = sysinfo_json(), *ready = ready_json();

	if (as_json) {
		json_object_set(j, "bare_metal", ready);
		json_dumpf(j, stdout, JSON_INDENT(2));
		putchar('\n');
	} else {
		info_text(j, 0);
		printf("what a bare-metal run lacks here:\n");
		ready_print_lacks(stdout, ready);
	}
	json_decref(ready);
	json_decref(j);
	return 0;
}

/* Verbs that live in their own modules (the report side). */
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_verdict(int argc, char **argv);

/* The verb table: the dispatch and the usage text both come from it, as
 * perf's and git's command tables do.  prints: the verb's product is what
 * it prints on stdout, so a failed write of it is an error (stdout_done). */
static const struct verb {
	const char *name;
	int (*fn)(int argc, char **argv);
	int prints;
	const char *help;
} verbs[] = {
	{ "run", cmd_run, 0, "run a suite config and write a JSON result" },
	{ "list", cmd_list, 1, "list the locks, waiting policies and workloads" },
	{ "info", cmd_info, 1, "describe this machine and kernel (--json)" },
	{ "compare", cmd_compare, 1, "compare result files with statistics" },
	{ "plot", cmd_plot, 1, "render gnuplot reports from result files" },
	{ "plan", cmd_plan, 1, "expand a cluster plan into jobs" },
	{ "study", cmd_study, 1, "check study files and print what scripts/studies.sh runs" },
	{ "validate", cmd_validate, 1, "check result files against the result schema" },
	{ "schema", cmd_schema, 1, "print the result schema (docs/result-schema.md)" },
	{ "verdict", cmd_verdict, 1, "judge published claims on compare rows (the replication kit's)" },
	{ "timescale", cmd_timescale, 1, "the guest's slowdown k and the time constants scaled by it" },
	{ "vmmeta", cmd_vmmeta, 0, "add what the host saw to a guest's result (scripts/vm.sh)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: slicebench [--version] VERB [--help] [ARGS]\n\nverbs:\n");
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		fprintf(f, "  %-9s %s\n", verbs[i].name, verbs[i].help);
}

/* These verbs' product is what they print: a table lost to a full disk
 * (/dev/full) or a closed stdout is an I/O error, exit 1, not success. */
static int stdout_done(const char *verb, int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "slicebench %s: writing to stdout: %s\n", verb,
			strerror(errno ? errno : EIO));
		return rc ? rc : 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	slice_reexec_if_needed(argv);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *verb = argv[1];

	if (!strcmp(verb, "--help") || !strcmp(verb, "-h") || !strcmp(verb, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(verb, "--version")) {
		printf("slicebench %s (%s)\n", SB_VERSION, SB_GIT_REV);
		return 0;
	}
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		const struct verb *v = &verbs[i];
		int rc;

		if (strcmp(verb, v->name))
			continue;
		rc = v->fn(argc - 1, argv + 1);
		return v->prints ? stdout_done(verb, rc) : rc;
	}
	fprintf(stderr, "slicebench: unknown verb \"%s\"\n", verb);
	usage(stderr);
	return EXIT_USAGE;
}
