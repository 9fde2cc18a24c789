/* qtarget.h - a question's contrast may name a published measurement by
 * its id in the targets file (configs/replicate/targets.json, the file
 * ./run.sh --replicate reads) instead of writing the number itself:
 *   { "question": ..., "targets": "../replicate/targets.json",
 *     "contrasts": [ { "name": ..., "treatment": ..., "control": ...,
 *                      "target": "rostedt-poc" } ] }
 * "targets" is relative to the question file.  A ratio target becomes the
 * contrast's "published" (its line in the answer figure), a value target
 * its "reference" (the contrast is then against that number, qref.h);
 * "published_by" is the source's author and the figure as published. */
#ifndef SB_QTARGET_H
#define SB_QTARGET_H

#include <stddef.h>

#include <jansson.h>

/* Resolves every "target" of question doc, loaded from path, in place.
 * 0, or -1 with err naming the file, the key and the value as given. */
int qtarget_resolve(const char *path, json_t *doc, char *err, size_t len);

#endif
