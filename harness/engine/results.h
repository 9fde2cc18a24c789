/* results.h - the result document and writing it atomically. */
#ifndef SB_RESULTS_H
#define SB_RESULTS_H

#include <stddef.h>

#include <jansson.h>

#define RES_SCHEMA "slicebench/1"

/* {"schema", "meta", "config", "results": []} with meta from sysinfo. */
json_t *res_new(const json_t *config, const char *config_file);
/* Adds --meta KEY=VALUE: dotted keys nest, "@FILE" reads the value from a
 * file; numbers and true/false stay JSON scalars.  0 or -1 with err. */
int res_meta_set(json_t *doc, const char *assignment, char *err, size_t len);
/* Writes through a temp file in the same directory and rename(2), so a
 * reader never sees a partial file; creates the directory if missing.
 * Without force an existing path is never replaced: -1 with errno EEXIST
 * (outpath.h has the whole policy). */
int res_write(const char *path, int force, const json_t *doc, char *err, size_t len);
/* The write to path failed late (a full disk, a read-only remount,
 * another writer took the path): the measurements go to a new file beside
 * it (BASE.unsaved-PID.json), else to one in $TMPDIR or /tmp
 * (slicebench-BASE.unsaved-PID.json), else to stdout as one line of JSON.
 * 0 with the file in where, 1 for stdout, -1 when nothing could take
 * them. */
int res_keep(const char *path, const json_t *doc, char *where, size_t len);
/* Before a suite starts: the output must be a new path or (with force) a
 * regular file, and its directory must take a file, so an hour of runs is
 * not lost at the end. */
int res_check_out(const char *path, int force, char *err, size_t len);
/* results/<utc>-<host>-<kernel>.json from doc's meta.utc, or, for n > 1,
 * results/<utc>-<host>-<kernel>-<n>.json: the n-th run started in that
 * second. */
void res_default_path(const json_t *doc, int n, char *buf, size_t len);

#endif
