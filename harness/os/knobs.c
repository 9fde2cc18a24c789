/* knobs.c - debugfs rseq/slice_ext_nsec per run, restored after it, also
 * when the run failed or the suite is interrupted. */
#include "knobs.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo.h"
#include "../lib/fields.h"
#include "../lib/resset.h"

static char path[512];		/* where the saved value goes back to */
static char saved[32];		/* text to write back */
static volatile int have_saved; /* read by the signal path */
static double slowdown = 1;	/* knob_timescale's k */
static int scale_runs;		/* read run keys as host-equivalent */
static char clamped[192];	/* what the last knob_apply clamped, or "" */

void knob_timescale(double k, int scale)
{
	slowdown = k > 0 ? k : 1;
	scale_runs = scale;
}

long knob_clamp_ext(double want, long max, char *why, size_t len)
{
	long v = want < SLICE_EXT_NSEC_MIN ? SLICE_EXT_NSEC_MIN
		 : want > (double)max	   ? max
					   : (long)(want + 0.5);

	snprintf(why, len, "%s", "");
	if (want < SLICE_EXT_NSEC_MIN || want > (double)max)
		snprintf(why, len, "%.0f ns is outside the kernel's %d..%ld: %ld written", want,
			 SLICE_EXT_NSEC_MIN, max, v);
	return v;
}

void knob_record(json_t *res, long in_force)
{
	if (in_force < 0)
		return;
	res_set(res, fld_r_ext_nsec, json_integer(in_force));
	res_set(res, fld_r_ext_host, json_real(round((double)in_force / slowdown * 10) / 10));
	if (*clamped)
		res_set(res, fld_r_ext_clamped, json_string(clamped));
}

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

int knob_write_debugfs(const char *rel, long value)
{
	char p[512], txt[32];

	snprintf(p, sizeof(p), "%s/%s", sysinfo_debugfs_dir(), rel);
	snprintf(txt, sizeof(txt), "%ld\n", value);
	return write_text(p, txt);
}

int knob_apply(int64_t want, char *err, size_t len)
{
	const char *why = NULL;

	*clamped = 0;
	if (!want)
		return 0;
	if (scale_runs)
		want = knob_clamp_ext((double)want * slowdown, SLICE_EXT_NSEC_WIDE_MAX, clamped,
				      sizeof(clamped));
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

	/* a kernel without the wide maximum: the mainline one, said so */
	if (rc == -ERANGE && scale_runs && want > SLICE_EXT_NSEC_MAX) {
		want = knob_clamp_ext((double)want, SLICE_EXT_NSEC_MAX, clamped, sizeof(clamped));
		snprintf(txt, sizeof(txt), "%lld\n", (long long)want);
		rc = write_text(path, txt);
	}

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
