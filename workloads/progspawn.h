/* progspawn.h - starting a program workload's processes: pinned, their
 * output in files, the preload library in one of them, a server stopped
 * after its client. */
#ifndef SB_PROGSPAWN_H
#define SB_PROGSPAWN_H

/* cpu_set_t: the includer defines _GNU_SOURCE first. */
#include <sched.h>
#include <stddef.h>

#include <jansson.h>

#include "../harness/core/keys.h"

struct ps_job {
	const char *placement; /* the library's placement, NULL: without it */
	int dry;
	char *lib; /* the library's path, when placement is set */
	char **cmd, **srv;
	char **env_plain, **env_lib;
	int into_server;
	unsigned nthreads, ncpus;
	int *cpus; /* the distinct PUs, ncpus of them; 0 when unpinned */
	cpu_set_t mask;
	char dir[64]; /* outputs and the stats file */
};

struct ps_result {
	char *out; /* the command's stdout */
	char *err; /* and its stderr */
	double wall_s;
	int exit_status; /* 128 + signal when killed */
	json_t *stats;	 /* the library's stats file, NULL without the library */
	int unsupported; /* the library refused: reason says why */
	char reason[512];
};

/* Resolves threads, PUs, argv substitutions, environments and the
 * library; 0, -2 when the server's or command's program is not there or
 * not executable (unsupported here), or -1, with err. */
int ps_prepare(struct ps_job *j, const struct run_params *p, const json_t *command,
	       const json_t *server, int into_server, char *err, size_t len);
/* One repetition: server (then warmup_s of run-in), command, server
 * stopped.  0 with *r filled (r->unsupported when the library refused),
 * -1 with err when a process failed. */
int ps_rep(const struct ps_job *j, double warmup_s, struct ps_result *r, char *err, size_t len);
void ps_result_free(struct ps_result *r);
void ps_free(struct ps_job *j);

#endif
