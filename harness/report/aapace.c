/* aapace.c - an A/A pair's test, adjusted for the emulator's pace.
 *
 * A TCG guest's CPU runs at a pace that moves from window to window by
 * 10-30%, and a workload whose think section is calibrated in iterations
 * does fewer operations in a slow window, whichever arm runs it.  Each
 * window records the think's sampled median (harness/engine/drift.c); the arms of
 * an A/A pair cannot change it (the think runs outside the lock and the
 * request), so the pair's log ratio is adjusted for it (harness/lib/ancova.c).
 * The plain Welch test stays beside it in the check, and a workload that
 * samples no think (think_ns below 500 ns, or none) is tested plainly. */
#include "aapace.h"

#include <math.h>
#include <stdlib.h>

#include "resget.h"
#include "../lib/fields.h"

/* Every window's ops/s and think median (NAN without one). */
static size_t windows_of(const json_t *r, double **ops, double **cov)
{
	const json_t *reps = json_object_get(r, fld_r_reps), *x;
	size_t n = json_array_size(reps), i;
	double *v = calloc(2 * n + 1, sizeof(*v));

	if (!v)
		abort();
	json_array_foreach(reps, i, x) {
		v[i] = res_num(x, fld_ops_per_sec);
		v[n + i] = res_num(x, fld_cal_think_p50);
	}
	*ops = v;
	*cov = v + n;
	return n;
}

void aa_test(const json_t *a, const json_t *b, struct st_pace *t)
{
	double *oa, *ca, *ob, *cb;
	size_t na = windows_of(a, &oa, &ca), nb = windows_of(b, &ob, &cb);

	st_pace_test(oa, ca, na, ob, cb, nb, t);
	free(oa);
	free(ob);
}

json_t *aa_test_json(const struct st_pace *t, double level, double power)
{
	return st_pace_json(t, fld_cal_think_p50, level, power);
}
