/* config.h - suite configs (JSON): validation and expansion into runs. */
#ifndef SB_CONFIG_H
#define SB_CONFIG_H

#include <stddef.h>

#include <jansson.h>

#include "../core/keys.h"
#include "../core/workload.h"
#include "cfgerr.h"

struct cfg_run {
	const struct workload_ops *ops;
	json_t *params; /* every key resolved to one value: the result's "params" */
	/* The same, typed once at load (run_params_parse): what the suite,
	 * the watchdog and the run read; its strings and JSON point into
	 * params. */
	struct run_params p;
	const char *label;
};

struct cfg_suite {
	json_t *root; /* the file as parsed, for the result's "config" */
	struct cfg_run *runs;
	size_t nruns;
	json_t *seen; /* while expanding: the points so far, each run once */
	int interleave; /* the suite's "interleave" (interleave.h) */
	unsigned long seed; /* its "seed": 0 = one from the clock */
};

/* The most run points a suite may expand to: far beyond what runs in a
 * day (a point takes at least warmup + duration + a fork), and a bound on
 * the memory a typo in a sweep can claim (~3 KB a point). */
#define CFG_MAX_RUNS 100000

/* 0, or -1 with err as "FILE:LINE:COL: ..." (syntax) or "FILE: KEY.PATH: ..." */
int cfg_load(const char *path, struct cfg_suite *s, char *err, size_t len);
/* The same from memory (the fuzzer's entry); name stands for the file. */
int cfg_load_buffer(const char *name, const char *buf, size_t n, struct cfg_suite *s, char *err,
		    size_t len);
/* The same from a config object built in memory (run's flags): name
 * stands for the file in messages; the suite takes a reference. */
int cfg_load_json(const char *name, json_t *root, struct cfg_suite *s, char *err, size_t len);
void cfg_free(struct cfg_suite *s);
/* 1 for the run keys that choose what runs (workload, lock, policy, dry),
 * not how: the keys in which the arms of one point differ. */
int cfg_is_selector(const char *name);
/* Suite-level keys, for run --help (the manual's table is catalog.c's). */
void cfg_print_keys(FILE *f);

#endif
