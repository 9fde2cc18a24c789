/* timescale.c - the timescale verb: how many times slower this machine
 * (a guest) runs the same loop than the host it stands for, and the
 * kernel's time constants scaled by it.
 *
 * Under TCG a guest runs code several times slower than its host, and
 * the kernel's own paths (the grant on the interrupt's return, the slice
 * timer's arming, the release and rseq_slice_yield()) are not calibrated
 * busy work: a critical section that fits in 5 us on a real machine
 * outlasts 5 us of guest time, and the grant is revoked before the holder
 * releases the lock.  Scaling the extension by the slowdown k keeps the
 * ratio of the extension to the emulated critical section; the tick (HZ,
 * fixed at build time) cannot be scaled, so it is recorded with its
 * host-equivalent length.
 *
 * k is timing.c's calibrated busy loop timed on both sides: the host's
 * rates (iterations per ns, each pass the fastest of five trials) reach
 * the guest on its command line, the guest measures its own, and k =
 * the host's median / each guest pass. */
#define _GNU_SOURCE
#include "timescale.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../engine/results.h"
#include "../lib/cliopt.h"
#include "../lib/exitcodes.h"
#include "../lib/stats.h"
#include "../os/knobs.h"
#include "../os/sysinfo.h"
#include "../os/timing.h"

#define TS_MAX_RATES 50
#define TS_EXT_DEFAULT 5000
/* Mainline's harmonic mean of granted extension durations, expired grants
 * left out (rseq-slice-hist.py), in the commit that lowered the default
 * extension to 5 us: what a real machine's grant takes from grant to
 * rseq_slice_yield(). */
#define TS_MAINLINE_HM_NS 350.266
#define BASE_SLICE "sched/base_slice_ns"
#define EXT_KNOB "rseq/slice_ext_nsec"

static const struct cli_opt ts_opts[] = {
	{ 'p', "passes", "N", "probe passes (1..50, default 5), each on the next\n"
			      "allowed CPU, each the fastest of five trials" },
	{ 'H', "host-rates", "LIST", "the host's rates as the probe printed them\n"
				     "(iterations/ns, comma separated): measure this\n"
				     "machine and set its slowdown k against them" },
	{ 'g', "guest-rates", "LIST", "this machine's rates, given instead of measured" },
	{ 'M', "mech-result", "FILE", "a result of configs/vm-timescale.json (the kernel's\n"
				      "slice_test pattern, each grant timed): the\n"
				      "extension's own path's slowdown, its harmonic mean\n"
				      "grant over mainline's 350.266 ns" },
	{ 'm', "mode", "MODE", "off (default: k recorded only), auto (the extension\n"
			       "by the mechanism's slowdown where measured, else the\n"
			       "loop's; the base slice by the loop's) or K (both by K,\n"
			       "1..1000)" },
	{ 'e', "ext-host-ns", "N", "the host-equivalent extension length (1000..1000000,\n"
				   "default 5000, mainline's default)" },
	{ 'a', "apply", NULL, "write the scaled lengths to debugfs rseq/slice_ext_nsec\n"
			      "and sched/base_slice_ns" },
	{ 'o', "out", "FILE", "the record (meta.vm.timescale), JSON" },
	{ 'h', "help", NULL, "this text" },
	{ 0 }
};

static const struct cli_cmd ts_cmd = {
	.name = "timescale",
	.synopsis = "slicebench timescale [--passes N]\n"
		    "       slicebench timescale --host-rates LIST [--mode off|auto|K]\n"
		    "                            [--ext-host-ns N] [--apply] [--out FILE]\n",
	.about = "Without --host-rates: times the calibrated busy loop (timing.c) and prints\n"
		 "this machine's rates, comma separated (scripts/vm.sh, on the host).  With\n"
		 "them (the guest's init): times the loop here, prints the slowdown k (the\n"
		 "host's median rate over each pass's; host-equivalent ns = guest ns / k)\n"
		 "and records it; with --mode auto or K the extension becomes\n"
		 "--ext-host-ns times k (clamped to the kernel's range, the clamp recorded)\n"
		 "and the scheduler's base slice k times its value; the tick (HZ) cannot\n"
		 "be scaled and is recorded with its host-equivalent length.\n",
	.opts = ts_opts,
	.exits = "0 ok, 1 a debugfs length could not be written, 2 bad usage",
};

int ts_parse_k(const char *s, double lo, double hi, double *k, char *err, size_t len)
{
	char *end;

	errno = 0;
	*k = s && *s && strspn(s, "0123456789.") == strlen(s) ? strtod(s, &end) : NAN;
	if (isnan(*k) || *end || errno) {
		snprintf(err, len, "'%s' is not a number (decimal digits and a point)", s ? s : "");
		return -1;
	}
	if (*k < lo || *k > hi) {
		snprintf(err, len, "'%s' is out of range %g..%g", s, lo, hi);
		return -1;
	}
	return 0;
}

