/* fgshared.h - what the flexguard lock (workloads/locks/flexguard.c) and its
 * sched_switch program (fgswitch.bpf.c) share: the per-thread slots user
 * space maps and the program writes.  Included by both sides, so only
 * fixed-size types. */
#ifndef FG_SHARED_H
#define FG_SHARED_H

/* Lock threads a run can register: the threads key's largest count.  A
 * run of more ("Nx" on many PUs) is refused (struct wl_lock's
 * max_threads): a thread the program does not watch is preempted unseen. */
#define FG_MAX_THREADS 4096

/* One thread's slot, a cache line of its own: crit is written by its
 * thread alone (1 while it holds the lock or heads the queue), off by the
 * program alone (1 while the thread is switched out with crit set). */
struct fg_slot {
	__u32 crit;
	__u32 off;
	__u32 pad[14];
};

/* The one count waiters read: how many registered threads are switched
 * out with crit set, kept by the program; and the process whose threads
 * may be registered, written by user space after the load, before the
 * attach.  Not a global constant: libbpf creates the .rodata map only
 * where its global-data probe loads, a socket filter, and a kernel
 * without CONFIG_NET (the suite's guest) has none. */
struct fg_count {
	__s64 off;
	__u32 tgid;
	__u32 pad0;
	__u64 pad[6];
};

#endif
