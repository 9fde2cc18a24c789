/* calfloor.c - compare two VM results' calibration (meta.vm.calibration,
 * measured by the guest before its suite): a latency or throughput compared
 * across two different timing floors measures the instruments as much as
 * the locks.
 *
 * Under TCG the floor moves with how the host schedules QEMU's threads, so
 * two boots of the same guest can differ; the bands below are wide enough
 * that two quiet boots pass and a changed host setting does not. */
#include "calfloor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "resget.h"

/* A victim p99 that differs by this factor, and by at least this much in
 * absolute terms (a few tens of microseconds is one timer tick's jitter). */
#define FLOOR_RATIO 1.5
#define FLOOR_MIN_US 50.0
/* The fixed reference workload's throughput: outside [1/REF_RATIO,
 * REF_RATIO] the emulated CPU ran at a different speed. */
#define REF_RATIO 1.2

static void push(json_t *out, json_t *s)
{
	if (s)
		json_array_append_new(out, s);
}

static void victims(json_t *out, const json_t *ca, const json_t *cb, const char *fb)
{
	const json_t *va = json_object_get(ca, "victim_us"), *vb = json_object_get(cb, "victim_us");
	const char *label;
	json_t *x;

	json_object_foreach((json_t *)va, label, x) {
		json_t *y = json_object_get(vb, label);
		double pa = res_num(x, "p99"), pb = res_num(y, "p99");

		if (!y) {
			push(out, json_sprintf("guest timing floor: the %s probe is in A's calibration "
					       "only", label));
			continue;
		}
		if (!isfinite(pa) || !isfinite(pb) || pa <= 0 || pb <= 0)
			continue;
		double r = pb / pa;

		if ((r >= FLOOR_RATIO || r <= 1 / FLOOR_RATIO) && fabs(pb - pa) >= FLOOR_MIN_US)
			push(out, json_sprintf("guest timing floor differs: %s victim p99 A %.1f us vs "
					       "%s %.1f us (%.2fx); latencies were measured on "
					       "different instruments", label, pa, fb, pb, r));
	}
	json_object_foreach((json_t *)vb, label, x) {
		if (!json_object_get(va, label))
			push(out, json_sprintf("guest timing floor: the %s probe is in %s's "
					       "calibration only", label, fb));
	}
}

static void reference(json_t *out, const json_t *ca, const json_t *cb, const char *fb)
{
	double a = res_num(ca, "reference.ops_per_sec"), b = res_num(cb, "reference.ops_per_sec");

	if (!isfinite(a) || !isfinite(b) || a <= 0 || b <= 0)
		return;
	double r = b / a;

	if (r > REF_RATIO || r < 1 / REF_RATIO)
		push(out, json_sprintf("guest reference workload differs: %s A %.0f ops/s vs %s "
				       "%.0f ops/s (%.2fx); the emulated CPU ran at a different "
				       "speed", res_str(ca, "reference.workload", "?"), a, fb, b, r));
}

json_t *calfloor_diff(const json_t *ma, const json_t *mb, const char *fb)
{
	json_t *out = json_array();
	const json_t *ca = res_get(ma, "vm.calibration"), *cb = res_get(mb, "vm.calibration");
	int va = res_get(ma, "vm") != NULL, vb = res_get(mb, "vm") != NULL;

	if (!va || !vb)
		return out; /* bare metal on a side: the accelerator warning says it */
	int ha = json_object_get(ca, "victim_us") != NULL;
	int hb = json_object_get(cb, "victim_us") != NULL;

	if (ha != hb) {
		const json_t *why = json_object_get(ha ? cb : ca, "unavailable");

		push(out, json_sprintf("guest timing floor: only %s carries a calibration (%s: %s)",
				       ha ? "A" : fb, ha ? fb : "A",
				       json_is_string(why) ? json_string_value(why)
							   : "none measured"));
		return out;
	}
	if (!ha)
		return out;
	victims(out, ca, cb, fb);
	reference(out, ca, cb, fb);
	return out;
}
