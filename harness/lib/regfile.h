/* regfile.h - what slicebench reads from a path the user gives (configs,
 * plans, results, --meta @FILE) is a regular file: opened with O_NONBLOCK,
 * so a FIFO never waits for a writer, then judged by fstat. */
#ifndef SB_REGFILE_H
#define SB_REGFILE_H

#include <stddef.h>
#include <sys/types.h>

/* "a directory", "a FIFO", "a symbolic link", ... for a message. */
const char *regfile_kind(mode_t mode);
/* A read-only fd (O_CLOEXEC) of the regular file at path, or -1 with err
 * "PATH: reason" or "PATH: a FIFO, not a WHAT". */
int regfile_open(const char *path, const char *what, char *err, size_t len);

#endif