/* "1.02,0.98,..." into x (at most TS_MAX_RATES positive numbers). */
static int rates_parse(const char *opt, const char *s, double *x, size_t *n)
{
	char *dup = strdup(s), *save = NULL, err[160];
	int rc = 0;

	*n = 0;
	for (char *t = strtok_r(dup, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		if (*n == TS_MAX_RATES)
			rc = cli_misuse(&ts_cmd, "--%s: more than %d rates", opt, TS_MAX_RATES);
		else if (ts_parse_k(t, 1e-6, 1e6, &x[(*n)++], err, sizeof(err)))
			rc = cli_misuse(&ts_cmd, "--%s '%s': %s", opt, s, err);
	}
	if (!rc && !*n)
		rc = cli_misuse(&ts_cmd, "--%s '%s': no rate", opt, s);
	free(dup);
	return rc;
}

/* n passes of the busy loop, pass i on the i-th allowed CPU (round). */
static void probe(double *x, size_t n)
{
	cpu_set_t set;
	int cpus[CPU_SETSIZE], nc = 0;

	tm_calibrate();
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cpus[nc++] = c;
	for (size_t i = 0; i < n; i++)
		x[i] = tm_probe_on(nc ? cpus[i % (size_t)nc] : -1);
}

static json_t *spread(const double *x, size_t n, int digits)
{
	struct st_summary s;
	json_t *each = json_array();
	double f = pow(10, digits);

	st_summarize(x, n, &s);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(each, json_real(round(x[i] * f) / f));
	return json_pack("{s:I,s:f,s:f,s:f,s:o}", "n", (json_int_t)n, "min", round(s.min * f) / f,
			 "median", round(s.median * f) / f, "max", round(s.max * f) / f, "each",
			 each);
}

static double median(const double *x, size_t n)
{
	struct st_summary s;

	st_summarize(x, n, &s);
	return s.median;
}

/* The extension: the host-equivalent length times k, clamped, written
 * (falling back to mainline's maximum where the kernel refuses the wide
 * one).  Returns -1 when a write failed (recorded). */
static int extension(json_t *o, double k, long host_ns, int apply)
{
	char clamp[192];
	long want = knob_clamp_ext((double)host_ns * k, SLICE_EXT_NSEC_WIDE_MAX, clamp,
				   sizeof(clamp));
	int rc = apply ? knob_write_debugfs(EXT_KNOB, want) : 0;

	if (rc == -ERANGE && want > SLICE_EXT_NSEC_MAX) {
		want = knob_clamp_ext((double)want, SLICE_EXT_NSEC_MAX, clamp, sizeof(clamp));
		rc = knob_write_debugfs(EXT_KNOB, want);
	}
	json_object_set_new(o, "host_equivalent_ns", json_integer(host_ns));
	json_object_set_new(o, "guest_ns", json_integer(want));
	if (*clamp)
		json_object_set_new(o, "clamped", json_string(clamp));
	if (rc)
		json_object_set_new(o, "error", json_sprintf("debugfs %s: %s", EXT_KNOB, strerror(-rc)));
	return rc ? -1 : 0;
}

/* debugfs file rel as a number, or -1 with *why. */
static long debugfs_num(const char *rel, const char **why)
{
	char *s = sysinfo_debugfs_read(rel, why);
	long v = s ? atol(s) : -1;

	free(s);
	return v;
}

/* The scheduler's base slice (EEVDF's request size): scaled by k when
 * asked, its value before and after recorded.  -1 when a write failed. */
static int base_slice(json_t *o, double k, int scale, int apply)
{
	const char *why = NULL;
	long before = debugfs_num(BASE_SLICE, &why);
	int rc = 0;

	if (before < 0) {
		json_object_set_new(o, "base_slice", json_pack("{s:s}", "unavailable", why));
		return 0;
	}
	json_t *b = json_pack("{s:I}", "before_ns", (json_int_t)before);
	long now = before;

	if (scale) {
		now = lround((double)before * k);
		if (apply && (rc = knob_write_debugfs(BASE_SLICE, now)))
			json_object_set_new(b, "error", json_sprintf("debugfs %s: %s", BASE_SLICE,
								     strerror(-rc)));
	}
	json_object_set_new(b, "guest_ns", json_integer(now));
	json_object_set_new(b, "host_equivalent_ns", json_real(round((double)now / k)));
	json_object_set_new(b, "scaled", json_boolean(scale));
	json_object_set_new(o, "base_slice", b);
	return rc ? -1 : 0;
}

/* The tick and HRTICK: what cannot be scaled, or decides it. */
static void fixed(json_t *o, double k)
{
	int hz = sysinfo_hz();
	const char *why = NULL;
	char *feat = sysinfo_debugfs_read("sched/features", &why);
	const char *h = feat ? strstr(feat, "HRTICK") : NULL;
	json_t *t = json_pack("{s:b,s:s}", "scaled", 0, "why",
			      "HZ is fixed when the kernel is built");

	if (hz > 0) {
		json_object_set_new(t, "hz", json_integer(hz));
		json_object_set_new(t, "period_ns", json_integer(1000000000 / hz));
		json_object_set_new(t, "host_equivalent_ns", json_real(round(1e9 / hz / k)));
	}
	json_object_set_new(o, "tick", t);
	/* "HRTICK" or "NO_HRTICK" in sched/features: whether a hrtimer or the
	 * tick ends a slice */
	if (h)
		json_object_set_new(o, "hrtick", json_boolean(!(h >= feat + 3 && !strncmp(h - 3, "NO_", 3))));
	free(feat);
}

/* "mechanism": the harmonic mean of the grants timed in FILE (its first
 * result's summary.slice.extension_ns) over mainline's; its k, or 0 with
 * the reason recorded.  A file that is not a result is a usage error. */
static int mechanism(json_t *o, const char *file, double *k)
{
	json_error_t je;
	json_t *d = json_load_file(file, 0, &je), *r, *e;
	const char *st;

	*k = 0;
	if (!d) {
		fprintf(stderr, "slicebench timescale: --mech-result %s: %s (line %d)\n", file, je.text,
			je.line);
		return -1;
	}
	r = json_array_get(json_object_get(d, "results"), 0);
	e = json_object_get(json_object_get(json_object_get(r, "summary"), "slice"), "extension_ns");
	st = json_string_value(json_object_get(r, "status"));
	double hm = json_number_value(json_object_get(e, "harmonic_mean"));
	json_int_t n = json_integer_value(json_object_get(e, "count"));

	if (!st || strcmp(st, "ok") || !(hm > 0) || n < 1) {
		const char *why = json_string_value(json_object_get(r, "reason"));

		json_object_set_new(o, "mechanism",
				    json_pack("{s:s,s:s}", "unavailable",
					      st && strcmp(st, "ok") ? st : "no grant was timed",
					      "reason", why ? why : ""));
	} else {
		*k = hm / TS_MAINLINE_HM_NS;
		json_object_set_new(o, "mechanism",
				    json_pack("{s:s,s:f,s:I,s:f,s:f}", "what",
					      "the harmonic mean grant (grant to rseq_slice_yield) of the "
					      "kernel's slice_test pattern, over mainline's",
					      "harmonic_mean_ns", round(hm), "grants_timed", n,
					      "mainline_ns", TS_MAINLINE_HM_NS, "k",
					      round(*k * 100) / 100));
	}
	json_decref(d);
	return 0;
}

struct ts_args {
	const char *host, *guest, *mode, *out, *mech;
	long passes, ext;
	int apply;
};

static int ts_parse(int argc, char **argv, struct ts_args *a)
{
	int c, rc;
	char *end;

	while ((c = cli_next(argc, argv, &ts_cmd, &rc)) > 0) {
		switch (c) {
		case 'p':
			a->passes = strtol(optarg, &end, 10);
			if (*end || a->passes < 1 || a->passes > TS_MAX_RATES)
				return cli_misuse(&ts_cmd, "--passes '%s': not a whole number in 1..%d",
						  optarg, TS_MAX_RATES);
			break;
		case 'H': a->host = optarg; break;
		case 'g': a->guest = optarg; break;
		case 'm': a->mode = optarg; break;
		case 'e':
			a->ext = strtol(optarg, &end, 10);
			if (!*optarg || *end || a->ext < 1000 || a->ext > SLICE_EXT_NSEC_WIDE_MAX)
				return cli_misuse(&ts_cmd, "--ext-host-ns '%s': not a whole number in 1000..%d",
						  optarg, SLICE_EXT_NSEC_WIDE_MAX);
			break;
		case 'a': a->apply = 1; break;
		case 'M': a->mech = optarg; break;
		case 'o': a->out = optarg; break;
		}
	}
	if (!c)
		return rc;
	if (optind != argc)
		return cli_misuse(&ts_cmd, "unexpected argument '%s'", argv[optind]);
	if (!a->host && (a->guest || a->mode || a->apply || a->out || a->ext || a->mech))
		return cli_misuse(&ts_cmd, "--guest-rates, --mech-result, --mode, --ext-host-ns, --apply "
					   "and --out need --host-rates");
	return -1;
}

int cmd_timescale(int argc, char **argv)
{
	struct ts_args a = { .passes = 5 };
	double host[TS_MAX_RATES], guest[TS_MAX_RATES], ks[TS_MAX_RATES], k, kap = 0;
	size_t nh = 0, ng = 0;
	char err[512];
	int rc = ts_parse(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (!a.host) {
		probe(host, (size_t)a.passes);
		for (long i = 0; i < a.passes; i++)
			printf("%s%.4f", i ? "," : "", host[i]);
		printf("\n");
		return 0;
	}
	if (rates_parse("host-rates", a.host, host, &nh) ||
	    (a.guest && rates_parse("guest-rates", a.guest, guest, &ng)))
		return EXIT_USAGE;
	const char *mode = !a.mode || !strcmp(a.mode, "off") ? "off"
			   : !strcmp(a.mode, "auto")	     ? "auto"
							     : "fixed";

	if (!strcmp(mode, "fixed") && ts_parse_k(a.mode, TS_K_MIN, TS_K_MAX, &kap, err, sizeof(err)))
		return cli_misuse(&ts_cmd, "--mode: %s (off, auto, or a slowdown %g..%g)", err,
				  TS_K_MIN, TS_K_MAX);
	if (!strcmp(mode, "off") && a.ext)
		return cli_misuse(&ts_cmd, "--ext-host-ns needs --mode auto or K");
	if (a.out && res_check_out(a.out, 1, err, sizeof(err))) {
		fprintf(stderr, "slicebench timescale: %s\n", err);
		return EXIT_USAGE;
	}
	if (!a.guest) {
		ng = (size_t)a.passes;
		probe(guest, ng);
	}
	for (size_t i = 0; i < ng; i++)
		ks[i] = median(host, nh) / guest[i];
	k = median(ks, ng);
	if (!strcmp(mode, "auto"))
		kap = k;

	json_t *o = json_pack("{s:s,s:o,s:o,s:o,s:s,s:s}", "loop",
			      "timing.c's calibrated busy loop: 2,000,000 iterations, each pass "
			      "the fastest of five trials",
			      "host_iters_per_ns", spread(host, nh, 4), "guest_iters_per_ns",
			      spread(guest, ng, 4), "k", spread(ks, ng, 2), "mapping",
			      "host-equivalent ns = guest ns / k (k: the host's median rate over "
			      "each guest pass's)",
			      "mode", mode);
	double kmech = 0, kslice = kap > 0 ? kap : k;

	if (a.mech && mechanism(o, a.mech, &kmech)) {
		json_decref(o);
		return EXIT_USAGE;
	}
	/* auto: the extension must outlast the grant's own path, which the
	 * mechanism's k measures; the loop's k is the user code's */
	if (!strcmp(mode, "auto") && kmech > 0)
		kap = kmech;
	if (!strcmp(mode, "auto"))
		json_object_set_new(o, "k_source", json_string(kmech > 0 ? "mechanism" : "loop"));
	/* the extension's slowdown: what results state host-equivalent
	 * extensions by (in force / it), also where nothing is scaled */
	double kuse = kap > 0 ? kap : kmech > 0 ? kmech : k;

	json_object_set_new(o, "k_extension", json_real(round(kuse * 100) / 100));
	json_t *ext = json_object();

	rc = 0;
	if (kap > 0) {
		json_object_set_new(o, "k_applied", json_real(round(kap * 100) / 100));
		rc |= extension(ext, kap, a.ext ? a.ext : TS_EXT_DEFAULT, a.apply);
	}
	json_object_set_new(o, "extension", ext);
	rc |= base_slice(o, kslice, kap > 0, a.apply);
	/* read back: what the suite will run with */
	const char *why = NULL;
	long in_force = debugfs_num(EXT_KNOB, &why);

	if (in_force >= 0) {
		json_object_set_new(ext, "in_force_ns", json_integer(in_force));
		json_object_set_new(ext, "in_force_host_equivalent_ns",
				    json_real(round((double)in_force / kuse * 10) / 10));
	} else {
		json_object_set_new(ext, "in_force_unavailable", json_string(why));
	}
	fixed(o, kslice);
	if (a.out && res_write(a.out, 1, o, err, sizeof(err))) {
		fprintf(stderr, "slicebench timescale: %s\n", err);
		json_decref(o);
		return 1;
	}
	json_decref(o);
	printf("%.3f\n", kuse);
	return rc ? 1 : 0;
}
