/* keys.h - one table per option: name, type, default, range, unit, help.
 * Config validation, `run --help`, `list` and docs/manual.md's key table all
 * read it. */
#ifndef SB_KEYS_H
#define SB_KEYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

enum key_type {
	KT_INT,	    /* JSON integer in [min, max] */
	KT_NUM,	    /* JSON number in [min, max] */
	KT_STR,	    /* JSON string, checked by the owner */
	KT_THREADS, /* integer, or "Nx" = N times the PUs the pin policy uses */
	KT_LIST,    /* JSON list of strings, taken whole (never swept) */
	KT_OBJ,	    /* null, or an object of the keys in .sub (defaults filled in) */
	KT_BOOL,    /* true or false */
	KT_ENUM,    /* JSON string, one of .values */
};

struct key_desc {
	const char *name;
	enum key_type type;
	const char *def; /* JSON text of the default */
	double min, max;
	const char *unit;
	const char *help;
	const struct key_desc *sub; /* KT_OBJ: its keys */
	/* Binding (fio's .off1): a KT_INT key with size 4 or 8 is stored at
	 * base + off by key_bind(); size 0 leaves it to its reader. */
	size_t off;
	unsigned size;
	/* The owner's check of one value (a KT_STR's grammar), NULL none:
	 * 0, or -1 with the message; the config loader names the key. */
	int (*check)(const json_t *v, char *msg, size_t len);
	/* KT_ENUM: the allowed values, NULL-terminated (the only list of them). */
	const char *const *values;
};

/* The most repetitions of one run (repetitions, repetitions_max); the
 * readers of results size their arrays from it. */
#define KEY_REPETITIONS_MAX 1000

/* A key bound to field f of struct type s. */
#define KEY_FIELD(s, f) .off = offsetof(s, f), .size = sizeof(((s *)0)->f)
/* A key named after the field f of struct type s it is bound to, so name
 * and field are spelled once and cannot disagree:
 * KEY_BOUND(s, f, type, def, min, max, unit, help[, .check = ...]). */
#define KEY_BOUND(s, f, ...) { #f, __VA_ARGS__, KEY_FIELD(s, f) }

/* A run's keys, typed: filled from its resolved parameters once by
 * run_params_parse(), through the .off binding of run_keys. */
struct victim_params {
	int64_t threads; /* 0: no victim */
	int64_t interval_us, priority;
	const char *policy;
};

struct run_params {
	const json_t *threads; /* an integer, or "Nx" (N per PU of the pin set) */
	int64_t cs_ns, think_ns, cachelines, noise, repetitions, sample_every, slice_ext_nsec;
	int64_t slice_trace, noise_busy_ns, noise_sleep_ns, fault_pages, holder_trace_us;
	double duration_s, warmup_s, timeout_s, ci_target_pct, check_margin_pct;
	int64_t repetitions_max;
	const char *workload, *lock, *policy, *pin, *loop, *keep, *fault_mem;
	const json_t *events;
	struct victim_params victim;
};

/* Keys every run has; each may be a scalar or a list to sweep. */
extern const struct key_desc run_keys[];
/* The suite's top-level keys that take a value (interleave, seed); name,
 * description, defaults and runs are its structure (config.c). */
extern const struct key_desc suite_opts[];
/* The keys of a run's "victim" object (latency probe). */
extern const struct key_desc victim_keys[];

const struct key_desc *key_find(const struct key_desc *tab, const char *name);
/* Checks one scalar value against its descriptor; on error fills msg. */
int key_check(const struct key_desc *k, const json_t *v, char *msg, size_t len);
/* The closest name in the tables (edit distance <= 3), or NULL. */
const char *key_suggest(const char *name, const struct key_desc *const *tabs, size_t ntabs);
void key_print_table(FILE *f, const struct key_desc *tab);
json_t *key_default(const struct key_desc *k);
/* Every key of tab and then of more (may be NULL) at its default: a run's
 * parameters before any is chosen (new reference). */
json_t *key_defaults(const struct key_desc *tab, const struct key_desc *more);
/* A KT_OBJ value with its defaults filled in (new reference; null stays). */
json_t *key_complete_obj(const struct key_desc *k, const json_t *v);
/* Stores the bound keys of tab from params (every key resolved) at base:
 * KT_INT as an int of .size, KT_NUM as a double, KT_STR and KT_ENUM as a
 * const char *, KT_THREADS and KT_LIST as a const json_t *, KT_OBJ's .sub
 * keys into the struct at .off (left zeroed when the value is null).
 * Strings and JSON point into params. */
void key_bind(const struct key_desc *tab, const json_t *params, void *base);
/* The typed parameters of one run (params: every key resolved). */
void run_params_parse(const json_t *params, struct run_params *p);
/* The index of s in k->values (a KT_ENUM), or -1. */
int key_enum_index(const struct key_desc *k, const char *s);
/* One markdown table row per key (docs/manual.md's key table). */
void key_print_markdown(FILE *f, const struct key_desc *tab, const char *scope);

#endif
