/* regfile.c - see regfile.h. */
#include "regfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *regfile_kind(mode_t m)
{
	return S_ISREG(m) ? "a regular file" : S_ISDIR(m) ? "a directory"
		: S_ISLNK(m) ? "a symbolic link" : S_ISCHR(m) ? "a character device"
		: S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
		: S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int regfile_open(const char *path, const char *what, char *err, size_t len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, len, "%s: %s, not a %s", path, regfile_kind(st.st_mode), what);
		close(fd);
		return -1;
	}
	/* Reads block again: a regular file never makes them wait anyway. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}
