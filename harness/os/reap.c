/* reap.c - see reap.h.  The children are found in /proc (the PPid of
 * /proc/PID/stat): /proc/PID/task/TID/children needs CONFIG_PROC_CHILDREN,
 * which not every kernel has. */
#define _GNU_SOURCE
#include "reap.h"

#include <ctype.h>
#include <limits.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

/* The run processes alive: one, or the arms of an interleaved point. */
static pid_t *tracked;
static size_t ntracked, cap;

int reap_scratch(pid_t pid)
{
	char pre[64];
	DIR *d = opendir("/tmp");
	struct dirent *e;
	int n = 0;

	snprintf(pre, sizeof(pre), REAP_SCRATCH_FMT, (int)pid);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char dir[PATH_MAX];

		if (strncmp(e->d_name, pre + 5, strlen(pre + 5)))
			continue;
		snprintf(dir, sizeof(dir), "/tmp/%s", e->d_name);
		/* flat: the program's outputs and the stats file, no subdirectory */
		DIR *s = opendir(dir);
		struct dirent *f;

		while (s && (f = readdir(s))) {
			char path[PATH_MAX + 256];

			if (strcmp(f->d_name, ".") && strcmp(f->d_name, "..")) {
				snprintf(path, sizeof(path), "%s/%s", dir, f->d_name);
				unlink(path);
			}
		}
		if (s)
			closedir(s);
		n += rmdir(dir) == 0;
	}
	closedir(d);
	return n;
}

int reap_trace_instances(void)
{
	char **names = tracefs_instances("^slicebench-");
	int n = 0;

	for (size_t i = 0; names && names[i]; i++) {
		const char *dash = strrchr(names[i], '-');
		int pid = dash ? atoi(dash + 1) : 0;

		if (pid <= 0 || !kill(pid, 0) || errno != ESRCH)
			continue;
		struct tracefs_instance *old = tracefs_instance_alloc(NULL, names[i]);

		if (old) {
			n += tracefs_instance_destroy(old) == 0;
			tracefs_instance_free(old);
		}
	}
	tracefs_list_free(names);
	return n;
}

int reap_become(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1) ? -errno : 0;
}

void reap_track(pid_t pid)
{
	if (ntracked == cap) {
		pid_t *t = realloc(tracked, (cap = cap ? cap * 2 : 16) * sizeof(*t));

		if (!t)
			abort();
		tracked = t;
	}
	tracked[ntracked++] = pid;
}

void reap_untrack(pid_t pid)
{
	for (size_t i = 0; i < ntracked; i++)
		if (tracked[i] == pid) {
			tracked[i] = tracked[--ntracked];
			return;
		}
}

static int is_tracked(pid_t pid)
{
	for (size_t i = 0; i < ntracked; i++)
		if (tracked[i] == pid)
			return 1;
	return 0;
}

/* The parent of pid from /proc/PID/stat ("pid (comm) state ppid ..."; comm
 * may hold spaces and parentheses: read after the last ')'), or -1. */
static pid_t ppid_of(const char *pid)
{
	char path[64], buf[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (!(f = fopen(path, "r")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	int ppid;

	return p && sscanf(p + 1, " %*c %d", &ppid) == 1 ? ppid : -1;
}

/* One pass: kill the untracked children, then wait for each. */
static int pass(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid(), *kids = NULL;
	size_t n = 0, kcap = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]) || ppid_of(e->d_name) != self)
			continue;
		pid_t pid = (pid_t)atoi(e->d_name);

		if (is_tracked(pid))
			continue;
		if (n == kcap) {
			pid_t *k = realloc(kids, (kcap = kcap ? kcap * 2 : 16) * sizeof(*k));

			if (!k)
				break;
			kids = k;
		}
		kill(pid, SIGKILL);
		kids[n++] = pid;
	}
	closedir(d);
	for (size_t i = 0; i < n; i++)
		while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
			;
	free(kids);
	return (int)n;
}

int reap_orphans(void)
{
	int total = 0, n;

	/* A process forking faster than the passes kill is still bounded:
	 * every pass kills all it finds, and a killed process forks no more. */
	for (int i = 0; i < 1000 && (n = pass()) > 0; i++)
		total += n;
	return total;
}
