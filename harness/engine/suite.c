/* suite.c - a suite's runs in order, each in its own process (isolate.c),
 * or under interleave each point's arms together (interleave.c). */
#define _GNU_SOURCE
#include "suite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interleave.h"
#include "isolate.h"
#include "../lib/resset.h"
#include "../os/counters.h"
#include "../os/reap.h"
#include "../os/signals.h"
#include "../lib/txtshow.h"
#include "../os/timing.h"

struct suite_state {
	const struct cfg_suite *s;
	json_t *results;
	int quiet;
	/* Interleaved: a point's arms all run at its first run, and each
	 * result waits in done[] for its place among the results. */
	struct il_order *il;
	json_t **done;
	/* The ETA is the planned windows left, scaled by how long the runs so
	 * far took against their plan: set-up, calibration and a slow guest
	 * add to every run, and the first run measures how much. */
	double t_start, left, planned_done;
	/* Runs whose windows the ETA has counted: a point's arms at once. */
	unsigned char *counted;
};

double suite_planned_s(const struct cfg_suite *s)
{
	double t = 0;

	for (size_t i = 0; i < s->nruns; i++)
		t += iso_planned_s(&s->runs[i].p);
	return t;
}

static void describe(const struct cfg_run *r, char *buf, size_t len)
{
	char th[32];
	const json_t *t = r->p.threads; /* an integer, or "Nx" */

	if (json_is_string(t))
		snprintf(th, sizeof(th), "%s", json_string_value(t));
	else
		snprintf(th, sizeof(th), "%lld", (long long)json_integer_value(t));
	snprintf(buf, len, "%s threads=%s cs_ns=%lld think_ns=%lld pin=%s", r->ops->name, th,
		 (long long)r->p.cs_ns, (long long)r->p.think_ns, r->p.pin);
}

static void progress(const struct suite_state *st, size_t i)
{
	char d[256];
	double eta = st->left;

	if (st->quiet || (st->done && st->done[i]))
		return;
	describe(&st->s->runs[i], d, sizeof(d));
	if (st->planned_done > 0)
		eta = st->left * (tm_now_ns() / 1e9 - st->t_start) / st->planned_done;
	fprintf(stderr, "[%zu/%zu] %s%s (ETA %.0f s)\n", i + 1, st->s->nruns, d,
		st->done ? " and its point's arms, interleaved" : "", eta);
}

/* Run i has run: its windows, and under interleave its point's, leave the
 * ETA's plan for its measure. */
static void count_done(struct suite_state *st, size_t i)
{
	for (size_t j = i; j < st->s->nruns; j++)
		if (!st->counted[j] && (j == i || (st->done && st->done[j]))) {
			double p = iso_planned_s(&st->s->runs[j].p);

			st->left -= p;
			st->planned_done += p;
			st->counted[j] = 1;
		}
}

static void add_result(struct suite_state *st, size_t i, json_t *r)
{
	const struct cfg_run *run = &st->s->runs[i];

	res_set(r, fld_r_id, json_integer((json_int_t)i));
	if (run->label)
		res_set(r, fld_r_label, json_string(run->label));
	json_array_append_new(st->results, r);
	const char *status = json_string_value(json_object_get(r, fld_r_status));
	const char *why = json_string_value(json_object_get(r, fld_r_reason));

	if (st->quiet || !strcmp(status, "ok"))
		return;
	/* A reason is said once: every slice run on a kernel without the
	 * extension has the same one. */
	size_t n = json_array_size(st->results);

	for (size_t k = 0; why && k + 1 < n; k++) {
		const json_t *o = json_array_get(st->results, k);
		const char *ow = json_string_value(json_object_get(o, fld_r_reason));

		if (ow && !strcmp(ow, why) &&
		    !strcmp(json_string_value(json_object_get(o, fld_r_status)), status)) {
			fprintf(stderr, "        %s (the reason above)\n", status);
			return;
		}
	}
	/* a program's stderr may end the reason: no control byte reaches
	 * the terminal */
	char *shown = why ? txt_term(why) : NULL;

	fprintf(stderr, "        %s: %s\n", status, shown ? shown : "(no reason given)");
	free(shown);
}

static void run_all(struct suite_state *st)
{
	for (size_t i = 0; i < st->s->nruns; i++) {
		/* The run in flight is marked "interrupted" (under interleave,
		 * every arm of its point), the ones not started are left out. */
		if (sig_pending() && !(st->done && st->done[i])) {
			if (!st->done)
				break;
			continue;
		}
		progress(st, i);
		if (st->done && !st->done[i])
			il_run_point(st->il, st->s, i, st->done);
		count_done(st, i);
		add_result(st, i, st->done ? st->done[i] : iso_run(&st->s->runs[i]));
	}
}

int suite_run(const struct cfg_suite *s, json_t *doc, int quiet)
{
	json_t *meta = json_object_get(doc, fld_meta);
	struct suite_state st = { .s = s, .results = json_object_get(doc, fld_results),
				  .quiet = quiet, .left = suite_planned_s(s) };

	res_set(meta, fld_m_perf_keys, cnt_keys_hold());
	st.t_start = tm_now_ns() / 1e9;
	st.il = s->interleave ? il_new(s->seed) : NULL;
	st.done = st.il ? calloc(s->nruns, sizeof(*st.done)) : NULL;
	st.counted = calloc(s->nruns + 1, 1);
	if ((s->interleave && !st.done) || !st.counted)
		abort();
	if (st.il)
		res_set(meta, fld_m_interleave, il_meta(st.il));
	/* What a killed run's programs leave comes here, to be killed (reap.h). */
	if (reap_become())
		fprintf(stderr, "slicebench: warning: PR_SET_CHILD_SUBREAPER: %s: processes a "
				"killed run's programs leave may outlive it\n", strerror(errno));
	run_all(&st);
	free(st.done);
	free(st.counted);
	il_free(st.il);
	cnt_keys_release();
	int sig = sig_pending();

	if (sig)
		res_set(meta, fld_m_interrupted,
			json_pack("{s:i,s:s,s:I,s:I}", fld_key(fld_m_int_signal), sig,
				  fld_key(fld_m_int_name), strsignal(sig), fld_key(fld_m_int_done),
				  (json_int_t)json_array_size(st.results),
				  fld_key(fld_m_int_planned), (json_int_t)s->nruns));
	return sig;
}
