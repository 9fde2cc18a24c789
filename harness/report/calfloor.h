/* calfloor.h - warnings when two VM results' calibration floors differ. */
#ifndef SB_CALFLOOR_H
#define SB_CALFLOOR_H

#include <jansson.h>

/* The warnings (an array of strings, possibly empty) for two results'
 * meta objects: a victim probe's p99 that differs by 1.5x and 50 us or
 * more, a reference throughput that differs by more than 20%, or a
 * calibration on one side only.  fb names the second side. */
json_t *calfloor_diff(const json_t *ma, const json_t *mb, const char *fb);

#endif
