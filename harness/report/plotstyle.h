/* plotstyle.h - one look per workload in every plot of every report: the
 * colour says the lock, the point shape and dash say the waiting policy,
 * a hollow point and a dotted line say "dry control". */
#ifndef SB_PLOTSTYLE_H
#define SB_PLOTSTYLE_H

#include <jansson.h>

struct pstyle {
	char lock[48], policy[48];
	int dry;
	int sleeps;	 /* the lock can put a waiter to sleep (futex, adaptive ...) */
	unsigned rgb;	 /* 0xRRGGBB */
	int pt;		 /* gnuplot point type */
	const char *dash; /* gnuplot dash pattern ("- ", ". " ...), NULL solid */
	int order;	 /* sort key: the table's order of locks, then of policies */
	int known;	 /* lock and policy are in harness/lib/vocab.h's lists */
};

/* The style of a result: its params' "lock", "policy" and "dry" when the
 * result has them, else what its workload name stands for in the registry
 * (workloads/registry.c); an unknown lock or policy gets a colour or shape
 * picked by a hash of its name, so it looks the same in every report. */
void pstyle_of(const char *workload, const json_t *params, struct pstyle *s);

#endif
