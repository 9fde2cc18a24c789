/* cmpbrief.h - what compare leads with: one line per family of rows
 * (metric and group) counting its verdicts with the MDE range, and the
 * default text table, at most 100 columns wide, the full one being
 * --detail's (cmpprint.c). */
#ifndef SB_CMPBRIEF_H
#define SB_CMPBRIEF_H

#include <stdio.h>

#include <jansson.h>

#define CMP_BRIEF_WIDTH 100

/* [{metric, group, family, level, rows, improved, regressed, equivalent,
 * cannot_tell, mde_min, mde_max}], one per metric and group of rep's rows;
 * a collapsed row counts as its rank test's direction, or cannot tell. */
json_t *cmp_summary(const json_t *rep);
/* rep.summary as lines ("ops_per_sec: 2 improved, ... (MDE x1.2-x1.9)"),
 * each prefixed by pre. */
void cmp_summary_print(FILE *f, const json_t *rep, const char *pre);
/* The default text: the header, the summary, a line for the A/A checks
 * and the warnings (on stderr), and per point its rows in 100 columns. */
void cmp_print_brief(FILE *f, const json_t *rep);

#endif
