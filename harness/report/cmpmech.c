/* cmpmech.c - the mechanism beside a compare row's ratio (cmpmech.h). */
#include "cmpmech.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "resget.h"
#include "../lib/fields.h"
#include "../lib/stats.h"

static double fire_model(const json_t *r)
{
	const json_t *reps = json_object_get(r, fld_r_reps), *rep;
	double n = res_num(r, fld_r_nthreads), med = NAN;
	double *x = calloc(json_array_size(reps) + 1, sizeof(*x));
	size_t i, k = 0;

	if (!x)
		abort();
	json_array_foreach(reps, i, rep) {
		double p = res_num(rep, "rusage.nivcsw") / res_num(rep, "wall_s");
		double h = res_num(rep, "hold_ns.p50") / 1e9;

		if (isfinite(p) && isfinite(h) && h > 0 && n > 0)
			x[k++] = 1000 * p * h / n;
	}
	if (k)
		med = st_center(x, k, 1);
	free(x);
	return med;
}

void cmp_mechanism(json_t *side, const json_t *r)
{
	const json_t *rs = res_get(r, "summary.rseq_stats");
	double m = fire_model(r);

	if (isfinite(m))
		json_object_set_new(side, "can_fire_per_1000", json_real(m));
	if (rs && !strcmp(res_str(rs, "status", ""), "ok") && isfinite(res_num(rs, "sgrant")))
		json_object_set_new(side, "grants_ended",
				    json_pack("{s:f,s:f,s:f,s:f}", "granted", res_num(rs, "sgrant"),
					      "yielded", res_num(rs, "syield"), "revoked",
					      res_num(rs, "srevok"), "expired", res_num(rs, "sexpir")));
}
