/* fgload.h - the flexguard lock's sched_switch program (bpf/fgswitch.bpf.c):
 * loaded and attached once per process, its slots mapped into user space. */
#ifndef FG_LOAD_H
#define FG_LOAD_H

#include <linux/types.h>
#include <stddef.h>

#include "bpf/fgshared.h"

/* Loads and attaches the program (once: later calls return the first
 * answer).  0, or -errno with the reason (harness/os/bpfwhy.c) in why. */
int fgb_open(char *why, size_t len);
/* Detaches and unloads it (selfbench's unloaded arm); fgb_open loads anew. */
void fgb_close(void);
/* After a successful fgb_open: the count waiters read, and slot i. */
struct fg_count *fgb_count(void);
struct fg_slot *fgb_slot(unsigned i);
/* Watch thread tid as slot i (i < FG_MAX_THREADS); 0 or -errno. */
int fgb_watch(unsigned i, int tid);
/* Forget every watched thread and clear their slots (between runs: the
 * next repetition's threads have new tids). */
void fgb_unwatch_all(void);

#endif
