/* outfile.h - an output file written whole or not at all: the content goes
 * to PATH.tmp.PID beside it, then fflush, fsync and rename(2) put it in
 * place, so a reader never sees a partial file.  (Result files have their
 * own writer in results.c: a hidden mkstemp name the signal handler can
 * remove, and raw writes that see a full disk.) */
#ifndef SB_OUTFILE_H
#define SB_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct outfile {
	const char *path; /* the caller's; must outlive the outfile */
	char tmp[PATH_MAX + 32];
	FILE *f;
};

/* Creates the temp file for path: o->f, or NULL with err "TMP: reason". */
FILE *outfile_open(struct outfile *o, const char *path, char *err, size_t len);
/* Flushes, fsyncs and closes o->f, and renames the temp file over the path.
 * 0, or -1 with err "TMP: reason" (a write) or "PATH: reason" (the close or
 * the rename) and the temp file removed. */
int outfile_commit(struct outfile *o, char *err, size_t len);

#endif
