/* config.h - suite configs (JSON): validation and expansion into runs. */
#ifndef SB_CONFIG_H
#define SB_CONFIG_H

#include <stddef.h>

#include <jansson.h>

#include "../core/workload.h"

struct cfg_run {
	const struct workload_ops *ops;
	json_t *params; /* every key resolved to one value */
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
void cfg_free(struct cfg_suite *s);
/* 1 for the run keys that choose what runs (workload, lock, policy, dry),
 * not how: the keys in which the arms of one point differ. */
int cfg_is_selector(const char *name);
/* Suite-level keys, for --help and the README. */
void cfg_print_keys(FILE *f);

/* The error context of the config and plan loaders: the file's name and the
 * caller's err buffer. */
struct cfg_ctx {
	const char *file;
	char *err;
	size_t len;
};

/* Writes "FILE: PATH: message" to c->err; returns -1. */
int cfg_fail(struct cfg_ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Writes jansson's parse error as "FILE:LINE:COL: text" (or "FILE: text"
 * without a position) to c->err; returns -1. */
int cfg_fail_parse(struct cfg_ctx *c, const json_error_t *je);
/* "unknown key (did you mean "NEAR"?)" at path, with the name in tabs
 * nearest to name, else none; returns -1. */
int cfg_fail_unknown(struct cfg_ctx *c, const char *path, const char *name,
		     const struct key_desc *const *tabs, size_t ntabs, const char *none);
/* The JSON text of the regular file c->file (what names it in a message:
 * "config file"), duplicate keys rejected: a new reference, or NULL with
 * c->err as "FILE: reason" or "FILE:LINE:COL: text". */
json_t *cfg_read_json(struct cfg_ctx *c, const char *what);

#endif
