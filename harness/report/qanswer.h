/* qanswer.h - a study's answer in numbers, for scripts: plot --question
 * writes answer.json beside index.html, the rows of its verdict table
 * (plotqtab.c) as compare made them. */
#ifndef SB_QANSWER_H
#define SB_QANSWER_H

#include <stddef.h>

#include "question.h"

/* {question, contrasts: [{name, input, family, published, time_to_goal
 * {mde, seconds, points_without}, rows: [{treatment, control, point, label,
 * ratio, ratio_ci95, verdict, reading, equivalent, mde, mde_goal, n,
 * grants_per_1000_ops, grants_ended, control_aa}]}]} at path, written
 * whole or not at all.  0, or -1 with err naming the path. */
int question_write(const struct question *q, const char *path, char *err, size_t len);

#endif
