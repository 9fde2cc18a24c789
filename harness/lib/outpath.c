/* outpath.c - see outpath.h: one output-path policy for every writer. */
#define _GNU_SOURCE
#include "outpath.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "regfile.h"

/* A temp file younger than this is never taken for stale: a writer
 * creates it and takes its lock within microseconds, so the age only
 * closes that window. */
#define STALE_AGE_S 60

int outpath_mkdir_p(const char *dir)
{
	char buf[4096];

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

/* The path itself (lstat: a symlink is judged, not its target). */
static int check_existing(const char *path, int replace, char *err, size_t len)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, len, "\"%s\": %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, len, "\"%s\" is %s: an output must be a new path or a regular "
			 "file; anything else is never replaced", path, regfile_kind(st.st_mode));
		return -1;
	}
	if (!replace) {
		snprintf(err, len, "\"%s\": exists; use --force to overwrite it", path);
		errno = EEXIST;
		return -1;
	}
	return 0;
}

int outpath_check(const char *path, int replace, char *err, size_t len)
{
	size_t n = strlen(path);

	if (!n) {
		snprintf(err, len, "\"\": an empty output path");
		return -1;
	}
	if (path[n - 1] == '/') {
		snprintf(err, len, "\"%s\": ends in '/'; an output must name a file", path);
		return -1;
	}
	if (n >= 4000) {
		snprintf(err, len, "\"%.64s...\": output path too long (%zu bytes)", path, n);
		return -1;
	}
	char *dup = strdup(path), tmp[4096];
	const char *dir = dirname(dup);
	struct stat st;

	if (outpath_mkdir_p(dir)) {
		snprintf(err, len, "\"%s\": cannot create directory %s: %s", path, dir,
			 strerror(errno));
		free(dup);
		return -1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, len, "\"%s\": %s: %s", path, dir, strerror(ENOTDIR));
		free(dup);
		return -1;
	}
	if (check_existing(path, replace, err, len)) {
		free(dup);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s/.slicebench-probe.XXXXXX", dir);
	free(dup);
	int fd = mkstemp(tmp);

	if (fd < 0) {
		snprintf(err, len, "\"%s\": directory not writable: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

int outpath_tmp(const char *path, char *tmp, size_t tmplen, char *err, size_t len)
{
	char *dup = strdup(path), *dup2 = strdup(path);

	snprintf(tmp, tmplen, "%s/.%s.tmp.XXXXXX", dirname(dup), basename(dup2));
	free(dup);
	free(dup2);
	int fd = mkostemp(tmp, O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, len, "%s: cannot create a temporary file: %s", path, strerror(errno));
		return -1;
	}
	/* Held until this process closes the file or dies. */
	flock(fd, LOCK_EX | LOCK_NB);
	/* mkstemp makes it 0600; a result is as readable as any file we write. */
	mode_t um = umask(0);

	umask(um);
	if (fchmod(fd, 0666 & ~um)) {
		snprintf(err, len, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	return fd;
}

/* Create-or-fail: renameat2 where the file system has it, else link(2)
 * (which also fails with EEXIST) and unlink the temp name. */
static int put_noreplace(const char *tmp, const char *path)
{
	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (link(tmp, path))
		return -1;
	unlink(tmp);
	return 0;
}

int outpath_commit(const char *tmp, const char *path, int replace, char *err, size_t len)
{
	*err = 0;
	int saved = 0;

	if (check_existing(path, replace, err, len))
		saved = errno;
	else if (replace ? rename(tmp, path) : put_noreplace(tmp, path))
		saved = errno ? errno : EIO;
	if (saved) {

		if (saved == EEXIST)
			snprintf(err, len, "\"%s\": created by another writer during this run; "
				 "not replaced (--force would)", path);
		else if (!*err)
			snprintf(err, len, "\"%s\": %s", path, strerror(saved));
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return 0;
}

/* ".BASE.tmp.XXXXXX", as outpath_tmp names them: nothing else. */
static int is_tmp_name(const char *s)
{
	size_t n = strlen(s);

	if (s[0] != '.' || n < 13 || memcmp(s + n - 11, ".tmp.", 5))
		return 0;
	for (size_t i = n - 6; i < n; i++)
		if (!isalnum((unsigned char)s[i]))
			return 0;
	return 1;
}

int outpath_clean_stale(const char *path)
{
	char *dup = strdup(path);
	const char *dir = dirname(dup);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), removed = 0;
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
	struct dirent *e;
	time_t now = time(NULL);

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		free(dup);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (!is_tmp_name(e->d_name) ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
		    now - st.st_mtime < STALE_AGE_S)
			continue;
		int fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

		if (fd < 0)
			continue;
		/* The lock is free only when no live writer holds the file. */
		if (!flock(fd, LOCK_EX | LOCK_NB) && !unlinkat(dfd, e->d_name, 0))
			removed++;
		close(fd);
	}
	closedir(d);
	free(dup);
	return removed;
}
