/* rescheck.h - what each result of a document must carry (the field
 * table, docs/result-schema.md): the checks of `slicebench validate`, shared by every reader. */
#ifndef SB_RESCHECK_H
#define SB_RESCHECK_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Checks doc (as res_load returns it) against the result schema
 * (harness/lib/fields.h) and every result's invariants.  Prints one line per
 * defect on out, "WHO: FILE: results[I].KEY.PATH: what is wrong (got VALUE)",
 * FILE and I being where the result came from; returns the count.  strict:
 * a key the schema does not declare is a defect too. */
size_t res_check_doc(const json_t *doc, int strict, const char *who, const char *file,
		     FILE *out);

#endif
