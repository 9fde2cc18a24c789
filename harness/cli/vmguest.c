/* vmguest.c - the files a guest sent, as vmmeta and its timing floor
 * (vmcal.c) read them: each one a regular file of the directory
 * scripts/vm.sh decoded them into, or absent when the guest had nothing to
 * say in it. */
#define _GNU_SOURCE
#include "vmguest.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/cfgerr.h"
#include "../lib/regfile.h"

/* DIR/NAME into path and opened: a regular file's fd, -1 with err, or -2
 * when the guest sent no such file and need is 0 (it leaves out what it
 * has nothing to say in; a file that is there must be right). */
int vm_guest_open(const char *dir, const char *name, int need, char *path, char *err, size_t len)
{
	struct stat st;

	if (snprintf(path, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX) {
		snprintf(err, len, "%s: path too long", dir);
		return -1;
	}
	if (!need && stat(path, &st) && (errno == ENOENT || errno == ENOTDIR))
		return -2;
	return regfile_open(path, "file the guest sends", err, len);
}

/* A JSON object the guest sent, opened as vm_guest_open (*absent: it sent
 * none); NULL with err as "FILE:LINE:COL: ..." or "FILE: (top level):
 * ...".  Duplicate keys are kept, the last value winning: the guest's
 * writer makes none, and a reader here never did refuse them. */
json_t *vm_guest_json(const char *dir, const char *name, int need, int *absent, char *path,
		      char *err, size_t len)
{
	struct cfg_ctx c = { path, err, len };
	int fd = vm_guest_open(dir, name, need, path, err, len);
	json_error_t je;
	json_t *d;

	if ((*absent = fd == -2) || fd < 0)
		return NULL;
	d = json_loadfd(fd, 0, &je);
	close(fd);
	if (!d || json_is_object(d)) {
		if (!d)
			cfg_fail_parse(&c, &je);
		return d;
	}
	cfg_fail(&c, "(top level)", "must be an object");
	json_decref(d);
	return NULL;
}
