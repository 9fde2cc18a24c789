/* plan.h - cluster plans (configs/plans/NAME.json): validation and expansion
 * into jobs.  One job = one config on one kernel on one machine class,
 * writing one result JSON; scripts/slurm.sh runs them as Slurm array tasks. */
#ifndef SB_PLAN_H
#define SB_PLAN_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

struct plan_machine {
	const char *name;
	const char *constraint; /* sbatch --constraint, "" = any node */
	const char *partition;	/* "" = the plan's partition */
};

struct plan_job {
	size_t id; /* the array task id and the result's file name */
	const char *config, *kernel;
	const struct plan_machine *machine;
	int rep; /* 1-based */
};

struct plan {
	json_t *root;
	const char *name, *partition;
	int time_min, max_parallel;
	json_t *sbatch_args, *vm_args; /* lists of strings */
	json_t *kernel_list;
	char base[256]; /* the file name without .json: the default name */
	struct plan_machine *machines;
	size_t nmachines;
	struct plan_job *jobs;
	size_t njobs;
	size_t nconfigs, nkernels;
	int reps;
};

/* 0, or -1 with err as "FILE:LINE:COL: ..." (syntax) or "FILE: KEY.PATH: ...".
 * Every config the plan names is loaded and validated too. */
int plan_load(const char *path, struct plan *p, char *err, size_t len);
void plan_free(struct plan *p);
/* The plan keys, for plan --help. */
void plan_print_keys(FILE *f);
/* slicebench plan PLAN.json [--dry-run] [--tsv] [--results DIR] */
int cmd_plan(int argc, char **argv);

#endif
