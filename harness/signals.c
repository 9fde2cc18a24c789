/* signals.c - the first SIGINT/SIGTERM is a request (the run loop stops
 * the child, restores settings and writes the results so far); a second
 * one exits at once, after the async-signal-safe part of the clean-up. */
#include "signals.h"

#include <string.h>
#include <unistd.h>

#include "knobs.h"
#include "sysinfo.h"

static volatile sig_atomic_t pending;
static char tmpfile_path[4096];
static volatile sig_atomic_t have_tmp;

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
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int sig_pending(void)
{
	return pending;
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
