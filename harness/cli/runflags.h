/* runflags.h - a run from the command line, as `perf bench` takes one:
 * `run`'s flags (-w, -t, --cs, -d, ... --set KEY=VALUE) each set a key of
 * harness/core/keys.c and build the suite config a file would hold, which
 * the config loader then checks and expands as it does a file's. */
#ifndef SB_RUNFLAGS_H
#define SB_RUNFLAGS_H

#include <stddef.h>

#include <jansson.h>

#include "../lib/cliopt.h"

/* The verb's own options (head, ending in { 0 }) and then the flags, into
 * out (room for max entries with the end); -1 when they do not fit. */
int runflags_opts(struct cli_opt *out, size_t max, const struct cli_opt *head);
/* Flag key (cli_next's) with its value text into the config *cfg, made
 * {"runs": [{}]} at the first flag.  1: key is no flag; 0: added; -1: msg
 * names the flag and the value as given and says what is wrong. */
int runflags_add(json_t **cfg, int key, const char *text, char *msg, size_t len);

#endif
