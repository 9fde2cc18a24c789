/* driftscene.h - the run the drift check is tried on: one spin-tas thread,
 * 20 us held and 20 us between, every op timed, three repetitions of 0.3 s
 * (tests/unit/drift.c and harness/selfbench/driftcheck.c).  A new reference. */
#ifndef SELFBENCH_DRIFTSCENE_H
#define SELFBENCH_DRIFTSCENE_H

#include <jansson.h>

#include "../core/keys.h"
#include "../core/workload.h"

static inline json_t *drift_scene(void)
{
	const struct workload_ops *ops = wl_find("spin-tas");
	json_t *p = key_defaults(run_keys, ops->lock->keys);
	json_t *set = json_pack("{s:s,s:i,s:s,s:i,s:i,s:f,s:f,s:i,s:i,s:[]}", "workload",
				"spin-tas", "threads", 1, "pin", "compact", "cs_ns", 20000,
				"think_ns", 20000, "duration_s", 0.3, "warmup_s", 0.05,
				"repetitions", 3, "sample_every", 1, "events");

	json_object_update(p, set);
	json_decref(set);
	return p;
}

#endif
