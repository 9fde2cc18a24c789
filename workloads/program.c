/* program - an external program as the workload: the command's own report
 * (a regex or a JSON path into its output) is the metric, one value per
 * repetition, summarized as the lock workloads' ops_per_sec is, so compare
 * pairs the arms as it pairs locks.  The arms are workloads of their own:
 * the program as it is, and under the preload library (preload/) with no
 * request, with the cs or pre placement, and with either's dry control.
 * A server (memcached) may run beside the command (its client): the
 * library then goes into whichever preload_into names.
 *
 * The programs run pinned to the PUs the run's pin and threads give (the
 * affinity mask is inherited by every thread they start), beside the
 * run's noise hogs on the same PUs; "{threads}", "{pus}" and
 * "{duration_s}" in an argument are replaced by those values, so a sweep
 * over threads oversubscribes the program as it does a lock. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdatomic.h>

#include "../harness/os/counters.h"
#include "../harness/os/reap.h"
#include "../harness/lib/resset.h"
#include "../harness/os/signals.h"
#include "../harness/lib/stats.h"
#include "../harness/os/timing.h"
#include "../harness/os/topo.h"
#include "../harness/core/workload.h"
#include "progmetric.h"
#include "progspawn.h"
#include "../harness/lib/status.h"

struct prog_params {
	const json_t *command, *server;
	const char *preload_into, *metric, *metric_json, *metric_name, *metric_from;
	double metric_divides;
};

static int check_regex(const json_t *v, char *msg, size_t len)
{
	const char *re = json_string_value(v);

	return *re ? pm_check_regex(re, msg, len) : 0;
}

static int check_path(const json_t *v, char *msg, size_t len)
{
	const char *path = json_string_value(v);

	return *path ? pm_check_path(path, msg, len) : 0;
}

static int check_into(const json_t *v, char *msg, size_t len)
{
	const char *s = json_string_value(v);

	if (!strcmp(s, "command") || !strcmp(s, "server"))
		return 0;
	snprintf(msg, len, "\"%s\" is not one of command, server", s);
	return -1;
}

static int check_from(const json_t *v, char *msg, size_t len)
{
	const char *s = json_string_value(v);

	if (!strcmp(s, "stdout") || !strcmp(s, "stderr") || !strcmp(s, "wall"))
		return 0;
	snprintf(msg, len, "\"%s\" is not one of stdout, stderr, wall", s);
	return -1;
}

static int check_argv(const json_t *v, char *msg, size_t len)
{
	size_t i;
	json_t *e;

	json_array_foreach(v, i, e)
		if (!json_string_length(e)) {
			snprintf(msg, len, "[%zu]: an empty argument", i);
			return -1;
		}
	return 0;
}

static const struct key_desc prog_keys[] = {
	{ "command", KT_LIST, "[]", 0, 256, "",
	  "program workloads: the measured command's argv ({threads}, {pus}, {duration_s} "
	  "replaced)", NULL, KEY_FIELD(struct prog_params, command), check_argv },
	{ "server", KT_LIST, "[]", 0, 256, "",
	  "program workloads: a server started before the command and stopped (SIGTERM) after it "
	  "([] = none)", NULL, KEY_FIELD(struct prog_params, server), check_argv },
	{ "preload_into", KT_STR, "\"command\"", 0, 0, "",
	  "program workloads: command | server, the process the preload library goes into", NULL,
	  KEY_FIELD(struct prog_params, preload_into), check_into },
	{ "metric", KT_STR, "\"\"", 0, 0, "",
	  "program workloads: extended regex whose first group is the metric (last match wins)",
	  NULL, KEY_FIELD(struct prog_params, metric), check_regex },
	{ "metric_json", KT_STR, "\"\"", 0, 0, "",
	  "program workloads: dotted path to the metric in the command's JSON output (instead "
	  "of metric)", NULL, KEY_FIELD(struct prog_params, metric_json), check_path },
	{ "metric_from", KT_STR, "\"stdout\"", 0, 0, "",
	  "program workloads: stdout | stderr (where metric or metric_json looks) | wall (the "
	  "command's wall time in s, for metric_divides)", NULL,
	  KEY_FIELD(struct prog_params, metric_from), check_from },
	{ "metric_divides", KT_NUM, "0", 0, 1e18, "",
	  "program workloads: > 0 makes the metric this number divided by the value found (a "
	  "total time into a rate: higher is better)", NULL,
	  KEY_FIELD(struct prog_params, metric_divides) },
	{ "metric_name", KT_STR, "\"metric\"", 0, 0, "",
	  "program workloads: what the metric is (its unit), for the result", NULL,
	  KEY_FIELD(struct prog_params, metric_name) },
	{ 0 },
};

/* The keys read together (workload.h): the config loader refuses a bad
 * point with these before anything runs. */
