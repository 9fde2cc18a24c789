/* status.h - the status values, each spelled once: a result's (ok,
 * unsupported, failed, interrupted) and, for a part of one that was not
 * run (a trace, the grants' timing), skipped too.  Readers compare with
 * rs_is() or rs_of(), never with a literal. */
#ifndef SB_STATUS_H
#define SB_STATUS_H

#include <string.h>

/* X(A, ID, name, result): the status RS_ID, written as name; result: a
 * result's own status may be it (skipped is only ever a part's). */
#define SB_STATUSES(X, A)                                                                         \
	X(A, OK, "ok", 1)                                                                         \
	X(A, UNSUPPORTED, "unsupported", 1)                                                       \
	X(A, FAILED, "failed", 1)                                                                 \
	X(A, INTERRUPTED, "interrupted", 1)                                                       \
	X(A, SKIPPED, "skipped", 0)

#define SB_RS_ENUM(A, ID, ...) RS_##ID,
enum sb_status { SB_STATUSES(SB_RS_ENUM, ) RS_COUNT };

#define SB_RS_NAME(A, ID, name, ...) name,
/* s's name; "?" for none. */
static inline const char *rs_name(enum sb_status s)
{
	static const char *const names[RS_COUNT] = { SB_STATUSES(SB_RS_NAME, ) };

	return (unsigned)s < RS_COUNT ? names[s] : "?";
}

/* The status s names; RS_COUNT for none (s NULL too). */
static inline enum sb_status rs_of(const char *s)
{
	unsigned v = 0;

	while (s && v < RS_COUNT && strcmp(s, rs_name((enum sb_status)v)))
		v++;
	return s ? (enum sb_status)v : RS_COUNT;
}

/* Whether s is st's name (0 for NULL). */
static inline int rs_is(const char *s, enum sb_status st)
{
	return s && !strcmp(s, rs_name(st));
}

#define SB_RS_RESULT(A, ID, name, result) case RS_##ID: return result;
/* Whether a result's own status may be s. */
static inline int rs_result_status(enum sb_status s)
{
	switch (s) {
		SB_STATUSES(SB_RS_RESULT, )
	default:
		return 0;
	}
}

#endif
