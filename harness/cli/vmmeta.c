/* vmmeta.c - the vmmeta verb.  The guest sends its result.json and a few
 * files beside it (scripts/vm.sh decodes them into one directory); this
 * adds to the result's meta what only the host saw (the boot's wall time,
 * a retried boot, a stop signal, how QEMU was scheduled), a summary of the
 * guest's warm-up and timing floor (vmcal.c), and the guest's debugfs
 * rseq/stats before and after the suite with their difference.  The
 * result is written as `run` writes one (results.c), so every number the
 * guest wrote reads back as the same text. */
#define _GNU_SOURCE
#include "vmmeta.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/cliopt.h"
#include "../engine/config.h"
#include "../lib/exitcodes.h"
#include "../lib/resset.h"
#include "../engine/results.h"
#include "vmcal.h"
#include "vmguest.h"

static const struct cli_opt vmmeta_opts[] = {
	{ 'd', "files", "DIR", "what the guest sent: result.json, and when there\n"
			       "calibration.json, cyclictest.json, warmup-N.json,\n"
			       "timescale.json, timescale-after.json,\n"
			       "rseq_stats.before, rseq_stats" },
	{ 'o', "out", "FILE", "the merged result (temp file + rename, as `run` writes)" },
	{ 'f', "force", NULL, "replace an existing --out file (a regular file only)" },
	{ 'w', "wall", "S", "seconds QEMU ran (meta.vm.wall_s)" },
	{ 'u', "userspace", "S", "guest uptime when init started (meta.vm.userspace_s)" },
	{ 'r', "retried", "TEXT", "why the guest was booted again (meta.vm.retried)" },
	{ 'i', "interrupted", "SIG", "the signal that stopped the guest, as INT\n"
				     "(meta.vm.interrupted: \"SIGINT\")" },
	{ 's', "host-sched", "TEXT", "how the host scheduled QEMU (meta.vm.host_sched)" },
	{ 'c', "calibrate", NULL, "the guest was asked to calibrate: without a\n"
				  "calibration.json, meta.vm.calibration says so" },
	{ 'l', "host-load", "LINE", "the host's /proc/loadavg when the guest began\n"
				    "calibrating (meta.vm.calibration.host_load)" },
	{ 'k', "check-out", NULL, "check --out as the merge would and exit (0, or 2\n"
				  "naming why), reading nothing: scripts/vm.sh\n"
				  "does so before the build and the boot" },
	{ 'h', "help", NULL, "this text" },
	{ 0 }
};

static const struct cli_cmd vmmeta_cmd = {
	.name = "vmmeta",
	.synopsis = "slicebench vmmeta --files DIR --out FILE --wall S [OPTIONS]\n",
	.about = "scripts/vm.sh's last step: DIR/result.json, the result a guest sent, with\n"
		 "meta.vm completed by what the host saw, meta.vm.calibration summarising\n"
		 "DIR/calibration.json and DIR/cyclictest.json, meta.vm.warmup the probe of\n"
		 "each DIR/warmup-N.json, meta.vm.timescale DIR/timescale(-after).json, and\n"
		 "meta.rseq_stats from DIR/rseq_stats(.before).\n",
	.opts = vmmeta_opts,
	.exits = "0 ok, 1 the result cannot be written, 2 bad usage or a file of\n"
		 "DIR that is not what the guest writes (then nothing is written)",
};

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* debugfs rseq/stats as the guest copied it: "name: count" lines; a line
 * of any other shape, or a count past int64 (what a JSON integer holds
 * here), is left out.  *got stays NULL when the guest sent no such file. */
static int stats_load(const char *dir, const char *name, json_t **got, char *err, size_t len)
{
	char path[PATH_MAX], *line = NULL, *save, *l, *k, *v;
	size_t cap = 0;
	int fd = vm_guest_open(dir, name, 0, path, err, len);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (!f && fd >= 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		close(fd);
	}
	if (!f)
		return fd == -2 ? 0 : -1;
	*got = json_object();
	while (getline(&line, &cap, f) >= 0)
		for (l = strtok_r(line, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save)) {
			if (!(v = strchr(l, ':')))
				continue;
			*v = 0;
			k = trim(l);
			v = trim(v + 1);
			errno = 0;
			long long n = *v && !v[strspn(v, "0123456789")] ? strtoll(v, NULL, 10) : -1;

			if (n >= 0 && !errno)
				json_object_set_new(*got, k, json_integer(n));
		}
	free(line);
	int bad = ferror(f);

	if (fclose(f) || bad) {
		snprintf(err, len, "%s: read error", path);
		return -1;
	}
	return 0;
}

/* meta.rseq_stats: the counters after the suite, before it and the
 * difference (a counter missing before counts from 0). */
static int vm_rseq_stats(json_t *meta, const char *dir, char *err, size_t len)
{
	json_t *before = NULL, *after = NULL, *rs, *delta, *a;
	const char *k;
	json_int_t d;
	int rc = stats_load(dir, "rseq_stats.before", &before, err, len) ||
		 stats_load(dir, "rseq_stats", &after, err, len);

	if (rc || !after) {
		json_decref(before);
		json_decref(after);
		return rc ? -1 : 0;
	}
	rs = json_pack("{s:s,s:o}", fld_key(fld_m_rseq_source), "debugfs rseq/stats", "after",
		       after);
	if (before) {
		res_set_as(rs, fld_m_rseq_side, "before", before);
		res_set_as(rs, fld_m_rseq_side, "delta", delta = json_object());
		json_object_foreach(after, k, a)
			if (!__builtin_sub_overflow(json_integer_value(a),
						    json_integer_value(json_object_get(before, k)), &d))
				res_set_as(delta, fld_m_rseq_counter, k, json_integer(d));
	}
	res_set(meta, fld_m_rseq_stats, rs);
	return 0;
}

