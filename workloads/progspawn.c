/* progspawn.c - see progspawn.h. */
#define _GNU_SOURCE
#include "progspawn.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../harness/os/reap.h"
#include "../harness/os/signals.h"
#include "../harness/os/timing.h"
#include "../harness/os/topo.h"
#include "../harness/lib/status.h"

extern char **environ;

#define TUNABLE "glibc.pthread.rseq=0"
#define LIBNAME "libslicepreload.so"

/* s with every {name} replaced: the few values a command line needs. */
static char *subst(const char *s, unsigned threads, unsigned pus, double dur)
{
	static const char *const names[] = { "{threads}", "{pus}", "{duration_s}" };
	char vals[3][32];
	size_t cap = strlen(s) * 4 + 64, n = 0;
	char *o = malloc(cap);

	snprintf(vals[0], sizeof(vals[0]), "%u", threads);
	snprintf(vals[1], sizeof(vals[1]), "%u", pus);
	snprintf(vals[2], sizeof(vals[2]), "%g", dur);
	while (o && *s) {
		int hit = -1;

		for (int i = 0; i < 3 && hit < 0; i++)
			if (!strncmp(s, names[i], strlen(names[i])))
				hit = i;
		const char *add = hit >= 0 ? vals[hit] : s;
		size_t l = hit >= 0 ? strlen(add) : 1;

		if (n + l + 1 > cap && !(o = realloc(o, cap = (n + l + 1) * 2)))
			return NULL;
		memcpy(o + n, add, l);
		n += l;
		s += hit >= 0 ? strlen(names[hit]) : 1;
	}
	if (o)
		o[n] = 0;
	return o;
}

static char **argv_of(const json_t *list, const struct ps_job *j, double dur)
{
	size_t n = json_array_size(list);
	char **a = calloc(n + 1, sizeof(*a));

	for (size_t i = 0; a && i < n; i++)
		a[i] = subst(json_string_value(json_array_get(list, i)), j->nthreads, j->ncpus, dur);
	return a;
}

static void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* The harness's environment without what made it what it is: its own
 * GLIBC_TUNABLES for rseq (a program runs with glibc's registration as it
 * would anywhere; the library turns it off itself), a preload and the
 * library's variables.  extra (NULL-terminated) is appended. */
static char **env_of(char *const *extra)
{
	size_t n = 0, k = 0;

	while (environ[n])
		n++;
	for (size_t i = 0; extra && extra[i]; i++)
		n++;
	char **e = calloc(n + 1, sizeof(*e));

	for (size_t i = 0; e && environ[i]; i++) {
		const char *v = environ[i];

		if (!strncmp(v, "LD_PRELOAD=", 11) || !strncmp(v, "SLICEBENCH_PRELOAD_", 19))
			continue;
		if (!strncmp(v, "GLIBC_TUNABLES=", 15) && strstr(v, TUNABLE)) {
			char *t = strdup(v), *at = strstr(t, TUNABLE);
			size_t tl = strlen(TUNABLE);

			/* drop the item and one separator beside it */
			if (at[tl] == ':')
				tl++;
			else if (at > t + 15 && at[-1] == ':')
				at--, tl++;
			memmove(at, at + tl, strlen(at + tl) + 1);
			if (!strcmp(t, "GLIBC_TUNABLES=")) {
				free(t);
				continue;
			}
			e[k++] = t;
			continue;
		}
		e[k++] = strdup(v);
	}
	for (size_t i = 0; e && extra && extra[i]; i++)
		e[k++] = strdup(extra[i]);
	return e;
}

/* The library beside the harness binary (build/, or the guest's /bin),
 * unless SLICEBENCH_PRELOAD_LIB names it. */
static char *find_lib(char *err, size_t len)
{
	const char *env = getenv("SLICEBENCH_PRELOAD_LIB");
	char exe[PATH_MAX], *path;
	ssize_t n;

	if (env && *env)
		path = strdup(env);
	else if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) > 0) {
		exe[n] = 0;
		if (asprintf(&path, "%s/%s", dirname(exe), LIBNAME) < 0)
			path = NULL;
	} else {
		path = NULL;
	}
	if (path && access(path, R_OK)) {
		snprintf(err, len, "preload library %s: %s (build it with make, or set "
			 "SLICEBENCH_PRELOAD_LIB)", path, strerror(errno));
		free(path);
		return NULL;
	}
	if (!path)
		snprintf(err, len, "preload library: cannot locate the harness binary");
	return path;
}

/* What execvpe would run for argv0, checked before anything starts.  A
 * program this machine lacks (or cannot execute) is a missing feature, as
 * a kernel without the extension is: the run is "unsupported" with this
 * reason.  The config loader cannot decide it, since one config is
 * checked on a host and run in a guest that has other programs. */
