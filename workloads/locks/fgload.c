/* fgload.c - load, check and attach the sched_switch program, and say why
 * not (harness/os/bpfwhy.c) where the kernel or the process refuses.
 *
 * The object is built by the Makefile (clang -target bpf) and embedded
 * here with .incbin, so the binary needs no file at run time; a build
 * without it (the fuzz targets) reports that as the reason. */
#define _GNU_SOURCE
#include "fgload.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <event-parse.h>
#include <tracefs.h>

#include "../../harness/os/bpfwhy.h"

#ifdef FG_BPF_OBJ
__asm__(".pushsection .rodata\n.balign 8\n.globl fg_obj_start\n.hidden fg_obj_start\n"
	"fg_obj_start:\n.incbin \"" FG_BPF_OBJ "\"\n.globl fg_obj_end\n.hidden fg_obj_end\n"
	"fg_obj_end:\n.popsection\n");
extern const char fg_obj_start[], fg_obj_end[];
#endif

static struct {
	int tried, rc;
	char why[256];
	struct bpf_object *obj;
	struct bpf_link *link;
	struct bpf_map *tids;
	struct fg_slot *slots;
	struct fg_count *count;
	int watched[FG_MAX_THREADS]; /* tid per slot, 0 when none */
	char first[160];	     /* libbpf's first warning (what failed first) */
	char last[352];		     /* the first and the last (the verifier's verdict) */
} fg;

static int fg_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[160];

	if (level != LIBBPF_WARN)
		return 0;
	if (getenv("SLICEBENCH_BPF_LOG")) { /* the whole text, the verifier's log too */
		va_list cp;

		va_copy(cp, ap);
		vfprintf(stderr, fmt, cp);
		va_end(cp);
	}
	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = 0;
	if (!*line)
		return 0;
	if (!*fg.first)
		snprintf(fg.first, sizeof(fg.first), "%s", line);
	if (strcmp(fg.first, line))
		snprintf(fg.last, sizeof(fg.last), "%s ... %s", fg.first, line);
	else
		snprintf(fg.last, sizeof(fg.last), "%s", line);
	return 0;
}

/* The offsets the program reads against the running kernel's format; 0
 * when they agree or the format cannot be read (the attach then fails
 * with its own reason). */
static int fg_check_format(char *detail, size_t len)
{
	const char *sys[] = { "sched", NULL };
	struct tep_handle *tep = tracefs_local_events_system(NULL, sys);
	static const struct { const char *name; int off; } want[] = {
		{ "prev_pid", 24 }, { "next_pid", 56 } };
	int bad = 0;

	if (!tep)
		return 0;
	struct tep_event *e = tep_find_event_by_name(tep, "sched", "sched_switch");

	for (size_t i = 0; e && i < sizeof(want) / sizeof(want[0]) && !bad; i++) {
		struct tep_format_field *fl = tep_find_field(e, want[i].name);

		if (!fl || fl->offset != want[i].off || fl->size != 4) {
			snprintf(detail, len, "%s at offset %d size %d, the program reads offset "
				 "%d size 4", want[i].name, fl ? fl->offset : -1,
				 fl ? fl->size : 0, want[i].off);
			bad = 1;
		}
	}
	tep_free(tep);
	return bad;
}

static void *fg_map_mmap(const char *name, size_t size)
{
	struct bpf_map *m = bpf_object__find_map_by_name(fg.obj, name);
	void *p = m ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(m), 0)
		    : MAP_FAILED;

	if (!m)
		errno = ENOENT;
	return p == MAP_FAILED ? NULL : p;
}

static int fg_load(struct bpf_facts *f)
{
#ifndef FG_BPF_OBJ
	f->step = BS_BUILD;
	return -1;
#else
	char detail[160] = "";
	int rc;

	libbpf_set_print(fg_print);
	fg.obj = bpf_object__open_mem(fg_obj_start, (size_t)(fg_obj_end - fg_obj_start), NULL);
	if (!fg.obj) {
		f->step = BS_OPEN;
		f->err = errno;
		return -1;
	}
	if ((rc = bpf_object__load(fg.obj))) {
		f->step = BS_LOAD;
		f->err = -rc;
		f->detail = *fg.last ? fg.last : NULL;
		return -1;
	}
	fg.slots = fg_map_mmap("fg_slots", FG_MAX_THREADS * sizeof(struct fg_slot));
	fg.count = fg.slots ? fg_map_mmap("fg_count", 4096) : NULL;
	if (!fg.count) {
		f->step = BS_MMAP;
		f->err = errno;
		return -1;
	}
	/* The program skips other processes' outgoing tasks by tgid. */
	fg.count->tgid = (__u32)getpid();
	if (fg_check_format(detail, sizeof(detail))) {
		snprintf(fg.last, sizeof(fg.last), "%s", detail);
		f->step = BS_FORMAT;
		f->detail = fg.last;
		return -1;
	}
	fg.tids = bpf_object__find_map_by_name(fg.obj, "fg_tids");
	fg.link = bpf_program__attach(bpf_object__find_program_by_name(fg.obj, "fg_switch"));
	if (!fg.link) {
		f->step = BS_ATTACH;
		f->err = errno;
		return -1;
	}
	return 0;
#endif
}

int fgb_open(char *why, size_t len)
{
	if (!fg.tried) {
		struct bpf_facts f = { 0 };

		fg.tried = 1;
		fg.rc = 0;
		fg.why[0] = 0;
		if (fg_load(&f)) {
			bpf_facts_read(&f);
			fg.rc = bpf_why(&f, fg.why, sizeof(fg.why));
			fgb_close();
			fg.tried = 1;
		}
	}
	snprintf(why, len, "%s", fg.why);
	return fg.rc;
}

void fgb_close(void)
{
	if (fg.count)
		munmap(fg.count, 4096);
	if (fg.slots)
		munmap(fg.slots, FG_MAX_THREADS * sizeof(struct fg_slot));
	bpf_link__destroy(fg.link);
	bpf_object__close(fg.obj);
	fg.link = NULL;
	fg.obj = NULL;
	fg.slots = NULL;
	fg.count = NULL;
	fg.tids = NULL;
	fg.tried = 0;
	memset(fg.watched, 0, sizeof(fg.watched));
}

struct fg_count *fgb_count(void)
{
	return fg.count;
}

struct fg_slot *fgb_slot(unsigned i)
{
	return fg.slots && i < FG_MAX_THREADS ? &fg.slots[i] : NULL;
}

int fgb_watch(unsigned i, int tid)
{
	__u32 k = (__u32)tid, v = i;

	if (!fg.tids || i >= FG_MAX_THREADS || tid <= 0)
		return -EINVAL;
	fg.slots[i].crit = 0;
	if (bpf_map__update_elem(fg.tids, &k, sizeof(k), &v, sizeof(v), BPF_ANY))
		return -errno;
	fg.watched[i] = tid;
	return 0;
}

void fgb_unwatch_all(void)
{
	for (unsigned i = 0; fg.tids && i < FG_MAX_THREADS; i++) {
		__u32 k = (__u32)fg.watched[i];

		if (!k)
			continue;
		bpf_map__delete_elem(fg.tids, &k, sizeof(k), 0);
		fg.watched[i] = 0;
		fg.slots[i].crit = 0;
	}
}
