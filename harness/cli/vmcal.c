/* vmcal.c - the guest's timing floor in meta.vm.calibration and the
 * warm-up before it in meta.vm.warmup.  A floor is only worth what its
 * spread and its cross-check say: under TCG the same boot's probes can
 * differ severalfold (kernel/README.md), so every probe with repetitions
 * reports each repetition's p99 and their min/median/max, the loaded
 * SCHED_FIFO figure is held against cyclictest run beside the same load,
 * and the host's load average when the guest calibrated stands beside it. */
#define _GNU_SOURCE
#include "vmcal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/config.h"
#include "../lib/resset.h"
#include "../lib/stats.h"
#include "vmguest.h"
#include "../lib/status.h"

/* The probe the cyclictest run reproduces (configs/vm-load.json). */
#define LOADED_PROBE "loaded-fifo"

/* us rounded to 0.1 us as printf rounds (to nearest, ties to even, on the
 * exact binary value): the floor is read in tenths of a microsecond. */
static json_t *tenths(double us)
{
	char buf[512]; /* %.1f of the largest double takes 311 */

	snprintf(buf, sizeof(buf), "%.1f", us);
	return json_real(strtod(buf, NULL));
}

static double ns_value(const json_t *ns)
{
	return json_is_integer(ns) ? (double)json_integer_value(ns) : json_real_value(ns);
}

static json_t *tenths_us(const json_t *ns)
{
	return tenths(ns_value(ns) / 1000);
}

/* "p99_spread" of a probe run with several repetitions: each repetition's
 * victim p99 in us, in order, and their min, median and max (stats.c);
 * NULL when fewer than two repetitions carry one. */
static json_t *p99_spread(const json_t *reps)
{
	size_t n = json_array_size(reps), k = 0, i;
	double *x = calloc(n ? n : 1, sizeof(*x));
	json_t *each = json_array(), *rep, *o = NULL;
	struct st_summary s;

	json_array_foreach(reps, i, rep) {
		json_t *p = json_object_get(json_object_get(rep, fld_victim), fld_key(fld_victim_p99));

		if (x && json_is_number(p)) {
			x[k++] = ns_value(p) / 1000;
			json_array_append_new(each, tenths_us(p));
		}
	}
	if (x && k >= 2) {
		st_summarize(x, k, &s);
		o = json_pack("{s:I,s:o,s:o,s:o,s:o}", "n", (json_int_t)k, "min", tenths(s.min),
			      "median", tenths(s.median), "max", tenths(s.max), "each", each);
	} else {
		json_decref(each);
	}
	free(x);
	return o;
}

/* One result of configs/vm-calibration.json into the summary c: a failed
 * probe's reason, a probe's victim latencies or the reference's rate.  A
 * label that is not a string (none included) is keyed by its JSON text. */
static int cal_result(struct cfg_ctx *x, json_t *c, size_t i, json_t *r)
{
	static const char *const pct[] = { "p50", "p99", "max" };
	json_t *s = json_object_get(r, fld_r_summary), *v = json_object_get(s, fld_key(fld_s_victim));
	json_t *label = json_object_get(r, fld_r_label), *failed = json_object_get(c, "failed");
	json_t *reason = json_object_get(r, fld_r_reason), *us, *spread;
	const char *st = json_string_value(json_object_get(r, fld_r_status));
	char *key = json_is_string(label) ? strdup(json_string_value(label))
					  : json_dumps(label ? label : json_null(), JSON_ENCODE_ANY);
	char where[64];
	int rc = 0;

	if (!key)
		return cfg_fail(x, "results", "out of memory");
	snprintf(where, sizeof(where), "results[%zu].summary.victim", i);
	if (!st || !rs_is(st, RS_OK)) {
		if (!failed)
			json_object_set_new(c, "failed", failed = json_object());
		json_object_set_new(failed, key, reason ? json_incref(reason) : json_null());
	} else if (v) {
		us = json_object();
		if (!json_is_object(v))
			rc = cfg_fail(x, where, "must be an object");
		for (size_t k = 0; k < sizeof(pct) / sizeof(pct[0]) && !rc; k++) {
			json_t *ns = json_object_get(v, pct[k]);

			if (ns && !json_is_number(ns))
				rc = cfg_fail(x, where, "%s: must be a number", pct[k]);
			else if (ns)
				json_object_set_new(us, pct[k], tenths_us(ns));
		}
		if (!rc && (spread = p99_spread(json_object_get(r, fld_r_reps))))
			json_object_set_new(us, "p99_spread", spread);
		json_object_set_new(json_object_get(c, "victim_us"), key, us);
	} else if (json_is_string(label) && !strcmp(key, "reference")) {
		/* O?: null where the guest's result has no such value */
		json_object_set_new(
			c, "reference",
			json_pack("{s:O?,s:O?,s:O?,s:O?}", "workload", json_object_get(r, fld_r_workload),
				  "ops_per_sec",
				  json_object_get(json_object_get(s, fld_key(fld_s_ops)),
						  fld_key(fld_s_ops_median)),
				  "hold_p50_ns",
				  json_object_get(json_object_get(s, fld_key(fld_s_hold)),
						  fld_key(fld_s_hold_p50)),
				  "cs_ns",
				  json_object_get(json_object_get(r, fld_r_params),
						  fld_key(fld_r_cs_ns))));
	}
	free(key);
	return rc;
}

