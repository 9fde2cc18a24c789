/* outfile.h - a report file written whole or not at all: the content goes
 * to a hidden temp file beside it (outpath.h), then fflush, fsync and
 * rename(2) put it in place, so a reader never sees a partial file.  The
 * path must be new or a regular file (replaced).  (Result files have their
 * own writer in results.c: raw writes that see a full disk, and no
 * replacing without --force.) */
#ifndef SB_OUTFILE_H
#define SB_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct outfile {
	const char *path; /* the caller's; must outlive the outfile */
	char tmp[4096 + 32];
	FILE *f;
};

/* Checks path (outpath_check) and creates its temp file: o->f, or NULL
 * with err naming the path and the reason. */
FILE *outfile_open(struct outfile *o, const char *path, char *err, size_t len);
/* Flushes, fsyncs and closes o->f, and renames the temp file over the path.
 * 0, or -1 with err "PATH: reason" and the temp file removed. */
int outfile_commit(struct outfile *o, char *err, size_t len);

#endif
