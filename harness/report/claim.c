/* claim.c - the verdict on a published claim (claim.h), and the verb
 * `slicebench verdict` that gives it to scripts. */
#define _GNU_SOURCE
#include "claim.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "resget.h"
#include "../lib/cliopt.h"
#include "../lib/exitcodes.h"
#include "../lib/verdict.h"

/* The row's direction in raw B/A terms: 1 up, -1 down, 0 equivalent, 2
 * none shown. */
static int direction(const json_t *row)
{
	const char *v = res_str(row, "verdict", "");
	int lower = json_is_true(json_object_get(row, "lower_is_better"));

	if (vd_is(v, VD_COLLAPSED)) {
		const char *rd = res_str(row, "reading", "");

		v = strstr(rd, vd_name(VD_REGRESSED))	? vd_name(VD_REGRESSED)
		    : strstr(rd, vd_name(VD_IMPROVED)) ? vd_name(VD_IMPROVED)
						       : "";
	}
	if (vd_is(v, VD_IMPROVED))
		return lower ? -1 : 1;
	if (vd_is(v, VD_REGRESSED))
		return lower ? 1 : -1;
	return json_is_true(json_object_get(json_object_get(row, "tost"), "equivalent")) ? 0 : 2;
}

static json_t *out(enum sb_verdict v, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static json_t *out(enum sb_verdict v, const char *reason, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return json_pack("{s:s,s:s?,s:s}", "verdict", vd_name(v), "reason", reason, "why", why);
}

static const char *dir_name(int d)
{
	return d > 0 ? "up" : d < 0 ? "down" : "no change";
}

json_t *claim_judge(const json_t *in)
{
	const json_t *row = json_object_get(in, "row");
	double p = res_num(in, "published");
	double band = json_is_number(json_object_get(in, "band")) ? res_num(in, "band") : 0.05;
	const char *nc = res_str(in, "not_comparable", NULL);

	if (!(p > 0))
		return out(VD_CANNOT_TELL, "no figure", "no published figure");
	if (nc)
		return out(VD_NOT_COMPARABLE, NULL, "a different experiment: %s", nc);
	if (json_is_true(json_object_get(in, "value")) && !res_str(in, "missing", NULL))
		return out(VD_CANNOT_TELL, "no interval",
			   "one pooled value per run: the suite gives it no interval");
	if (!json_is_object(row))
		return out(VD_CANNOT_TELL, "not measured", "not measured here%s%s",
			   res_str(in, "missing", NULL) ? ": " : "", res_str(in, "missing", ""));

	const json_t *aa = json_object_get(row, "control_aa");
	const char *against = res_str(row, "a.workload", "the control");
	double r = res_num(row, "ratio"), mde = res_num(row, "mde.ratio");

	if (vd_is(res_str(aa, "verdict", NULL), VD_INVALID))
		return out(VD_CANNOT_TELL, "control",
			   "the dry control failed its A/A check (real / dry %.3f where no grant "
			   "can happen): the ratio measures its stores too",
			   res_num(aa, "ratio"));
	/* A claim about the request's cost (one thread: nothing to grant) is
	 * not one about the grants. */
	int cost = !strcmp(res_str(in, "about", "grants"), "cost");

	if (!cost && json_is_true(json_object_get(json_object_get(row, "mechanism"), "too_rare")))
		return out(VD_CANNOT_TELL, "mechanism",
			   "the extension fired %.3g times per 1000 acquisitions, too rarely to "
			   "move the ratio (x%.3f against %s)",
			   res_num(row, "mechanism.grants_per_1000_ops"), r, against);

	int dp = p > 1 + band ? 1 : p < 1 / (1 + band) ? -1 : 0, d = direction(row);
	const json_t *ci = json_object_get(row, "ratio_ci95");
	double lo = json_is_number(json_array_get(ci, 0)) ? json_number_value(json_array_get(ci, 0))
							  : NAN;
	double hi = json_is_number(json_array_get(ci, 1)) ? json_number_value(json_array_get(ci, 1))
							  : NAN;
	int inside = !isfinite(lo) || (p >= lo / (1 + band) && p <= hi * (1 + band));

	if (dp == 0 && d == 0)
		return out(VD_REPRODUCED, NULL, "equivalent within +-%.3g%%, as published",
			   100 * band);
	if (dp != 0 && d == dp && inside)
		return out(VD_REPRODUCED, NULL,
			   "x%.3f [%.3f, %.3f] against %s, the published x%.3g inside it", r,
			   lo, hi, against, p);
	if (dp != 0 && d == dp)
		return out(VD_CONTRADICTED, NULL,
			   "the same direction, another size: x%.3f [%.3f, %.3f], the published "
			   "x%.3g outside it",
			   r, lo, hi, p);
	if (d != 2)
		return out(VD_CONTRADICTED, NULL, "published %s (x%.3g), here %s (x%.3f)", dir_name(dp),
			   p, dir_name(d), r);
	if (dp != 0 && isfinite(mde) && (p >= mde || p <= 1 / mde))
		return out(VD_CONTRADICTED, NULL,
			   "not seen (x%.3f), though the design's MDE x%.3g reached the published "
			   "x%.3g",
			   r, mde, p);
	if (isfinite(mde))
		return out(VD_CANNOT_TELL, "power",
			   "the design could not detect the published x%.3g: MDE x%.3g (here "
			   "x%.3f)",
			   p, mde, r);
	return out(VD_CANNOT_TELL, "power", "no test of the row: %s",
		   res_str(row, "why", "fewer than 2 values a side"));
}

static const struct cli_opt verdict_opts[] = {
	{ 'h', "help", NULL, "this text" },
	{ 0 },
};

static const struct cli_cmd verdict_cmd = {
	.name = "verdict",
	.synopsis = "slicebench verdict <CLAIMS.json\n",
	.about = "Reads a JSON array of claims on stdin, each {published, row, missing,\n"
		 "not_comparable, band, value}: a published ratio and the compare row\n"
		 "(--format json) of the extension's arm against its dry control, and\n"
		 "prints the array of verdicts, each {verdict, reason, why}:\n"
		 "reproduced, contradicted, cannot tell (reason: no figure, not\n"
		 "measured, control, mechanism, power, no interval) or not comparable.\n"
		 "The replication kit (scripts/replicate.sh) and the study reports\n"
		 "take their verdicts from the same function.\n",
	.opts = verdict_opts,
	.exits = "0 done, 2 the input is not a JSON array of objects",
};

int cmd_verdict(int argc, char **argv)
{
	int c, st;
	json_error_t e;

	while ((c = cli_next(argc, argv, &verdict_cmd, &st)) != -1)
		if (!c)
			return st;
	if (optind < argc)
		return cli_misuse(&verdict_cmd, "unexpected argument \"%s\"", argv[optind]);
	json_t *in = json_loadf(stdin, 0, &e), *v, *res;
	size_t i;

	if (!json_is_array(in)) {
		fprintf(stderr, "slicebench verdict: stdin: %s\n",
			in ? "not a JSON array" : e.text);
		json_decref(in);
		return EXIT_USAGE;
	}
	res = json_array();
	json_array_foreach(in, i, v) {
		if (!json_is_object(v)) {
			fprintf(stderr, "slicebench verdict: stdin: [%zu]: not an object\n", i);
			json_decref(in);
			json_decref(res);
			return EXIT_USAGE;
		}
		json_array_append_new(res, claim_judge(v));
	}
	json_dumpf(res, stdout, JSON_INDENT(1));
	putchar('\n');
	json_decref(in);
	json_decref(res);
	return 0;
}