/* rt-tests 2.4's --json, read by key and tolerantly: it writes some keys
 * with a stray colon ("rt_test_version:"), and its histogram (-h) lists
 * only non-empty 1 us buckets, {"us": count}.  A sample past the
 * histogram's range is in "cycles" but no bucket. */
static json_t *tolerant_get(const json_t *o, const char *key)
{
	char colon[64];
	json_t *v = json_object_get(o, key);

	snprintf(colon, sizeof(colon), "%s:", key);
	return v ? v : json_object_get(o, colon);
}

/* cyclictest's p99 in us from thread t's histogram: the bucket holding
 * rank ceil(0.99 n), at its middle as hist.c reads its own buckets;
 * -1 when that rank lies past the histogram (overflow).  The buckets are
 * looked up in order up to the thread's max, whatever order the file has. */
static double ct_p99(const json_t *t, json_int_t cycles)
{
	const json_t *h = json_object_get(t, "histogram");
	json_int_t rank = (json_int_t)ceil(0.99 * (double)cycles), seen = 0;
	json_int_t max = json_integer_value(json_object_get(t, "max"));
	char key[32];

	for (json_int_t k = 0; k <= max && json_is_object(h); k++) {
		snprintf(key, sizeof(key), "%lld", (long long)k);
		seen += json_integer_value(json_object_get(h, key));
		if (seen >= rank)
			return (double)k + 0.5;
	}
	return -1;
}

/* calibration.cyclictest from DIR/cyclictest.json: cyclictest's p99, max
 * and cycles, the calibration's loaded-fifo p99 and their ratio (probe
 * over cyclictest, 1.0 when both instruments agree), or why not. */
static void vm_cyclictest(json_t *c, const char *dir)
{
	char path[PATH_MAX], why[PATH_MAX + 256];
	int absent;
	json_t *d = vm_guest_json(dir, "cyclictest.json", 0, &absent, path, why, sizeof(why));
	json_t *th = json_object_get(d, "thread"), *t = NULL, *o, *probe;
	json_int_t cycles;
	double p99;

	if (json_is_object(th))
		t = json_object_get(th, "0");
	cycles = json_integer_value(json_object_get(t, "cycles"));
	if (!d || !json_is_object(t) || cycles <= 0) {
		o = json_pack("{s:s}", "unavailable",
			      absent ? "the guest sent no cyclictest.json (not in the initramfs?)"
			      : !d   ? why
				     : "cyclictest.json has no thread 0 with cycles > 0");
		json_object_set_new(c, "cyclictest", o);
		json_decref(d);
		return;
	}
	p99 = ct_p99(t, cycles);
	o = json_pack("{s:O?,s:O?,s:I,s:O?}", "version", tolerant_get(d, "rt_test_version"),
		      "cmdline", tolerant_get(d, "cmdline"), "cycles", cycles, "max_us",
		      json_object_get(t, "max"));
	json_object_set_new(o, "p99_us", p99 < 0 ? json_null() : tenths(p99));
	probe = json_object_get(json_object_get(json_object_get(c, "victim_us"), LOADED_PROBE),
				"p99");
	if (json_is_number(probe)) {
		json_object_set_new(o, "probe", json_string(LOADED_PROBE));
		json_object_set(o, "probe_p99_us", probe);
		if (p99 > 0)
			json_object_set_new(o, "ratio_p99",
					    json_real(round(json_number_value(probe) / p99 * 100) /
						      100));
	}
	json_object_set_new(c, "cyclictest", o);
	json_decref(d);
}

/* calibration.host_load from /proc/loadavg's line ("0.52 0.58 0.59 3/601
 * 12345"): the load averages and the runnable and total tasks. */
