/* outfile.c - temp file + fsync + rename(2) for the report writers. */
#include "outfile.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

FILE *outfile_open(struct outfile *o, const char *path, char *err, size_t len)
{
	o->path = path;
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%d", path, (int)getpid());
	o->f = fopen(o->tmp, "w");
	if (!o->f)
		snprintf(err, len, "%s: %s", o->tmp, strerror(errno));
	return o->f;
}

int outfile_commit(struct outfile *o, char *err, size_t len)
{
	FILE *f = o->f;

	o->f = NULL;
	if (fflush(f) || ferror(f) || fsync(fileno(f))) {
		snprintf(err, len, "%s: %s", o->tmp, strerror(errno));
		fclose(f);
		unlink(o->tmp);
		return -1;
	}
	if (fclose(f) || rename(o->tmp, o->path)) {
		snprintf(err, len, "%s: %s", o->path, strerror(errno));
		unlink(o->tmp);
		return -1;
	}
	return 0;
}
