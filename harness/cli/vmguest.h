/* vmguest.h - the files a guest sent (scripts/vm.sh decodes them into one
 * directory), read by vmmeta.c and vmcal.c. */
#ifndef SB_VMGUEST_H
#define SB_VMGUEST_H

#include <stddef.h>

#include <jansson.h>

/* DIR/NAME into path (PATH_MAX bytes) and opened: a regular file's fd, -1
 * with err, or -2 when the guest sent no such file and need is 0 (it leaves
 * out what it has nothing to say in; a file that is there must be right). */
int vm_guest_open(const char *dir, const char *name, int need, char *path, char *err, size_t len);

/* DIR/NAME, a JSON object the guest sent: a new reference, or NULL with
 * err as "FILE:LINE:COL: ..." (or "FILE: ..."); *absent is 1 when the file
 * is not there and need is 0.  path receives DIR/NAME (PATH_MAX bytes). */
json_t *vm_guest_json(const char *dir, const char *name, int need, int *absent, char *path,
		      char *err, size_t len);

#endif
