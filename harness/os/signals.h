/* signals.h - SIGINT/SIGTERM/SIGHUP during a suite: stop the run in flight, put
 * system settings back, keep what was measured. */
#ifndef SB_SIGNALS_H
#define SB_SIGNALS_H

#include <signal.h>

/* Installs the handlers (no SA_RESTART: blocking calls return EINTR) and
 * ignores SIGPIPE. */
void sig_install(void);
/* The first signal received (SIGINT, SIGTERM or SIGHUP), or 0. */
int sig_pending(void);
struct pollfd;
/* poll(2) on one fd that returns -1 (EINTR) at once when a stop signal is
 * pending or arrives, with no window in which one is missed. */
int sig_poll(struct pollfd *pfd, int timeout_ms);
/* The temporary result file being written, removed by a second signal. */
void sig_set_tmpfile(const char *path);
/* 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP: the shell's 128 + signal. */
int sig_exit_status(int sig);

#endif
