/* keys.c - the run key table and generic checking against it. */
#include "keys.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../os/counters.h"
#include "../os/faultcs.h"
#include "../os/knobs.h"
#include "../os/topo.h"
#include "workload.h"

#define VICTIM_KEY(...) KEY_BOUND(struct victim_params, __VA_ARGS__)
#define RUN_KEY(...) KEY_BOUND(struct run_params, __VA_ARGS__)

static const char *const victim_policies[] = { "other", "fifo", NULL };
/* Indexed by enum wl_loop_kind. */
static const char *const loop_kinds[LOOP_KINDS + 1] = {
	[LOOP_SAMPLED] = "sampled", [LOOP_BARE] = "bare", [LOOP_EVERY] = "every", NULL
};
static const char *const keep_modes[] = { "all", "summary", NULL };

static int check_pin(const json_t *v, char *msg, size_t len)
{
	return topo_check_pin(json_string_value(v), msg, len);
}

static int check_slice_ext(const json_t *v, char *msg, size_t len)
{
	json_int_t n = json_integer_value(v);

	if (!n || n >= SLICE_EXT_NSEC_MIN)
		return 0;
	snprintf(msg, len, "%lld is below the kernel's %d ns minimum (0 = leave as is)",
		 (long long)n, SLICE_EXT_NSEC_MIN);
	return -1;
}

