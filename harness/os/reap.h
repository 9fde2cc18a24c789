/* reap.h - no process a run starts outlives the run: a program workload's
 * command may leave a daemon it forked, the children of a shell the
 * watchdog killed (PR_SET_PDEATHSIG reaches the direct child only), or a
 * process that ignores SIGTERM. */
#ifndef SB_REAP_H
#define SB_REAP_H

#include <sys/types.h>

/* Makes this process a child subreaper (prctl(2) PR_SET_CHILD_SUBREAPER):
 * an orphaned descendant is re-parented here instead of to init, so
 * reap_orphans can find it.  0 or -errno. */
int reap_become(void);
/* A run process this process forked: reap_orphans leaves it alone until
 * reap_untrack (after waitpid). */
void reap_track(pid_t pid);
void reap_untrack(pid_t pid);
/* Kills (SIGKILL) and reaps every child of this process that is not
 * tracked, then what each leaves: a killed child's own children are
 * re-parented here and go in the next pass.  How many it killed. */
int reap_orphans(void);
/* The scratch directory of a run process's program workload: the pid,
 * then mkdtemp's suffix. */
#define REAP_SCRATCH_FMT "/tmp/slicebench-prog.%d."
/* Removes what run process pid left of its scratch directories (a run
 * killed by its watchdog, or by SIGKILL, cannot): every file in them, then
 * each directory.  How many directories it removed. */
int reap_scratch(pid_t pid);
/* Removes the tracefs instances ("slicebench-...-PID", the slice and the
 * holder tracers') whose process is gone: a run killed by its watchdog or
 * by SIGKILL cannot remove its own, whose buffers stay allocated and whose
 * sched_switch events keep being recorded.  How many it removed. */
int reap_trace_instances(void);

#endif
