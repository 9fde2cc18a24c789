/* outpath.h - the one policy for every file slicebench writes (run's
 * result, compare's and plot's reports): the path must be new or a regular
 * file, never a directory, symlink, device or FIFO (not even with --force,
 * not even as root); the content goes to a hidden, locked temp file beside
 * it and is put in place by one rename(2), or, where replacing is not
 * allowed, by an atomic create-or-fail (renameat2 RENAME_NOREPLACE, else
 * link(2)), so two writers of one path never silently replace each other. */
#ifndef SB_OUTPATH_H
#define SB_OUTPATH_H

#include <stddef.h>

/* Refuses "", a path ending in '/', an existing path that is not a regular
 * file, and (unless replace) any existing path; creates missing parent
 * directories and checks that the directory takes a new file.  0, or -1
 * with err naming the path as given and why. */
int outpath_check(const char *path, int replace, char *err, size_t len);
/* Creates ".BASE.tmp.XXXXXX" beside path (mode 0666 & ~umask), locked
 * with flock(2) while this process lives, so outpath_clean_stale can tell
 * a dead writer's file from a live one.  The fd, or -1 with err. */
int outpath_tmp(const char *path, char *tmp, size_t tmplen, char *err, size_t len);
/* Puts tmp in place at path with the policy of outpath_check (checked
 * again: the path may have changed during a long run).  Without replace an
 * existing path fails with EEXIST and "exists" in err.  On failure tmp is
 * removed.  0 or -1. */
int outpath_commit(const char *tmp, const char *path, int replace, char *err, size_t len);
/* Removes the temp files of path's directory left by writers that died
 * (SIGKILL, power loss): hidden ".*.tmp.*" regular files older than a
 * minute whose lock can be taken.  Returns how many were removed. */
int outpath_clean_stale(const char *path);
/* mkdir -p; 0 or -1 with errno. */
int outpath_mkdir_p(const char *dir);

#endif