struct vm_host {
	const char *dir, *out, *retried, *sig, *sched, *load;
	double wall_s, userspace_s; /* userspace_s NAN: not given */
	int calibrate, force;
};

/* doc (the guest's result) with the host's view merged in; 0 or -1 with
 * err.  Keys the guest already had keep their place, new ones go last. */
static int merge(json_t *doc, const struct vm_host *h, const char *path, char *err, size_t len)
{
	struct cfg_ctx x = { path, err, len };
	json_t *meta = json_object_get(doc, fld_meta), *vm;

	if (!meta)
		res_set(doc, fld_meta, meta = json_object());
	else if (!json_is_object(meta))
		return cfg_fail(&x, fld_meta, "must be an object");
	if (!json_is_object(vm = json_object_get(meta, fld_m_vm))) {
		/* none yet, or a --meta vm=VALUE in the guest: kept, one level down */
		vm = vm ? json_pack("{s:O}", "value", vm) : json_object();
		res_set(meta, fld_m_vm, vm);
	}
	json_object_set_new(vm, "wall_s", json_real(h->wall_s));
	if (h->retried && *h->retried)
		json_object_set_new(vm, "retried", json_string(h->retried));
	if (h->sig && *h->sig)
		json_object_set_new(vm, "interrupted", json_sprintf("SIG%s", h->sig));
	if (h->sched)
		json_object_set_new(vm, "host_sched", json_string(h->sched));
	if (vm_warmup(vm, h->dir, err, len) || vm_timescale(vm, h->dir, err, len) ||
	    vm_calibration(vm, h->dir, h->calibrate, h->load, err, len))
		return -1;
	if (!isnan(h->userspace_s))
		json_object_set_new(vm, "userspace_s", json_real(h->userspace_s));
	return vm_rseq_stats(meta, h->dir, err, len);
}

/* A number of seconds from the command line (NAN when not given); -1
 * after saying why. */
static int seconds_arg(const char *opt, const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = s ? strtod(s, &end) : NAN;
	if (s && (!*s || *end || errno || !isfinite(*v))) {
		fprintf(stderr, "slicebench vmmeta: --%s \"%s\": not a number of seconds\n", opt, s);
		return -1;
	}
	return 0;
}

int cmd_vmmeta(int argc, char **argv)
{
	struct vm_host h = { 0 };
	const char *wall = NULL, *userspace = NULL;
	char err[PATH_MAX + 512], path[PATH_MAX]; /* room for a path of DIR and why */
	int absent, check = 0, c, rc;
	json_t *doc = NULL;

	while ((c = cli_next(argc, argv, &vmmeta_cmd, &rc)) > 0) {
		switch (c) {
		case 'd': h.dir = optarg; break;
		case 'o': h.out = optarg; break;
		case 'f': h.force = 1; break;
		case 'w': wall = optarg; break;
		case 'u': userspace = optarg; break;
		case 'r': h.retried = optarg; break;
		case 'i': h.sig = optarg; break;
		case 's': h.sched = optarg; break;
		case 'c': h.calibrate = 1; break;
		case 'l': h.load = optarg; break;
		case 'k': check = 1; break;
		}
	}
	if (!c)
		return rc;
	if (check) {
		if (!h.out || optind != argc)
			return cli_misuse(&vmmeta_cmd, "%s", optind != argc ? "unexpected argument"
							: "--check-out needs --out");
		if (res_check_out(h.out, h.force, err, sizeof(err))) {
			fprintf(stderr, "slicebench vmmeta: %s\n", err);
			return EXIT_USAGE;
		}
		return 0;
	}
	if (!h.dir || !h.out || !wall || optind != argc)
		return cli_misuse(&vmmeta_cmd, "%s", optind != argc ? "unexpected argument"
						: "--files, --out and --wall are required");
	if (seconds_arg("wall", wall, &h.wall_s) || seconds_arg("userspace", userspace, &h.userspace_s))
		return EXIT_USAGE;
	if (res_check_out(h.out, h.force, err, sizeof(err)) ||
	    !(doc = vm_guest_json(h.dir, "result.json", 1, &absent, path, err, sizeof(err))) ||
	    merge(doc, &h, path, err, sizeof(err))) {
		fprintf(stderr, "slicebench vmmeta: %s\n", err);
		json_decref(doc);
		return EXIT_USAGE;
	}
	c = res_write(h.out, h.force, doc, err, sizeof(err));
	if (c) {
		char where[4096];
		int k = res_keep(h.out, doc, where, sizeof(where));

		fprintf(stderr, "slicebench vmmeta: %s\n", err);
		if (k >= 0)
			fprintf(stderr, "slicebench vmmeta: the result is kept in %s\n",
				k ? "stdout, one line of JSON" : where);
	}
	json_decref(doc);
	return c ? 1 : 0;
}
