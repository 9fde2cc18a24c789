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

#include "knobs.h"
#include "sysinfo.h"

static volatile sig_atomic_t pending;
static char tmpfile_path[4096];
static volatile sig_atomic_t have_tmp;
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

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

void sig_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int sig_pending(void)
{
	return pending;
}

int sig_poll(struct pollfd *pfd, int timeout_ms)
{
	sigset_t stop, old;
	struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000 };

	sigemptyset(&stop);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&stop, stop_signals[i]);
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
