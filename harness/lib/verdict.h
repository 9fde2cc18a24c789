/* verdict.h - the verdicts the report verbs write and print, each spelled
 * once: a compare row's (improved, regressed, inconclusive, or collapsed
 * with its rank test's improved, regressed or not significant, and the
 * equivalent an inconclusive row may be shown), a question's rows against
 * its reference (above, below, inconclusive), an A/A check's (valid,
 * invalid, inconclusive) and a published claim's (reproduced,
 * contradicted, cannot tell, not comparable: harness/report/claim.c).  Readers compare with vd_is() or vd_of(), never
 * with a literal. */
#ifndef SB_VERDICT_H
#define SB_VERDICT_H

#include <string.h>

/* X(A, ID, name): the verdict VD_ID, written as name. */
#define SB_VERDICTS(X, A)                                                                         \
	X(A, IMPROVED, "improved")                                                                \
	X(A, REGRESSED, "regressed")                                                              \
	X(A, INCONCLUSIVE, "inconclusive")                                                        \
	X(A, COLLAPSED, "collapsed")                                                              \
	X(A, NOT_SIGNIFICANT, "not significant")                                                  \
	X(A, EQUIVALENT, "equivalent")                                                            \
	X(A, ABOVE, "above")                                                                      \
	X(A, BELOW, "below")                                                                      \
	X(A, VALID, "valid")                                                                      \
	X(A, INVALID, "invalid")                                                                  \
	X(A, REPRODUCED, "reproduced")                                                            \
	X(A, CONTRADICTED, "contradicted")                                                        \
	X(A, CANNOT_TELL, "cannot tell")                                                          \
	X(A, NOT_COMPARABLE, "not comparable")

#define SB_VD_ENUM(A, ID, name) VD_##ID,
enum sb_verdict { SB_VERDICTS(SB_VD_ENUM, ) VD_COUNT };

#define SB_VD_NAME(A, ID, name) name,
/* v's name; "?" for none. */
static inline const char *vd_name(enum sb_verdict v)
{
	static const char *const names[VD_COUNT] = { SB_VERDICTS(SB_VD_NAME, ) };

	return (unsigned)v < VD_COUNT ? names[v] : "?";
}

/* The verdict s names; VD_COUNT for none (s NULL too). */
static inline enum sb_verdict vd_of(const char *s)
{
	unsigned v = 0;

	while (s && v < VD_COUNT && strcmp(s, vd_name((enum sb_verdict)v)))
		v++;
	return s ? (enum sb_verdict)v : VD_COUNT;
}

/* Whether s is v's name (0 for NULL). */
static inline int vd_is(const char *s, enum sb_verdict v)
{
	return s && !strcmp(s, vd_name(v));
}

#endif
