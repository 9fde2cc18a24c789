/* signals.h - SIGINT/SIGTERM during a suite: stop the run in flight, put
 * system settings back, keep what was measured. */
#ifndef SB_SIGNALS_H
#define SB_SIGNALS_H

#include <signal.h>

/* Installs the handlers (no SA_RESTART: blocking calls return EINTR). */
void sig_install(void);
/* The first signal received (SIGINT or SIGTERM), or 0. */
int sig_pending(void);
/* The temporary result file being written, removed by a second signal. */
void sig_set_tmpfile(const char *path);
/* 130 for SIGINT, 143 for SIGTERM: the shell's 128 + signal. */
int sig_exit_status(int sig);

#endif