static int prog_check(const json_t *params, const char **key, char *msg, size_t len)
{
	struct prog_params pp = { 0 };

	key_bind(prog_keys, params, &pp);
	int wall = !strcmp(pp.metric_from, "wall"), re = *pp.metric != 0, path = *pp.metric_json != 0;

	if (!json_array_size(pp.command)) {
		*key = "command";
		snprintf(msg, len, "[]: the program's argv needs at least the program");
	} else if (wall && (re || path)) {
		*key = re ? "metric" : "metric_json";
		snprintf(msg, len, "\"%s\": metric_from \"wall\" takes no metric or metric_json",
			 re ? pp.metric : pp.metric_json);
	} else if (!wall && re && path) {
		*key = "metric_json";
		snprintf(msg, len, "\"%s\": metric \"%s\" is given too: give exactly one of metric "
			 "(a regex) and metric_json (a path)", pp.metric_json, pp.metric);
	} else if (!wall && !re && !path) {
		*key = "metric";
		snprintf(msg, len, "\"\": needs exactly one of metric (a regex) and metric_json (a "
			 "path), or metric_from \"wall\"");
	} else if (!strcmp(pp.preload_into, "server") && !json_array_size(pp.server)) {
		*key = "preload_into";
		snprintf(msg, len, "\"server\": server is [], no process to put the library into");
	} else {
		return 0;
	}
	return -1;
}

static json_t *prog_run(const struct workload_ops *ops, const json_t *params,
			const struct wl_turns *t);

/* placement NULL: the program as it is, without the library. */
#define ARM(n, pl, d, what)                                                                    \
	{ .name = n, .desc = what, .keys = prog_keys, .run = prog_run, .check = prog_check,    \
	  .dry = d, .preload = pl }
/* program+POLICY[+dry] under the library, the policy named by its ID in
 * harness/lib/vocab.h. */
#define PROG(ID) "program+" SB_POLNAME_##ID
#define PRELOAD_ARM(ID, what) ARM(PROG(ID), SB_POLNAME_##ID, 0, what)
#define PRELOAD_DRY(ID)                                                                        \
	ARM(PROG(ID) "+dry", SB_POLNAME_##ID, 1,                                               \
	    PROG(ID) "'s stores on an area the kernel never reads: its control (any kernel)")
static const struct workload_ops arms[] = {
	ARM("program", NULL, 0, "an external program as it is (no preload library)"),
	PRELOAD_ARM(NONE, "the program under the preload library: interposed and counted, never "
			  "requested"),
	PRELOAD_ARM(CS, "the program under the preload library: request from its first lock to "
			"its last unlock"),
	PRELOAD_ARM(PRE, "the program under the preload library: request from before its first "
			 "acquisition"),
	PRELOAD_DRY(CS),
	PRELOAD_DRY(PRE),
};

const struct workload_ops *wl_program_named(size_t i)
{
	return i < sizeof(arms) / sizeof(arms[0]) ? &arms[i] : NULL;
}

/* Noise: the run's hogs, round-robin on the program's PUs. */
struct hogs {
	unsigned n;
	pthread_t *tid;
	int *cpu;
	_Atomic int stop;
};

struct hog_arg {
	struct hogs *h;
	int cpu;
};

static void *hog(void *arg)
{
	struct hog_arg *a = arg;

	if (a->cpu >= 0)
		topo_bind_self(a->cpu);
	while (!atomic_load_explicit(&a->h->stop, memory_order_relaxed))
		tm_busy_iters(1000);
	return NULL;
}

static void hogs_start(struct hogs *h, struct hog_arg *a, const int *cpus, unsigned ncpu)
{
	h->tid = calloc(h->n, sizeof(*h->tid));
	for (unsigned i = 0; h->tid && i < h->n; i++) {
		a[i].h = h;
		a[i].cpu = ncpu ? cpus[i % ncpu] : -1;
		if (sig_thread_create(&h->tid[i], hog, &a[i]))
			h->n = i;
	}
}

