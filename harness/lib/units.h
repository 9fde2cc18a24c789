/* units.h - a time as a person types it ("200ns", "1.5us", "5s"),
 * converted into the unit a key is kept in (cs_ns in ns, duration_s in
 * s): what `run`'s flags take. */
#ifndef SB_UNITS_H
#define SB_UNITS_H

#include <stddef.h>

/* 1 if unit (a key's, as in harness/core/keys.c) is a time unit. */
int unit_is_time(const char *unit);
/* text: a decimal number (no sign, no hex), then ns, us, ms or s, or
 * nothing for the unit `to` itself; *out: its value in `to`, a time unit.
 * 0, or -1 with msg saying what is wrong with it. */
int unit_time(const char *text, const char *to, double *out, char *msg, size_t len);

#endif
