/* resload.h - reading result files (and directories of them) for compare
 * and plot.  Everything past the envelope is optional: readers use the
 * accessors of resget.h, which return NAN or NULL for a missing or
 * mistyped field, so a hostile file can only degrade a report, never crash
 * it. */
#ifndef SB_RESLOAD_H
#define SB_RESLOAD_H

#include <stddef.h>

#include <jansson.h>

#define RES_SCHEMA_MAJOR 1

/* Parses and validates one result document held in memory: an object with
 * "schema": "slicebench/1[.x]", "meta" {}, "results" [] whose items have
 * "workload" (string), "params" {} and "status" (string).  0, or -1 with err
 * as "NAME:LINE:COL: ..." (syntax) or "NAME: KEY.PATH: ...".  Each result
 * gets "_file" (NAME) and "_meta" (the document's meta) for the readers.
 * Safe on any bytes: the entry point the fuzzer drives. */
int res_load_buffer(const char *name, const char *buf, size_t len, json_t **doc, char *err,
		    size_t errlen);
/* A file as above, or a directory: every *.json inside (sorted by name),
 * merged into one document whose results keep their own "_file"/"_meta",
 * and whose meta is the first file's plus "files": [names].  A directory
 * with no result file, or one bad file in it, is an error naming it. */
int res_load(const char *path, json_t **doc, char *err, size_t len);
/* 1 when NAME is a result's file name: NAME.json or NAME.json.gz, not hidden */
int res_is_json_name(const char *name);
/* The inputs of compare and plot: each of paths[0..n) as res_load, then
 * checked as `validate` checks it (rescheck.h), into a new array *docs of n.
 * 0, or 2 (the usage exit status) after printing "WHO: error" (every defect
 * of a file that loads) on stderr for the first path that fails; the docs
 * after it stay NULL.  *docs is set either way: free it with res_free_all. */
int res_load_all(const char *who, const char *const *paths, size_t n, json_t ***docs);
void res_free_all(json_t **docs, size_t n);

#endif