static void hogs_stop(struct hogs *h)
{
	atomic_store(&h->stop, 1);
	for (unsigned i = 0; h->tid && i < h->n; i++)
		pthread_join(h->tid[i], NULL);
	free(h->tid);
}

static json_t *status(json_t *res, const char *st, const char *reason)
{
	res_set(res, fld_r_status, json_string(st));
	res_set(res, fld_r_reason, reason ? json_string(reason) : json_null());
	return res;
}

/* The library's counts summed over the repetitions, and per second of
 * the instrumented process's life. */
struct prog_acc {
	double *metric, *grants_s;
	json_int_t req, grants, yields, locks;
};

static void acc_stats(struct prog_acc *a, unsigned k, const json_t *st)
{
	json_int_t g = json_integer_value(json_object_get(st, fld_key(fld_pl_grants)));
	double life = (double)json_integer_value(json_object_get(st, "elapsed_ns")) / 1e9;

	a->req += json_integer_value(json_object_get(st, fld_key(fld_pl_requests)));
	a->grants += g;
	a->yields += json_integer_value(json_object_get(st, fld_key(fld_pl_yields)));
	a->locks += json_integer_value(json_object_get(st, fld_key(fld_pl_locks)));
	a->grants_s[k] = life > 0 ? (double)g / life : 0;
}

static json_t *summary(const struct prog_params *pp, const struct prog_acc *a, unsigned n,
		       int preloaded)
{
	struct st_summary s;
	json_t *sum = json_object();

	st_summarize(a->metric, n, &s);
	res_set(sum, fld_s_ops, st_summary_json(&s));
	res_set(sum, fld_s_metric_name, json_string(pp->metric_name));
	if (preloaded) {
		st_summarize(a->grants_s, n, &s);
		res_set(sum, fld_s_preload,
				    json_pack("{s:I,s:I,s:I,s:I,s:o}", fld_key(fld_s_pl_locks),
					      a->locks, fld_key(fld_s_pl_requests), a->req,
					      fld_key(fld_s_pl_grants), a->grants,
					      fld_key(fld_s_pl_yields), a->yields,
					      fld_key(fld_s_pl_gps), st_summary_json(&s)));
	}
	return sum;
}

