/* forestrow.h - the rows of a forest chart (forest.c) and their labels:
 * a row's "point" is "key=value ..." in run-key order; the keys whose
 * values differ across rows are the chart's structure (forest.c's head
 * says how). */
#ifndef SB_FORESTROW_H
#define SB_FORESTROW_H

#include <stddef.h>

#include <jansson.h>

#include "plotstyle.h"

#define MAXKEYS 16

struct frow {
	const json_t *row;
	const char *tag;
	char vals[MAXKEYS][48]; /* the point's value per key, "" if absent */
	char panel[160], group[160], series[96];
	struct pstyle st;
	size_t seq;  /* the row's place in the reports, which keep run order */
	size_t tagi; /* the report it is from */
};

/* An answer panel with more rows than this is split by lock: a column of
 * 72 rows (9 placements x 8 thread counts, the contention study) made a
 * figure 1,470 pixels tall, past what a reader takes in at once. */
#define ANSWER_PANEL_ROWS 24

struct fkeys {
	char name[MAXKEYS][32];
	size_t n;
};

/* Splits "k=v k2=v2" into keys (added to ks in order) and values. */
void frow_parse_point(const char *pt, struct fkeys *ks, struct frow *fr);
/* Sets each row's panel and group from the keys that vary (by_tag: the
 * input's tag leads the panel's name); rows that would still read alike
 * are told apart by their runs' labels. */
void frow_label(struct frow *r, size_t n, const struct fkeys *ks, int by_tag);
/* Splits every panel by lock when one holds more than ANSWER_PANEL_ROWS
 * rows of several locks. */
void frow_split_by_lock(struct frow *r, size_t n);

#endif
