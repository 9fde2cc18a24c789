/* repfault.c - a repetition's page faults and holder switch-outs: what
 * the faulting sections (faultcs.h) and the holder trace (holdtrace.h) add
 * to the result.  The faults are measured per lock thread from getrusage
 * (RUSAGE_THREAD's ru_minflt over the window), so a section that should
 * fault and does not shows as such. */
#include "rep.h"

#include <stdlib.h>

#include "../lib/resset.h"
#include "../os/holdtrace.h"
#include "../os/timing.h"

json_t *rep_faults(const struct rep *r, struct run_acc *acc)
{
	uint64_t mn = 0, mj = 0, ops = 0;
	json_t *per = json_array();

	for (unsigned i = 0; i < r->n; i++) {
		const struct acct *a = &r->w[i].acct;
		long f = a->measured ? a->ru1.ru_minflt - a->ru0.ru_minflt : 0;

		mn += (uint64_t)f;
		mj += a->measured ? (uint64_t)(a->ru1.ru_majflt - a->ru0.ru_majflt) : 0;
		ops += r->w[i].t.ops;
		json_array_append_new(per, json_integer(f));
	}
	acc->minflt += mn;
	acc->majflt += mj;
	return json_pack("{s:I,s:I,s:f,s:o}", fld_key(fld_faults_minflt), (json_int_t)mn,
			 fld_key(fld_faults_majflt), (json_int_t)mj, fld_key(fld_faults_minflt_per_op),
			 ops ? (double)mn / (double)ops : 0.0, fld_key(fld_faults_threads), per);
}

json_t *rep_fault_mem(const struct rep *r)
{
	return r->n ? fcs_json(&r->w[0].fault, (enum fcs_mem)r->w[0].fault_mem) : json_null();
}

static int *rep_tids(const struct rep *r)
{
	int *tids = calloc(r->n ? r->n : 1, sizeof(*tids));

	if (!tids)
		abort();
	for (unsigned i = 0; i < r->n; i++)
		tids[i] = r->w[i].t.tid;
	return tids;
}

void rep_holdtrace_begin(const struct rep *r, struct holdtrace *h)
{
	int *tids = rep_tids(r);

	holdtrace_begin(h, tids, r->n);
	free(tids);
}

json_t *rep_holdtrace_end(const struct rep *r, struct holdtrace *h)
{
	int *tids = rep_tids(r);
	struct hl_log **logs = calloc(r->n ? r->n : 1, sizeof(*logs));
	uint64_t grants = 0;

	if (!logs)
		abort();
	for (unsigned i = 0; i < r->n; i++) {
		logs[i] = r->w[i].t.hold_log;
		grants += r->w[i].t.slice_grants;
	}
	json_t *o = holdtrace_end(h, tids, logs, r->n, r->n ? r->w[0].t.hold_log_tsc : 0, grants);

	free(logs);
	free(tids);
	return o;
}

void rep_fault_summary(json_t *res, const struct run_acc *acc, struct holdtrace *h)
{
	json_t *sum = json_object_get(res, fld_r_summary);

	res_set(sum, fld_s_faults,
			    json_pack("{s:I,s:I,s:f}", fld_key(fld_s_faults_minflt),
				      (json_int_t)acc->minflt, fld_key(fld_s_faults_majflt),
				      (json_int_t)acc->majflt, fld_key(fld_s_faults_minflt_per_op),
				      acc->ops ? (double)acc->minflt / (double)acc->ops : 0.0));
	res_set(sum, fld_s_holder, holdtrace_summary(h));
}
