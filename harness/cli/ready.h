/* ready.h - what a bare-metal run lacks on this machine, with the fix. */
#ifndef SB_READY_H
#define SB_READY_H

#include <jansson.h>
#include <stdio.h>

/* {slice_extension, rseq_stats, tracefs, pmu, root}: each {ok: true, have}
 * or {ok: false, reason, fix}. */
json_t *ready_json(void);
/* Prints the items that are not ok, two lines each; returns how many. */
int ready_print_lacks(FILE *f, const json_t *ready);

#endif