static int host_load(json_t *c, const char *line, char *err, size_t len)
{
	double l1, l5, l15;
	long run, all;

	if (!line)
		return 0;
	if (sscanf(line, "%lf %lf %lf %ld/%ld", &l1, &l5, &l15, &run, &all) != 5) {
		snprintf(err, len, "--host-load \"%s\": not a line of /proc/loadavg", line);
		return -1;
	}
	json_object_set_new(c, "host_load",
			    json_pack("{s:f,s:f,s:f,s:I,s:I,s:s}", "loadavg_1", l1, "loadavg_5", l5,
				      "loadavg_15", l15, "runnable", (json_int_t)run, "tasks",
				      (json_int_t)all, "when", "the guest began calibrating"));
	return 0;
}

int vm_calibration(json_t *vm, const char *dir, int asked, const char *hload, char *err,
		   size_t len)
{
	char path[PATH_MAX];
	int absent, rc = 0;
	json_t *d = vm_guest_json(dir, "calibration.json", 0, &absent, path, err, len), *results, *r;
	struct cfg_ctx x = { path, err, len };
	size_t i;

	if (absent && asked)
		res_set(vm, fld_m_vm_calibration,
			json_pack("{s:s}", "unavailable", "the guest sent no calibration.json"));
	if (!d)
		return absent ? 0 : -1;
	json_t *c = json_pack("{s:s,s:{}}", "config", "configs/vm-calibration.json", "victim_us");

	if ((results = json_object_get(d, fld_results)) && !json_is_array(results))
		rc = cfg_fail(&x, "results", "must be a list");
	json_array_foreach(results, i, r) {
		char where[48];

		snprintf(where, sizeof(where), "results[%zu]", i);
		if (!rc && !json_is_object(r))
			rc = cfg_fail(&x, where, "must be an object");
		if (!rc)
			rc = cal_result(&x, c, i, r);
	}
	if (!rc)
		rc = host_load(c, hload, err, len);
	if (!rc) {
		vm_cyclictest(c, dir);
		json_object_set(vm, fld_key(fld_m_vm_calibration), c);
	}
	json_decref(c);
	json_decref(d);
	return rc;
}

/* The guest's "pass_s" ("8.61,7.90": each pass's seconds, as --meta
 * passes a list; one pass's arrives as a number) as a list of numbers;
 * left as it is when it is not one. */
static void pass_seconds(json_t *w)
{
	json_t *p = json_object_get(w, "pass_s");
	const char *s = json_string_value(p);
	json_t *a = json_array();
	char *end;

	if (json_is_number(p)) {
		json_array_append(a, p);
		s = "";
	}

	while (s && *s) {
		double v = strtod(s, &end);

		if (end == s || (*end && *end != ',')) {
			json_decref(a);
			return;
		}
		json_array_append_new(a, json_real(v));
		s = *end ? end + 1 : end;
	}
	if (s)
		json_object_set(w, "pass_s", a);
	json_decref(a);
}

int vm_warmup(json_t *vm, const char *dir, char *err, size_t len)
{
	char name[64], path[PATH_MAX];
	json_t *w = json_object_get(vm, "warmup"), *p99s = NULL, *d, *r;
	int absent;
	size_t i;

	pass_seconds(w);
	for (unsigned pass = 1;; pass++) {
		snprintf(name, sizeof(name), "warmup-%u.json", pass);
		/* p99s, once made, is w's */
		if (!(d = vm_guest_json(dir, name, 0, &absent, path, err, len)))
			return absent ? 0 : -1;
		if (!p99s) {
			if (!json_is_object(w))
				json_object_set_new(vm, "warmup", w = json_object());
			json_object_set_new(w, "probe", json_string(LOADED_PROBE));
			json_object_set_new(w, "probe_p99_us", p99s = json_array());
		}
		json_t *p99 = json_null();

		json_array_foreach(json_object_get(d, fld_results), i, r) {
			json_t *v = json_object_get(json_object_get(r, fld_r_summary),
						    fld_key(fld_s_victim));
			json_t *p = json_object_get(v, fld_key(fld_s_victim_p99));

			if (!strcmp(json_string_value(json_object_get(r, fld_r_label)) ?: "", LOADED_PROBE) &&
			    json_is_number(p))
				p99 = tenths_us(p);
		}
		json_array_append_new(p99s, p99);
		json_decref(d);
	}
}

int vm_timescale(json_t *vm, const char *dir, char *err, size_t len)
{
	char path[PATH_MAX];
	int absent;
	json_t *t = vm_guest_json(dir, "timescale.json", 0, &absent, path, err, len), *a;

	if (!t)
		return absent ? 0 : -1;
	if ((a = vm_guest_json(dir, "timescale-after.json", 0, &absent, path, err, len)))
		json_object_set(t, "k_after_suite", json_object_get(a, "k"));
	json_decref(a);
	json_object_set_new(vm, "timescale", t);
	return a || absent ? 0 : -1;
}
