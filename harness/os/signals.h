/* signals.h - SIGINT/SIGTERM/SIGHUP during a suite: stop the run in flight, put
 * system settings back, keep what was measured. */
#ifndef SB_SIGNALS_H
#define SB_SIGNALS_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

/* Installs the handlers (no SA_RESTART: blocking calls return EINTR) and
 * ignores SIGPIPE. */
void sig_install(void);
/* In a run's child: a stop signal, however many, only marks the stop
 * (sig_pending); the run ends its window and reports what it measured. */
void sig_install_child(void);
/* pthread_create with the stop signals blocked in the new thread, so they
 * wake the thread that waits in sig_sleep_ns. */
int sig_thread_create(pthread_t *t, void *(*fn)(void *), void *arg);
/* Sleeps ns, or less when a stop signal is pending or arrives: -1 then. */
int sig_sleep_ns(uint64_t ns);
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
