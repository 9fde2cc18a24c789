/* isolate.c - fork per run: a crash or a hang costs that run only, and a
 * run is a self-contained unit (params in, one JSON object out). */
#define _GNU_SOURCE
#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "autorep.h"
#include "../lib/resset.h"
#include "../os/knobs.h"
#include "../os/signals.h"
#include "../os/reap.h"
#include "runner.h"
#include "../os/timing.h"

/* A wake-up later than asked by this much is a stall, not scheduling
 * noise (a loaded 2-CPU machine wakes a poller within milliseconds). */
#define STALL_SLACK_NS 500000000ull
#define POLL_SLICE_NS 1000000000ull
/* A stopped run ends its window and reports within this (measured: a few
 * ms); past it, it is killed and marked interrupted without its windows. */
#define STOP_GRACE_NS 3000000000ull

double iso_planned_s(const struct run_params *p)
{
	/* The run's own count (autorep_cap): with ci_target_pct it may go on
	 * to repetitions_max, and it makes at least two. */
	return autorep_cap(p) * (p->warmup_s + p->duration_s);
}

double iso_timeout_s(const struct run_params *p)
{
	/* 30 s covers thread start-up, calibration and the join grace. */
	return p->timeout_s > 0 ? p->timeout_s : iso_planned_s(p) + 30.0;
}

static json_t *status_res(const struct cfg_run *run, const char *status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static json_t *status_res(const struct cfg_run *run, const char *status, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return json_pack("{s:s,s:O,s:s,s:s,s:[]}", fld_r_workload, run->ops->name, fld_r_params,
			 run->params, fld_r_status, status, fld_r_reason, msg, fld_r_reps);
}

#define failed(run, ...) status_res(run, "failed", __VA_ARGS__)

static json_t *iso_fork(const struct cfg_run *run);

void iso_child(const struct cfg_run *run, int fd, pid_t parent, const struct il_gate *g)
{
	/* A parent killed outright (SIGKILL, the OOM killer) cannot stop its
	 * run: the kernel does, at once (prctl(2) PR_SET_PDEATHSIG).  The
	 * getppid check covers a parent that died before the prctl. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(4);
	/* A stop signal (Ctrl-C reaches the whole process group, or the
	 * parent passes its own on: iso_stop) ends the run after its last
	 * complete window, which it reports. */
	sig_install_child();
	/* What a run's programs leave is re-parented here, where the
	 * workload kills it after each repetition (reap.h). */
	reap_become();
	json_t *res = runner_run_gated(run->ops, run->params, &run->p, g);

	/* _exit: the run may have left threads stuck; nothing to clean up. */
	_exit(json_dumpfd(res, fd, JSON_COMPACT) ? 3 : 0);
}

json_t *iso_run(const struct cfg_run *run)
{
	char why[320];

	/* System settings are the parent's business: a crashed child cannot
	 * leave them changed. */
	if (knob_apply(run->p.slice_ext_nsec, why, sizeof(why)))
		return status_res(run, "unsupported", "%s", why);
	long in_force = knob_slice_ext_nsec();
	json_t *res = iso_fork(run);

	knob_restore();
	knob_record(res, in_force);
	return res;
}

void iso_watch_start(struct iso_watch *w, double limit_s)
{
	w->left_ns = (uint64_t)(limit_s * 1e9);
	iso_watch_resume(w);
}

void iso_watch_resume(struct iso_watch *w)
{
	w->last_ns = tm_now_ns();
	w->asked_ns = 0;
}

int iso_wait(struct iso_watch *w, int fd)
{
	for (;;) {
		uint64_t now = tm_now_ns(), spent = now - w->last_ns;

		/* The watchdog counts only time this process was there to watch:
		 * a wake-up far later than asked means it was stopped (SIGSTOP,
		 * ^Z, a suspended machine; CLOCK_MONOTONIC runs on while
		 * stopped), and the child may have been stopped with it.  The
		 * stall is not charged; a child that finished meanwhile is read
		 * before any verdict. */
		if (spent > w->asked_ns + STALL_SLACK_NS)
			spent = w->asked_ns;
		w->left_ns = spent >= w->left_ns ? 0 : w->left_ns - spent;
		w->last_ns = now;
		uint64_t left = w->left_ns;
		/* Short waits keep the stall measurement fine-grained; the last
		 * look (0 ms) sees a result written at the deadline. */
		int ms = left ? (int)(left > POLL_SLICE_NS ? POLL_SLICE_NS : left) / 1000000 + 1 : 0;

		w->asked_ns = (uint64_t)ms * 1000000;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int n = sig_poll(&pfd, ms);

		if (sig_pending())
			return -1; /* the suite is being stopped: so is this run */
		if (n == 0 && !ms)
			return 0;
		if (n > 0)
			return 1;
	}
}

/* What the child wrote, appended to buf: 1 while it may write more, 0 at
 * its end. */
static int take(int fd, char **buf, size_t *len, size_t *cap)
{
	if (*cap - *len < 65536) {
		*cap = *cap ? *cap * 2 : 1 << 20;
		if (!(*buf = realloc(*buf, *cap)))
			abort();
	}
	ssize_t r = read(fd, *buf + *len, *cap - *len - 1);

	if (r < 0 && errno == EINTR)
		return 1;
	if (r <= 0)
		return 0;
	*len += (size_t)r;
	return 1;
}

void iso_stop(pid_t pid)
{
	if (pid > 0 && sig_pending())
		kill(pid, sig_pending());
}

/* Stopped by a signal: the child ends its window and writes what it
 * measured; it has STOP_GRACE_NS to do so (a second signal ends the
 * parent, and the child with it, at once). */
static void take_stopped(pid_t pid, int fd, char **buf, size_t *len, size_t *cap)
{
	uint64_t end = tm_now_ns() + STOP_GRACE_NS, now;

	iso_stop(pid);
	while ((now = tm_now_ns()) < end) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int n = poll(&pfd, 1, (int)((end - now) / 1000000) + 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || !take(fd, buf, len, cap))
			break;
	}
}

