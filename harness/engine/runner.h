/* runner.h - one run: one workload at one parameter point, all its
 * repetitions, in the calling process. */
#ifndef SB_RUNNER_H
#define SB_RUNNER_H

#include <stdint.h>

#include <jansson.h>

#include "../core/keys.h"
#include "../core/workload.h"

/* Runs every repetition and returns the result object:
 * {workload, params, status, reason, repetitions[], summary, histograms}. */
json_t *runner_run(const struct workload_ops *ops, const json_t *params);
struct il_gate;
/* The same from the run's typed parameters p (run_params_parse of
 * params, done once when the config is loaded), each repetition waiting
 * for its turn at g (interleave.h); a NULL g does not wait. */
json_t *runner_run_gated(const struct workload_ops *ops, const json_t *params,
			 const struct run_params *p, const struct il_gate *g);
/* The torture: `threads` threads each do exactly ops_per_thread operations
 * (no timing); returns 0 when the shared count is exact, 1 when it is not,
 * -1 when the workload could not start, -2 when its lock's init said this
 * machine cannot run it (reason filled either way). */
int runner_torture(const struct workload_ops *ops, const json_t *params,
		   uint64_t ops_per_thread, uint64_t *counted, char *reason, size_t len);

#endif
