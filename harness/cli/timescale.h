/* timescale.h - the guest's slowdown against its host, and the time
 * constants scaled by it (the timescale verb; scripts/vm.sh and the
 * guest's init use it on every boot). */
#ifndef SB_TIMESCALE_H
#define SB_TIMESCALE_H

#include <stddef.h>

/* An explicit slowdown K as `--timescale K` takes it: a decimal number in
 * TS_K_MIN..TS_K_MAX.  0, or -1 with err naming the value. */
#define TS_K_MIN 1.0
#define TS_K_MAX 1000.0
int ts_parse_k(const char *s, double lo, double hi, double *k, char *err, size_t len);

/* slicebench timescale [...]: 0, 1 when the guest's knobs could not be
 * written, 2 for bad usage. */
int cmd_timescale(int argc, char **argv);

#endif
