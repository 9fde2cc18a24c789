/* outfile.c - a report written whole or not at all, under outpath.h's
 * policy: a report is derived from results and made again at will, so it
 * replaces an existing regular file, never anything else. */
#include "outfile.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../lib/outpath.h"

FILE *outfile_open(struct outfile *o, const char *path, char *err, size_t len)
{
	o->path = path;
	o->f = NULL;
	if (outpath_check(path, 1, err, len))
		return NULL;
	outpath_clean_stale(path);
	int fd = outpath_tmp(path, o->tmp, sizeof(o->tmp), err, len);

	if (fd < 0)
		return NULL;
	o->f = fdopen(fd, "w");
	if (!o->f) {
		snprintf(err, len, "%s: %s", o->tmp, strerror(errno));
		close(fd);
		unlink(o->tmp);
	}
	return o->f;
}

int outfile_commit(struct outfile *o, char *err, size_t len)
{
	FILE *f = o->f;

	o->f = NULL;
	if (fflush(f) || ferror(f) || fsync(fileno(f))) {
		snprintf(err, len, "%s: %s", o->path, strerror(errno ? errno : EIO));
		fclose(f);
		unlink(o->tmp);
		return -1;
	}
	if (fclose(f)) {
		snprintf(err, len, "%s: %s", o->path, strerror(errno));
		unlink(o->tmp);
		return -1;
	}
	return outpath_commit(o->tmp, o->path, 1, err, len);
}