static json_t *prog_run(const struct workload_ops *ops, const json_t *params,
			const struct wl_turns *t)
{
	json_t *res = json_object(), *reps = json_array();
	struct prog_params pp = { 0 };
	struct run_params p;
	char err[512] = "", msg[480];
	const char *key;

	key_bind(prog_keys, params, &pp);
	run_params_parse(params, &p);
	res_set(res, fld_r_workload, json_string(ops->name));
	res_set(res, fld_r_params, json_deep_copy(params));
	res_set(res, fld_r_reps, reps);
	/* the config loader refused these already; a caller that built the
	 * params itself gets the same answer */
	if (prog_check(params, &key, msg, sizeof(msg))) {
		snprintf(err, sizeof(err), "%s: %s", key, msg);
		return status(res, rs_name(RS_FAILED), err);
	}
	int wall = !strcmp(pp.metric_from, "wall");
	int into_server = !strcmp(pp.preload_into, "server");
	struct ps_job job = { .placement = ops->preload, .dry = ops->dry };
	int prc = ps_prepare(&job, &p, pp.command, pp.server, into_server, err, sizeof(err));

	if (prc) {
		ps_free(&job);
		return status(res, rs_name(prc == -2 ? RS_UNSUPPORTED : RS_FAILED), err);
	}
	res_set(res, fld_r_nthreads, json_integer(job.nthreads));
	if (job.lib)
		res_set(res, fld_r_preload_lib, json_string(job.lib));
	unsigned nrep = (unsigned)p.repetitions;
	struct prog_acc acc = { calloc(nrep, sizeof(double)), calloc(nrep, sizeof(double)) };
	struct hogs h = { .n = (unsigned)p.noise };
	struct hog_arg *ha = calloc(h.n + 1, sizeof(*ha));
	const char *st = rs_name(RS_OK);
	int cut = 0; /* a stop signal came during a repetition */

	/* Prepared: an interleaved arm waits for its turns from here on. */
	if (t)
		t->ready(t->g);
	for (unsigned k = 0; k < nrep && rs_is(st, RS_OK); k++) {
		struct ps_result r;

		int turn = t && !sig_pending() ? t->turn(t->g) : 0;

		if (sig_pending()) {
			st = rs_name(RS_INTERRUPTED);
			break;
		}
		if (turn) {
			st = rs_name(RS_FAILED);
			snprintf(err, sizeof(err), "interleave: the parent gave no more turns");
			break;
		}
		memset(&h.stop, 0, sizeof(h.stop));
		struct rseq_stats rs0, rs1;

		uint64_t t0 = tm_now_ns();

		hogs_start(&h, ha, job.cpus, job.ncpus);
		rseq_stats_read(&rs0);
		int rc = ps_rep(&job, p.warmup_s, &r, err, sizeof(err));
		/* a daemon the command forked, a child of a server it stopped:
		 * gone before the next repetition, and counted */
		int left = reap_orphans();

		if (sig_pending()) {
			/* stopped: the repetition in flight is dropped, the
			 * completed ones are the result */
			hogs_stop(&h);
			ps_result_free(&r);
			st = rs_name(RS_INTERRUPTED);
			cut = 1;
			break;
		}

		rseq_stats_read(&rs1);
		hogs_stop(&h);
		json_t *rj = json_pack("{s:f,s:i}", fld_key(fld_wall_s), r.wall_s, fld_key(fld_exit_status),
				       r.exit_status);

		if (left)
			res_set(rj, fld_left_behind, json_integer(left));
		/* Interleaved arms share CLOCK_MONOTONIC: the turns' real order. */
		if (t)
			res_set(rj, fld_window_start, json_integer((json_int_t)t0));

		/* the kernel's own counts over the repetition, every process's */
		res_set(rj, fld_rseq, rseq_stats_delta_json(&rs0, &rs1));

		if (r.stats)
			json_object_set(rj, fld_preload, r.stats);
		if (!rc && r.unsupported) {
			st = rs_name(RS_UNSUPPORTED);
			snprintf(err, sizeof(err), "%s", r.reason);
		} else if (rc) {
			st = rs_name(RS_FAILED);
		} else if (wall) {
			acc.metric[k] = r.wall_s;
		} else if (pm_extract(!strcmp(pp.metric_from, "stderr") ? r.err : r.out, pp.metric,
				      pp.metric_json, &acc.metric[k], err, sizeof(err))) {
			st = rs_name(RS_FAILED);
		}
		if (!rs_is(st, RS_OK)) {
			/* recorded below, the loop ends */
		} else if (pp.metric_divides > 0 && !(acc.metric[k] > 0)) {
			st = rs_name(RS_FAILED);
			snprintf(err, sizeof(err), "metric_divides: the value found is %g, not > 0",
				 acc.metric[k]);
		} else if (pp.metric_divides > 0 && pp.metric_divides / acc.metric[k] > PM_MAX) {
			st = rs_name(RS_FAILED);
			snprintf(err, sizeof(err), "metric_divides: %g / %g = %g, above 1e15",
				 pp.metric_divides, acc.metric[k], pp.metric_divides / acc.metric[k]);
		} else {
			if (pp.metric_divides > 0) {
				res_set(rj, fld_metric_found, json_real(acc.metric[k]));
				acc.metric[k] = pp.metric_divides / acc.metric[k];
			}
			res_set(rj, fld_metric, json_real(acc.metric[k]));
			/* what compare reads per repetition */
			res_set(rj, fld_ops_per_sec, json_real(acc.metric[k]));
			if (r.stats)
				acc_stats(&acc, k, r.stats);
		}
		json_array_append_new(reps, rj);
		ps_result_free(&r);
		if (t)
			t->done(t->g, !rs_is(st, RS_OK) || k + 1 == nrep);
	}
	if (rs_is(st, RS_OK)) {
		status(res, rs_name(RS_OK), NULL);
		res_set(res, fld_r_summary, summary(&pp, &acc, nrep, job.lib != NULL));
	} else if (rs_is(st, RS_INTERRUPTED)) {
		size_t n = json_array_size(reps);

		snprintf(err, sizeof(err),
			 "stopped by signal %d (%s) during the run: %zu completed repetition%s kept%s",
			 sig_pending(), strsignal(sig_pending()), n, n == 1 ? "" : "s",
			 cut ? ", the one in flight dropped" : "");
		status(res, st, err);
		if (n)
			res_set(res, fld_r_summary, summary(&pp, &acc, (unsigned)n, job.lib != NULL));
	} else {
		status(res, st, err);
	}
	ps_free(&job);
	free(ha);
	free(acc.metric);
	free(acc.grants_s);
	return res;
}
