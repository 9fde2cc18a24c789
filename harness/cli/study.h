/* study.h - the studies of FINDINGS.md as data (configs/studies/NAME.json):
 * which config runs where (the guest, one boot per preemption model with
 * its kernel variant, and this host), how many boots, and the reports made
 * from the results (the --within baselines, extra metrics, the question).
 * scripts/studies.sh runs what `slicebench study --tsv` prints. */
#ifndef SB_STUDY_H
#define SB_STUDY_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* One guest boot per model: preempt=MODEL on the kernel variant. */
struct study_model {
	const char *name; /* the result's NAME-vm-<name>.json: "name", else preempt */
	const char *preempt, *variant;
};

struct study {
	json_t *root;
	char name[128]; /* the file name without .json */
	const char *config, *question; /* question: "" = none */
	int vm, host;			/* the places it runs */
	struct study_model *models;
	size_t nmodels;
	int within_vm, within_host; /* where the --within comparisons are made */
	int boots, timeout_s;
	const json_t *vm_args, *baselines, *metrics; /* lists of strings */
};

/* 0, or -1 with err as "FILE:LINE:COL: ..." (syntax) or "FILE: KEY.PATH: ...".
 * The config is loaded and validated, the question file too. */
int study_load(const char *path, struct study *st, char *err, size_t len);
void study_free(struct study *st);
/* slicebench study FILE... [--tsv] */
int cmd_study(int argc, char **argv);

#endif