static int missing(const char *what, const char *argv0, char *why, size_t len)
{
	struct stat st;

	if (!strchr(argv0, '/')) {
		const char *path = getenv("PATH");
		char *dirs = strdup(path ? path : "/bin:/usr/bin"), *rest = dirs, *d, *f;
		int found = 0;

		/* glibc's execvpe without PATH: /bin:/usr/bin; "" is the
		 * working directory */
		while (!found && dirs && (d = strsep(&rest, ":"))) {
			if (asprintf(&f, "%s/%s", *d ? d : ".", argv0) < 0)
				break;
			found = !stat(f, &st) && S_ISREG(st.st_mode) && !access(f, X_OK);
			free(f);
		}
		free(dirs);
		if (!found)
			snprintf(why, len, "%s: \"%s\" is not found in PATH (%s)", what, argv0,
				 path ? path : "unset: /bin:/usr/bin");
		return !found;
	}
	if (stat(argv0, &st))
		snprintf(why, len, "%s: %s: %s", what, argv0, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		snprintf(why, len, "%s: %s: a directory, not a program", what, argv0);
	else if (access(argv0, X_OK))
		snprintf(why, len, "%s: %s: not executable (%s)", what, argv0, strerror(errno));
	else
		return 0;
	return 1;
}

int ps_prepare(struct ps_job *j, const struct run_params *p, const json_t *command,
	       const json_t *server, int into_server, char *err, size_t len)
{
	unsigned npus;

	if (topo_pin_pus(p->pin, &npus, err, len))
		return -1;
	j->nthreads = json_is_integer(p->threads) ? (unsigned)json_integer_value(p->threads)
						  : (unsigned)atoi(json_string_value(p->threads)) * npus;
	int *cpu = calloc(j->nthreads, sizeof(*cpu));

	j->cpus = calloc(j->nthreads, sizeof(*j->cpus));
	if (!cpu || !j->cpus || topo_assign(p->pin, j->nthreads, cpu, err, len)) {
		free(cpu);
		return -1;
	}
	CPU_ZERO(&j->mask);
	for (unsigned i = 0; i < j->nthreads; i++) {
		if (cpu[i] < 0) {
			j->ncpus = 0; /* pin none: the scheduler places everything */
			break;
		}
		if (!CPU_ISSET((unsigned)cpu[i], &j->mask))
			j->cpus[j->ncpus++] = cpu[i];
		CPU_SET((unsigned)cpu[i], &j->mask);
	}
	free(cpu);
	j->into_server = into_server;
	j->cmd = argv_of(command, j, p->duration_s);
	j->srv = json_array_size(server) ? argv_of(server, j, p->duration_s) : NULL;
	if (!j->cmd || (json_array_size(server) && !j->srv)) {
		snprintf(err, len, "out of memory for the command line");
		return -1;
	}
	if ((j->srv && missing("server", j->srv[0], err, len)) ||
	    missing("command", j->cmd[0], err, len))
		return -2;
	/* The run process's pid in the name: a run the watchdog kills cannot
	 * remove its directory, and its parent does (reap_scratch). */
	if (snprintf(j->dir, sizeof(j->dir), REAP_SCRATCH_FMT "XXXXXX", (int)getpid()) < 0 ||
	    !mkdtemp(j->dir)) {
		snprintf(err, len, "mkdtemp %s: %s", j->dir, strerror(errno));
		j->dir[0] = 0;
		return -1;
	}
	j->env_plain = env_of(NULL);
	if (j->placement) {
		if (!(j->lib = find_lib(err, len)))
			return -1;
		char pre[PATH_MAX + 16], pl[64], dry[32], st[128];
		char *extra[] = { pre, pl, dry, st, NULL };

		snprintf(pre, sizeof(pre), "LD_PRELOAD=%s", j->lib);
		snprintf(pl, sizeof(pl), "SLICEBENCH_PRELOAD_PLACEMENT=%s", j->placement);
		snprintf(dry, sizeof(dry), "SLICEBENCH_PRELOAD_DRY=%d", j->dry);
		snprintf(st, sizeof(st), "SLICEBENCH_PRELOAD_STATS=%s/stats.json", j->dir);
		j->env_lib = env_of(extra);
	}
	return 0;
}

/* Between fork and exec only system calls: the harness has threads. */
static pid_t spawn(const struct ps_job *j, char **argv, char **envp, const char *out,
		   const char *errf)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* a watchdog's kill takes them along */
	if (j->ncpus)
		sched_setaffinity(0, sizeof(j->mask), &j->mask);
	int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int e = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (o < 0 || e < 0)
		_exit(126);
	dup2(o, 1);
	dup2(e, 2);
	int devnull = open("/dev/null", O_RDONLY);

	if (devnull >= 0)
		dup2(devnull, 0);
	execvpe(argv[0], argv, envp);
	dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int status_of(int st)
{
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return strdup("");
	do {
		if (n + 4096 + 1 > cap && !(buf = realloc(buf, cap = (n + 4096 + 1) * 2)))
			break;
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got);
	fclose(f);
	if (!buf)
		return strdup("");
	/* A NUL byte would end the text for the metric and the reason: it
	 * counts as a line end, so what follows it is read too. */
	for (size_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = '\n';
	buf[n] = 0;
	return buf;
}

/* The last non-empty line of a file, for a failure's reason. */
static void last_line(const char *path, char *buf, size_t len)
{
	char *s = slurp(path), *end = s + strlen(s);

	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		*--end = 0;
	char *nl = strrchr(s, '\n');

	snprintf(buf, len, "%s", *s ? (nl ? nl + 1 : s) : "(no output on stderr)");
	free(s);
}

/* SIGTERM, then SIGKILL after 10 s: a server that ignores the first still
 * leaves no process behind (the library's stats then stay unwritten). */
static int stop(pid_t pid)
{
	int st = 0;

	kill(pid, SIGTERM);
	for (int i = 0; i < 1000; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return status_of(st);
		tm_sleep_ns(10000000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return status_of(st);
}

int ps_rep(const struct ps_job *j, double warmup_s, struct ps_result *r, char *err, size_t len)
{
	char out[128], cerr[128], sout[128], serr[128], stats[128], line[256];
	pid_t srv = 0;
	int st, sst = 0;

	memset(r, 0, sizeof(*r));
	snprintf(out, sizeof(out), "%s/command.out", j->dir);
	snprintf(cerr, sizeof(cerr), "%s/command.err", j->dir);
	snprintf(sout, sizeof(sout), "%s/server.out", j->dir);
	snprintf(serr, sizeof(serr), "%s/server.err", j->dir);
	snprintf(stats, sizeof(stats), "%s/stats.json", j->dir);
	unlink(stats);
	char **cenv = j->lib && !j->into_server ? j->env_lib : j->env_plain;

	if (j->srv) {
		srv = spawn(j, j->srv, j->lib && j->into_server ? j->env_lib : j->env_plain, sout,
			    serr);
		if (srv < 0) {
			snprintf(err, len, "fork for the server: %s", strerror(errno));
			return -1;
		}
		if (sig_sleep_ns((uint64_t)(warmup_s * 1e9))) {
			snprintf(err, len, "stopped by a signal");
			stop(srv);
			return -1;
		}
		if (waitpid(srv, &st, WNOHANG) == srv) {
			last_line(serr, line, sizeof(line));
			srv = 0;
			r->exit_status = status_of(st);
			goto library;
		}
	}
	uint64_t t0 = tm_now_ns();
	pid_t cmd = spawn(j, j->cmd, cenv, out, cerr);

	if (cmd < 0 || waitpid(cmd, &st, 0) != cmd) {
		snprintf(err, len, "running %s: %s", j->cmd[0], strerror(errno));
		if (srv)
			stop(srv);
		return -1;
	}
	r->wall_s = (double)(tm_now_ns() - t0) / 1e9;
	r->exit_status = status_of(st);
	/* A server that ended by itself served nothing (it exited at once,
	 * or crashed while the command ran): the repetition measured
	 * something else. */
	if (srv && waitpid(srv, &sst, WNOHANG) == srv) {
		last_line(serr, line, sizeof(line));
		snprintf(err, len, "server %s exited with status %d before the command ended: %s",
			 j->srv[0], status_of(sst), line);
		return -1;
	}
	sst = srv ? stop(srv) : 0;

	r->out = slurp(out);
	r->err = slurp(cerr);
library:
	if (j->lib) {
		json_error_t je;

		r->stats = json_load_file(stats, 0, &je);
		const char *s = json_string_value(json_object_get(r->stats, "status"));

		if (s && rs_is(s, RS_UNSUPPORTED)) {
			r->unsupported = 1;
			snprintf(r->reason, sizeof(r->reason), "%s",
				 json_string_value(json_object_get(r->stats, "reason")));
			return 0;
		}
	}
	if (!r->out) {
		snprintf(err, len, "server %s exited with status %d before the command ran: %s",
			 j->srv[0], r->exit_status, line);
		return -1;
	}
	if (r->exit_status) {
		last_line(cerr, line, sizeof(line));
		snprintf(err, len, "%s exited with status %d: %s", j->cmd[0], r->exit_status, line);
		return -1;
	}
	if (j->lib && !r->stats) {
		snprintf(err, len, "the preload library wrote no counts (%s ended with status %d)",
			 j->into_server ? j->srv[0] : j->cmd[0],
			 j->into_server ? sst : r->exit_status);
		return -1;
	}
	return 0;
}

void ps_result_free(struct ps_result *r)
{
	free(r->out);
	free(r->err);
	json_decref(r->stats);
	memset(r, 0, sizeof(*r));
}

void ps_free(struct ps_job *j)
{
	static const char *const files[] = { "command.out", "command.err", "server.out",
					     "server.err", "stats.json", "stats.json.lock" };
	char path[128];

	for (size_t i = 0; j->dir[0] && i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", j->dir, files[i]);
		unlink(path);
	}
	if (j->dir[0])
		rmdir(j->dir);
	strv_free(j->cmd);
	strv_free(j->srv);
	strv_free(j->env_plain);
	strv_free(j->env_lib);
	free(j->lib);
	free(j->cpus);
}
