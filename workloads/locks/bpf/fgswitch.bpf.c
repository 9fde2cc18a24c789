/* fgswitch.bpf.c - the flexguard lock's preemption detector: on every
 * sched_switch, mark a registered thread switched out while critical and
 * clear the mark when it is switched back in (the technique of FlexGuard,
 * Laforet et al., SOSP 2025, github.com/vlaforet/flexguard; this one reads
 * no stacks or registers, see workloads/locks/flexguard.c for what it marks).
 *
 * A classic tracepoint program: it reads prev_pid and next_pid from the
 * event record whose layout the kernel publishes in
 * events/sched/sched_switch/format, so it needs no kernel BTF and no
 * CO-RE relocation.  The loader checks those two offsets against the
 * running kernel's format before it attaches. */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "fgshared.h"

/* The sched_switch record since Linux 4.x (include/trace/events/sched.h):
 * an 8-byte common header, then the fields in this order. */
struct fg_switch_rec {
	__u64 common;
	char prev_comm[16];
	__s32 prev_pid;
	__s32 prev_prio;
	long prev_state;
	char next_comm[16];
	__s32 next_pid;
	__s32 next_prio;
};

/* tid -> slot index, written by user space when a thread first locks. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, FG_MAX_THREADS);
} fg_tids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct fg_slot);
	__uint(max_entries, FG_MAX_THREADS);
} fg_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct fg_count);
	__uint(max_entries, 1);
} fg_count SEC(".maps");


static __always_inline struct fg_slot *fg_slot_of(__s32 pid)
{
	__u32 key = (__u32)pid, *i;

	if (pid <= 0 || !(i = bpf_map_lookup_elem(&fg_tids, &key)))
		return 0;
	return bpf_map_lookup_elem(&fg_slots, i);
}

SEC("tracepoint/sched/sched_switch")
int fg_switch(struct fg_switch_rec *ctx)
{
	__u32 zero = 0;
	struct fg_count *c = bpf_map_lookup_elem(&fg_count, &zero);
	struct fg_slot *s;

	if (!c)
		return 0;
	/* A thread is switched in only after it was switched out (the
	 * scheduler finishes the switch-out before the task can run
	 * elsewhere), so one thread's two updates never race. */
	/* The outgoing task is the current one here, so other processes'
	 * switches cost one helper call and a compare on that side. */
	if ((__u32)(bpf_get_current_pid_tgid() >> 32) == c->tgid &&
	    (s = fg_slot_of(ctx->prev_pid)) && s->crit && !s->off) {
		s->off = 1;
		__sync_fetch_and_add(&c->off, 1);
	}
	if ((s = fg_slot_of(ctx->next_pid)) && s->off) {
		s->off = 0;
		__sync_fetch_and_add(&c->off, -1);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
