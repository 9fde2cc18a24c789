/* sysinfo.h - what the machine and kernel are: for `info` and result meta. */
#ifndef SB_SYSINFO_H
#define SB_SYSINFO_H

#include <jansson.h>

/* The Makefile passes both; these only cover a build without it. */
#ifndef SB_VERSION
#define SB_VERSION "0.1.0"
#endif
#ifndef SB_GIT_REV
#define SB_GIT_REV "unknown"
#endif

/* {kernel, cmdline, kconfig, preemption, hz, slice_extension, topology,
 *  virtualization, glibc, compiler, host, ...}; needs topo_init() first. */
json_t *sysinfo_json(void);
/* CONFIG_HZ from the kernel's config (/proc/config.gz, /boot), 0 unknown. */
int sysinfo_hz(void);
/* Reads a debugfs file (mounting debugfs when root and not mounted);
 * returns malloc'd text or NULL with *why set to a static reason. */
char *sysinfo_debugfs_read(const char *rel, const char **why);
/* Three of those reasons, for callers that suggest the fix. */
extern const char sysinfo_why_not_root[], sysinfo_why_no_debugfs[], sysinfo_why_absent[];
/* debugfs' mount point: $SLICEBENCH_DEBUGFS (tests, or debugfs mounted
 * elsewhere), else /sys/kernel/debug. */
const char *sysinfo_debugfs_dir(void);
/* Unmounts debugfs if this process mounted it (async-signal-safe). */
void sysinfo_cleanup(void);

#endif
