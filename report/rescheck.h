/* rescheck.h - what each result of a document must carry (README "Result
 * format"): the checks of `slicebench validate`, shared by every reader. */
#ifndef SB_RESCHECK_H
#define SB_RESCHECK_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Checks every result of doc (as res_load returns it).  Prints one line per
 * defect on out, "WHO: FILE: results[I].KEY.PATH: what is wrong (got VALUE)",
 * FILE and I being where the result came from; returns the count. */
size_t res_check_doc(const json_t *doc, const char *who, const char *file, FILE *out);

#endif