const struct key_desc victim_keys[] = {
	VICTIM_KEY(threads, KT_INT, "1", 1, 64, "threads",
		   "latency probe threads (on the lock threads' PUs)"),
	VICTIM_KEY(interval_us, KT_INT, "1000", 10, 1000000, "us", "absolute-time sleep period"),
	VICTIM_KEY(policy, KT_ENUM, "\"other\"", 0, 0, "", "other (SCHED_OTHER) | fifo (SCHED_FIFO)",
		   .values = victim_policies),
	VICTIM_KEY(priority, KT_INT, "1", 1, 99, "", "SCHED_FIFO priority (policy fifo only)"),
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

/* Unbound: config.c reads them into struct cfg_suite. */
const struct key_desc suite_opts[] = {
	{ "interleave", KT_BOOL, "false", 0, 0, "",
	  "true: the arms of each point (its runs equal in every run key but workload, lock, "
	  "policy and dry) take turns, one repetition each per round, in an order shuffled "
	  "from seed (see Interleaved arms)" },
	/* Below 2^32, what mt19937 uses of gsl_rng_set's seed; 1e9 is a round
	 * bound that prints exactly in the manual's %g ranges. */
	{ "seed", KT_INT, "0", 0, 1e9, "",
	  "seed of the interleaved order (GSL mt19937); 0 = one from the clock, recorded in "
	  "meta.interleave.seed" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

const struct key_desc run_keys[] = {
	RUN_KEY(workload, KT_STR, "\"spin-tas\"", 0, 0, "",
		"workload: an alias or LOCK+POLICY[+dry] (see `slicebench list`)"),
	RUN_KEY(lock, KT_STR, "null", 0, 0, "",
		"lock algorithm, replacing the workload's (null = keep it)"),
	RUN_KEY(policy, KT_STR, "null", 0, 0, "",
		"waiting policy, replacing the workload's: " SB_POLICIES(SB_POL_ALT, )
		"null (keep it)"),
	{ "dry", KT_BOOL, "null", 0, 0, "",
	  "true: the requests go to an area the kernel never reads, the control (null = the "
	  "workload's)" },
	RUN_KEY(threads, KT_THREADS, "2", 1, 4096, "threads",
		"lock threads; \"Nx\" means N per processing unit of the pin set"),
	RUN_KEY(cs_ns, KT_INT, "100", 0, 100000000, "ns",
		"busy work inside the critical section (calibrated loop)"),
	RUN_KEY(think_ns, KT_INT, "200", 0, 100000000, "ns", "busy work between critical sections"),
	RUN_KEY(cachelines, KT_INT, "1", 1, 4096, "lines",
		"shared cache lines written in each critical section"),
	RUN_KEY(fault_pages, KT_INT, "0", 0, 4096, "pages",
		"pages each critical section writes that are not mapped yet (one fault each), "
		"made fresh again after the release, outside the section; 0 = none"),
	RUN_KEY(fault_mem, KT_ENUM, "\"private\"", 0, 0, "",
		"fault_pages' memory: private (anonymous, MADV_DONTNEED) | shared (memfd "
		"MAP_SHARED, MADV_DONTNEED: the page stays, the fault maps it) | shared-remove "
		"(MADV_REMOVE: each fault allocates) | huge (hugetlb, else THP, mapped once: "
		"the same touches without faults)", .values = fcs_mem_names),
	RUN_KEY(holder_trace_us, KT_INT, "0", 0, 1000000, "us",
		"0 = off; else the lock threads log every hold at least this long (two rdtsc "
		"per op) and the run counts from sched_switch (tracefs) where they were "
		"switched out: holding, inside the faulting part, or waiting"),
	RUN_KEY(pin, KT_STR, "\"compact\"", 0, 0, "",
		"none | compact | scatter | oversubscribe:N | cpus:LIST", .check = check_pin),
	RUN_KEY(noise, KT_INT, "0", 0, 1024, "threads",
		"CPU hogs on the same PUs, to provoke preemption"),
	RUN_KEY(noise_sleep_ns, KT_INT, "0", 0, 1000000000, "ns",
		"0 = the noise threads spin without pause; else each spins noise_busy_ns, then "
		"sleeps this long (the kernel's rseq slice_test: 2 us on, 50 us off)"),
	RUN_KEY(noise_busy_ns, KT_INT, "2000", 0, 1000000000, "ns",
		"the noise threads' busy part per period when noise_sleep_ns > 0"),
	RUN_KEY(duration_s, KT_NUM, "1.0", 0.01, 86400, "s", "measured window per repetition"),
	RUN_KEY(warmup_s, KT_NUM, "0.2", 0, 3600, "s", "unmeasured run-in before each window"),
	RUN_KEY(repetitions, KT_INT, "3", 1, KEY_REPETITIONS_MAX, "",
		"independent repetitions (fresh threads each)"),
	RUN_KEY(ci_target_pct, KT_NUM, "0", 0, 100, "%",
		"auto repetitions: repeat until the 95% half-width of the geometric mean ops/s "
		"(on the windows' logs, as compare's ratio) is at most this share of it, from "
		"max(repetitions, 2) up to repetitions_max (0 = a fixed count)"),
	RUN_KEY(repetitions_max, KT_INT, "20", 1, KEY_REPETITIONS_MAX, "",
		"the most repetitions ci_target_pct may run"),
	RUN_KEY(check_margin_pct, KT_NUM, "0", 0, 100, "%",
		"0 = off; else a dry arm and its real arm (same lock, policy and label) of an "
		"interleaved point stop together on their A/A check: once it shows them "
		"equivalent within +-this share, or different beyond it, at doubling looks "
		"from max(repetitions, 2) to repetitions_max, each at alpha / looks "
		"(needs interleave and ci_target_pct)"),
	/* A timed op costs ~25 ns here (three rdtsc, two histogram adds):
	 * at 64 that was 3% of an uncontended 12 ns futex op, at 256 under
	 * 1%, while a 10 us section at 4 threads still gives ~800 samples a
	 * second. */
	RUN_KEY(sample_every, KT_INT, "256", 1, 1000000, "ops",
		"time one acquire/hold in this many operations"),
	RUN_KEY(loop, KT_ENUM, "\"sampled\"", 0, 0, "",
		"sampled | bare (no timing at all) | every (time every op)", .values = loop_kinds),
	RUN_KEY(events, KT_LIST,
		"[\"cycles\",\"instructions\",\"cache-misses\",\"context-switches\","
		"\"cpu-migrations\",\"task-clock\",\"sched:sched_switch\"]",
		0, CNT_MAX, "", "libpfm4 event names counted per thread in the window ([] = none)"),
	RUN_KEY(victim, KT_OBJ, "null", 0, 0, "",
		"cyclictest-style wakeup-latency probe: {threads, interval_us, policy, priority}",
		.sub = victim_keys),
	RUN_KEY(slice_ext_nsec, KT_INT, "0", 0, 1000000, "ns",
		"debugfs rseq/slice_ext_nsec for the run, restored after (0 = leave as is)",
		.check = check_slice_ext),
	RUN_KEY(slice_trace, KT_INT, "1", 0, 2, "",
		"1 = time every grant from the slice timer's tracefs events in the window "
		"(policies that request; needs tracefs and kallsyms), 2 = also keep the "
		"window's events in each repetition, 0 = off"),
	RUN_KEY(timeout_s, KT_NUM, "0", 0, 86400, "s",
		"watchdog; 0 = repetitions*(warmup+duration)+30 s"),
	RUN_KEY(keep, KT_ENUM, "\"all\"", 0, 0, "",
		"all | summary (drop per-thread arrays and histogram buckets: size flat in threads)",
		.values = keep_modes),
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

const struct key_desc *key_find(const struct key_desc *tab, const char *name)
{
	for (; tab && tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab;
	return NULL;
}

/* The shortest text that reads back as x (%.15g, else %.17g). */
static void exact_num(double x, char *buf, size_t len)
{
	snprintf(buf, len, "%.15g", x);
	if (strtod(buf, NULL) != x)
		snprintf(buf, len, "%.17g", x);
}


/* The JSON types each key type takes (bits of 1 << json_type) and what a
 * value of another type is told; a KT_LIST is told its size limit too, so
 * the message is a format taking k->max (the others have no conversion:
 * C11 7.21.6.1 has the extra argument evaluated and ignored). */
#define JT(t) (1u << (t))
static const struct {
	unsigned takes;
	const char *want;
} key_types[] = {
	[KT_INT] = { JT(JSON_INTEGER), "must be an integer" },
	[KT_NUM] = { JT(JSON_INTEGER) | JT(JSON_REAL), "must be a number" },
	[KT_STR] = { JT(JSON_STRING), "must be a string" },
	[KT_THREADS] = { JT(JSON_INTEGER) | JT(JSON_STRING), "must be an integer" },
	[KT_LIST] = { JT(JSON_ARRAY), "must be a list of at most %g strings" },
	[KT_OBJ] = { JT(JSON_NULL) | JT(JSON_OBJECT), "must be null or an object" },
	[KT_BOOL] = { JT(JSON_TRUE) | JT(JSON_FALSE), "must be true or false" },
	[KT_ENUM] = { JT(JSON_STRING), "must be a string" },
};

static int check_enum(const struct key_desc *k, const char *s, char *msg, size_t len)
{
	if (key_enum_index(k, s) >= 0)
		return 0;
	size_t off = (size_t)snprintf(msg, len, "\"%s\" is not one of", s);

	for (size_t i = 0; k->values[i] && off < len; i++)
		off += (size_t)snprintf(msg + off, len - off, "%s %s", i ? "," : "", k->values[i]);
	return -1;
}

/* A KT_THREADS string: "Nx", N in 1..64. */
static int check_per_pu(const char *s, char *msg, size_t len)
{
	char *end;
	/* One spelling per value: strtol alone would take " 2x", "+2x" and
	 * "02x", which never merge with "2x" or pair in compare. */
	long n = *s >= '1' && *s <= '9' ? strtol(s, &end, 10) : 0;

	if (n && !strcmp(end, "x") && n <= 64)
		return 0;
	snprintf(msg, len, "\"%s\" is not an integer or \"Nx\" with N in 1..64 "
		 "(digits only, no sign, space or leading zero)", s);
	return -1;
}

/* A KT_INT, KT_NUM or integer KT_THREADS value in [k->min, k->max]. */
static int check_range(const struct key_desc *k, const json_t *v, char *msg, size_t len)
{
	double x = json_number_value(v);

	if (x >= k->min && x <= k->max)
		return 0;
	char given[48], lo[32], hi[32];

	/* As given: 100000001 must not read as 1e+08. */
	if (json_is_integer(v))
		snprintf(given, sizeof(given), "%lld", (long long)json_integer_value(v));
	else
		exact_num(x, given, sizeof(given));
	exact_num(k->min, lo, sizeof(lo));
	exact_num(k->max, hi, sizeof(hi));
	snprintf(msg, len, "%s is out of range %s..%s%s%s", given, lo, hi, *k->unit ? " " : "",
		 k->unit);
	return -1;
}

int key_check(const struct key_desc *k, const json_t *v, char *msg, size_t len)
{
	size_t i;
	json_t *e;

	if ((size_t)k->type >= sizeof(key_types) / sizeof(key_types[0]))
		return -1;
	if (!v || !(key_types[k->type].takes & JT(json_typeof(v))) ||
	    (k->type == KT_LIST && json_array_size(v) > (size_t)k->max)) {
		snprintf(msg, len, key_types[k->type].want, k->max);
		return -1;
	}
	switch (k->type) {
	case KT_LIST: /* its size is checked with its type */
		json_array_foreach(v, i, e)
			if (!json_is_string(e)) {
				snprintf(msg, len, "element %zu must be a string", i);
				return -1;
			}
		return 0;
	case KT_ENUM:
		return check_enum(k, json_string_value(v), msg, len);
	case KT_THREADS:
		if (json_is_string(v))
			return check_per_pu(json_string_value(v), msg, len);
		/* fall through */
	case KT_INT:
	case KT_NUM:
		return check_range(k, v, msg, len);
	default:
		return 0; /* a KT_OBJ's members are checked by the config loader */
	}
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(prev));
	}
	return prev[lb];
}

const char *key_suggest(const char *name, const struct key_desc *const *tabs, size_t ntabs)
{
	const char *best = NULL;
	size_t best_d = 4;

	for (size_t t = 0; t < ntabs; t++)
		for (const struct key_desc *k = tabs[t]; k && k->name; k++) {
			size_t d = edit_distance(name, k->name);

			if (d < best_d) {
				best_d = d;
				best = k->name;
			}
		}
	return best;
}

/* "min..max" of a numeric key for --help and docs/manual.md, else "". */
static void key_range(const struct key_desc *k, char *buf, size_t len)
{
	if (k->type == KT_INT || k->type == KT_NUM || k->type == KT_THREADS)
		snprintf(buf, len, "%g..%g", k->min, k->max);
	else
		*buf = '\0';
}

void key_print_table(FILE *f, const struct key_desc *tab)
{
	for (; tab && tab->name; tab++) {
		char range[64];

		key_range(tab, range, sizeof(range));
		fprintf(f, "  %-14s %-10s %-8s %-12s %s\n", tab->name,
			tab->type == KT_LIST ? "[...]" : tab->def, tab->unit, range, tab->help);
		if (tab->sub) {
			fprintf(f, "  %s keys:\n", tab->name);
			for (const struct key_desc *s = tab->sub; s->name; s++)
				fprintf(f, "    %-12s %-10s %-8s %s\n", s->name, s->def, s->unit,
					s->help);
		}
	}
}

json_t *key_default(const struct key_desc *k)
{
	return json_loads(k->def, JSON_DECODE_ANY, NULL);
}

json_t *key_defaults(const struct key_desc *tab, const struct key_desc *more)
{
	json_t *p = json_object();

	for (const struct key_desc *t[] = { tab, more }, **tp = t; tp < t + 2; tp++)
		for (const struct key_desc *k = *tp; k && k->name; k++)
			json_object_set_new(p, k->name, key_default(k));
	return p;
}

void key_print_markdown(FILE *f, const struct key_desc *tab, const char *scope)
{
	for (; tab && tab->name; tab++) {
		char range[64];

		key_range(tab, range, sizeof(range));
		fprintf(f, "| `%s` | %s | `%s` | %s | %s | ", tab->name, scope, tab->def, tab->unit,
			range);
		for (const char *c = tab->help; *c; c++) /* a | would end the cell */
			fputs(*c == '|' ? "\\|" : (char[2]){ *c, 0 }, f);
		fputs(" |\n", f);
	}
}

void key_bind(const struct key_desc *tab, const json_t *params, void *base)
{
	for (; tab && tab->name; tab++) {
		json_t *v = json_object_get(params, tab->name);
		char *at = (char *)base + tab->off;

		if (!tab->size)
			continue;
		switch (tab->type) {
		case KT_INT:
			if (tab->size == sizeof(uint32_t))
				*(uint32_t *)at = (uint32_t)json_integer_value(v);
			else if (tab->size == sizeof(uint64_t))
				*(uint64_t *)at = (uint64_t)json_integer_value(v);
			break;
		case KT_NUM:
			*(double *)at = json_number_value(v);
			break;
		case KT_STR:
		case KT_ENUM:
			*(const char **)at = json_string_value(v);
			break;
		case KT_THREADS:
		case KT_LIST:
			*(const json_t **)at = v;
			break;
		case KT_OBJ:
			if (json_is_object(v))
				key_bind(tab->sub, v, at);
			break;
		case KT_BOOL:
			*(int *)at = json_is_true(v);
			break;
		}
	}
}

int key_enum_index(const struct key_desc *k, const char *s)
{
	for (size_t i = 0; s && k->values && k->values[i]; i++)
		if (!strcmp(k->values[i], s))
			return (int)i;
	return -1;
}

void run_params_parse(const json_t *params, struct run_params *p)
{
	memset(p, 0, sizeof(*p));
	key_bind(run_keys, params, p);
}

json_t *key_complete_obj(const struct key_desc *k, const json_t *v)
{
	if (!json_is_object(v))
		return json_null();
	json_t *o = json_deep_copy(v);

	for (const struct key_desc *s = k->sub; s && s->name; s++)
		if (!json_object_get(o, s->name))
			json_object_set_new(o, s->name, key_default(s));
	return o;
}
