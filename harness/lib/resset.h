/* resset.h - the writer's side of the field table (fields.h): every key a
 * result writer sets is a field's, named by its constant as the readers
 * name it (harness/report/resget.h), so a field renamed in the table stops
 * the build on both sides, and a key renamed there moves on both sides.
 *
 * A writer holds the object that holds the field and sets the field's last
 * key in it: res_set(rusage, fld_nvcsw, v) sets "nvcsw".  In json_pack's
 * "s" arguments the key is fld_key(fld_<id>).  The keys of open objects
 * (FT_OPEN: the VM runner's notes, an interleaved suite's seed) are not in
 * the table and stay spelled where they are written. */
#ifndef SB_RESSET_H
#define SB_RESSET_H

#include <jansson.h>

#include "fields.h"

/* Set field name (a fld_<id>) in obj, taking v's reference as
 * json_object_set_new does; its result.  A field with no key of its own
 * (a "*" or a list's "[]") is a writer's mistake: res_set_as names its key. */
int res_set(json_t *obj, const char *name, json_t *v);
/* Set a "*" field (fld_counter: "counters.*") under key, the name it has
 * in this result (an event's name). */
int res_set_as(json_t *obj, const char *name, const char *key, json_t *v);

#endif
