/* knobs.c - debugfs rseq/slice_ext_nsec per run, restored after it, also
 * when the run failed or the suite is interrupted. */
#include "knobs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo.h"

static char path[512];		/* where the saved value goes back to */
static char saved[32];		/* text to write back */
static volatile int have_saved; /* read by the signal path */

long knob_slice_ext_nsec(void)
{
	const char *why;
	char *s = sysinfo_debugfs_read("rseq/slice_ext_nsec", &why);
	long v = s ? atol(s) : -1;

	free(s);
	return v;
}

static int write_text(const char *path, const char *txt)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, txt, strlen(txt));
	int e = n < 0 ? errno : 0;

	close(fd);
	return n < 0 ? -e : 0;
}

int knob_apply(int64_t want, char *err, size_t len)
{
	const char *why = NULL;

	if (!want)
		return 0;
	char *cur = sysinfo_debugfs_read("rseq/slice_ext_nsec", &why);

	if (!cur) {
		snprintf(err, len, "slice_ext_nsec %lld: debugfs rseq/slice_ext_nsec: %s%s",
			 (long long)want, why,
			 !strcmp(why, "not present in debugfs")
				 ? " (kernel without CONFIG_RSEQ_SLICE_EXTENSION)"
				 : "");
		return -1;
	}
	if (!have_saved) {
		snprintf(path, sizeof(path), "%s/rseq/slice_ext_nsec", sysinfo_debugfs_dir());
		snprintf(saved, sizeof(saved), "%s\n", cur);
		have_saved = 1;
	}
	free(cur);
	char txt[32];

	snprintf(txt, sizeof(txt), "%lld\n", (long long)want);
	int rc = write_text(path, txt);

	if (rc) {
		char hint[96] = "";

		if (rc == -ERANGE)
			snprintf(hint, sizeof(hint),
				 " (outside %d..%d ns unless the kernel has "
				 "CONFIG_RSEQ_SLICE_EXT_WIDE_MAX)",
				 SLICE_EXT_NSEC_MIN, SLICE_EXT_NSEC_MAX);
		snprintf(err, len, "slice_ext_nsec %lld: the kernel refused it: %s%s",
			 (long long)want, strerror(-rc), hint);
		knob_restore();
		return -1;
	}
	return 0;
}

void knob_restore(void)
{
	if (!have_saved)
		return;
	write_text(path, saved);
	have_saved = 0;
}