json_t *iso_collect(const struct cfg_run *run, pid_t pid, int fd, struct iso_watch *w,
		    double limit)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int timed_out, interrupted, n;

	while ((n = iso_wait(w, fd)) > 0 && take(fd, &buf, &len, &cap))
		;
	timed_out = !n;
	interrupted = sig_pending() && !timed_out;
	if (interrupted)
		take_stopped(pid, fd, &buf, &len, &cap);
	close(fd);
	/* SIGKILL: the workers may be spinning on a lock; nothing of theirs
	 * needs cleaning, the parent restores the system settings. */
	if (timed_out || interrupted)
		kill(pid, SIGKILL);
	int st = 0;

	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	/* A run killed here (or crashed) could not kill what its programs
	 * started: that was re-parented to this process (reap_become in
	 * cmd_run) and goes now, before the next run. */
	reap_untrack(pid);
	int left = reap_orphans();

	reap_scratch(pid);
	/* A child killed here (or crashed) left its tracers' instances. */
	if (WIFSIGNALED(st))
		reap_trace_instances();
	json_t *res = NULL;

	/* Interrupted: the windows the child completed, or the mark alone
	 * when it had none to give in time. */
	if (interrupted && (WIFSIGNALED(st) || WEXITSTATUS(st) || !buf ||
			    !(res = json_loadb(buf, len, 0, NULL))))
		res = iso_interrupted(run);
	else if (interrupted)
		;
	else if (timed_out)
		res = failed(run, "watchdog: no result after %g s (timeout_s), run killed",
			     limit);
	else if (WIFSIGNALED(st))
		res = failed(run, "run crashed: killed by signal %d (%s)", WTERMSIG(st),
			     strsignal(WTERMSIG(st)));
	else if (WEXITSTATUS(st))
		res = failed(run, "run process exited with status %d", WEXITSTATUS(st));
	else if (!(res = json_loadb(buf ? buf : "", len, 0, NULL)))
		res = failed(run, "run process returned no valid result (%zu bytes)", len);
	free(buf);
	if (left) {
		const char *why = json_string_value(json_object_get(res, fld_r_reason));

		res_set(res, fld_r_left_behind, json_integer(left));
		if (why)
			res_set(res, fld_r_reason,
					    json_sprintf("%s; %d process%s it left behind killed",
							 why, left, left == 1 ? "" : "es"));
	}
	return res;
}

json_t *iso_interrupted(const struct cfg_run *run)
{
	return status_res(run, "interrupted", "stopped by signal %d (%s) during the run",
			  sig_pending(), strsignal(sig_pending()));
}

json_t *iso_status(const struct cfg_run *run, const char *status, const char *why)
{
	return status_res(run, status, "%s", why);
}

static json_t *iso_fork(const struct cfg_run *run)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return failed(run, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();

	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return failed(run, "fork: %s", strerror(errno));
	}
	if (!pid) {
		close(p[0]);
		iso_child(run, p[1], parent, NULL);
	}
	reap_track(pid);
	close(p[1]);
	double limit = iso_timeout_s(&run->p);
	struct iso_watch w;

	iso_watch_start(&w, limit);
	return iso_collect(run, pid, p[0], &w, limit);
}
