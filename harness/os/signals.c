/* signals.c - the first SIGINT/SIGTERM/SIGHUP is a request (the run loop
 * stops the child, restores settings and writes the results so far); a
 * second one exits at once, after the async-signal-safe part of the
 * clean-up.  SIGHUP (a dropped ssh session) is a stop like SIGTERM: the
 * suite cannot report to a terminal that is gone, and keeping what was
 * measured beats losing it.  SIGPIPE is ignored: a closed pipe on stdout or
 * stderr (`2>&1 | head`) makes progress and table writes fail with EPIPE,
 * which never stops a suite or its result file. */
#define _GNU_SOURCE
#include "signals.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "timing.h"

#include "knobs.h"
#include "sysinfo.h"

static volatile sig_atomic_t pending;
static char tmpfile_path[4096];
static volatile sig_atomic_t have_tmp;
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* In a run's child: every stop signal only asks; the parent decides when
 * the child is past saving (PR_SET_PDEATHSIG ends it with the parent). */
static void on_signal_child(int sig)
{
	if (!pending)
		pending = sig;
}

static void on_signal(int sig)
{
	if (!pending) {
		pending = sig;
		return;
	}
	/* Second signal: everything here is async-signal-safe. */
	knob_restore();
	sysinfo_cleanup();
	if (have_tmp)
		unlink(tmpfile_path);
	_exit(sig_exit_status(pending));
}

static void install(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void sig_install(void)
{
	install(on_signal);
}

void sig_install_child(void)
{
	install(on_signal_child);
}

static void stops_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(set, stop_signals[i]);
}

int sig_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t stop, old;

	/* The new thread inherits the mask: the stop signals go to the
	 * thread that sleeps through the window, which they wake. */
	stops_set(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	int rc = pthread_create(t, NULL, fn, arg);

	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int sig_sleep_ns(uint64_t ns)
{
	sigset_t stop, old;
	uint64_t end = tm_now_ns() + ns, now;

	stops_set(&stop);
	/* As in sig_poll: blocked between the check and the wait. */
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	while (!pending && (now = tm_now_ns()) < end) {
		struct timespec ts = { (time_t)((end - now) / 1000000000ull),
				       (long)((end - now) % 1000000000ull) };

		ppoll(NULL, 0, &ts, &old);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return pending ? -1 : 0;
}

int sig_pending(void)
{
	return pending;
}

int sig_poll(struct pollfd *pfd, int timeout_ms)
{
	sigset_t stop, old;
	struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000 };

	stops_set(&stop);
	/* Blocked between the check and the wait, so a signal that arrives
	 * in between interrupts ppoll instead of waiting out the timeout. */
	sigprocmask(SIG_BLOCK, &stop, &old);
	int n = pending ? -1 : ppoll(pfd, 1, &ts, &old), saved = pending ? EINTR : errno;

	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return n;
}

void sig_set_tmpfile(const char *path)
{
	have_tmp = 0;
	if (path) {
		size_t n = strlen(path);

		if (n >= sizeof(tmpfile_path))
			return;
		memcpy(tmpfile_path, path, n + 1);
		have_tmp = 1;
	}
}

int sig_exit_status(int sig)
{
	return 128 + sig;
}
