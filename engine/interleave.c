/* interleave.c - a point's arms as live children taking turns.
 *
 * Each arm is forked once, calibrates and opens its traces, says ready and
 * then blocks on its go pipe; the parent gives it one byte per repetition
 * and waits for its answer before the next arm's turn.  Arms that are not
 * on their turn hold no threads (a repetition's threads end with it), so
 * only one arm loads the machine at a time, as without interleave.  Each
 * round visits the arms still wanting repetitions in a fresh order from
 * gsl_ran_shuffle (GSL manual, "Shuffling and Sampling").  The watchdog of
 * an arm (its timeout_s, or planned time + 30 s) is charged only during
 * its own turns, and an arm that crashes, hangs or is refused ends with its
 * reason while the rounds go on without it. */
#define _GNU_SOURCE
#include "interleave.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "isolate.h"
#include "../core/keys.h"
#include "../os/knobs.h"
#include "../os/signals.h"
#include "../os/reap.h"

/* The child's answers on its ack pipe. */
enum { IL_READY = 'r', IL_MORE = 'm', IL_LAST = 'l' };

struct il_order {
	gsl_rng *rng;
	unsigned long seed;
	size_t points;
};

struct il_arm {
	const struct cfg_run *run;
	size_t id;
	pid_t pid;
	int go, ack, out; /* the parent's ends */
	double limit;
	struct iso_watch w;
	json_t *res; /* set once the arm is over */
};

static void say(const struct il_gate *g, char c)
{
	/* Unanswerable: the parent is gone, and PR_SET_PDEATHSIG ends us. */
	if (write(g->ack_fd, &c, 1) != 1)
		_exit(5);
}

void il_ready(const struct il_gate *g)
{
	if (g)
		say(g, IL_READY);
}

int il_turn(const struct il_gate *g)
{
	char c;
	ssize_t r;

	if (!g)
		return 0;
	while ((r = read(g->go_fd, &c, 1)) < 0 && errno == EINTR)
		;
	return r == 1 ? 0 : -1;
}

void il_turn_done(const struct il_gate *g, int last)
{
	if (g)
		say(g, last ? IL_LAST : IL_MORE);
}

struct il_order *il_new(unsigned long seed)
{
	struct il_order *o = calloc(1, sizeof(*o));

	if (!o || !(o->rng = gsl_rng_alloc(gsl_rng_mt19937))) {
		free(o);
		return NULL;
	}
	/* 0 asks for a fresh order; it is recorded, so the run can be redone. */
	o->seed = seed ? seed
		       : ((unsigned long)time(NULL) ^ (unsigned long)getpid() << 16) % 999999999 + 1;
	gsl_rng_set(o->rng, o->seed);
	return o;
}

void il_free(struct il_order *o)
{
	if (o)
		gsl_rng_free(o->rng);
	free(o);
}

json_t *il_meta(const struct il_order *o)
{
	return json_pack("{s:I,s:s}", "seed", (json_int_t)o->seed, "rng", gsl_rng_name(o->rng));
}

/* What makes runs one point: every run key but the selectors, and for a
 * program its own keys (its command and metric: which experiment it is). */
static char *point_key(const struct cfg_run *r)
{
	json_t *o = json_object(), *v;
	const char *k;

	json_object_foreach(r->params, k, v)
		if (!cfg_is_selector(k) && wl_point_key(r->ops, k))
			json_object_set(o, k, v);
	char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(o);
	return s;
}

static void close_ends(struct il_arm *a)
{
	if (a->go >= 0)
		close(a->go);
	if (a->ack >= 0)
		close(a->ack);
	a->go = a->ack = -1;
}

/* The arm is over (its last turn, its end, its watchdog or a signal): its
 * result, or the reason it has none. */
static void arm_finish(struct il_arm *a)
{
	close_ends(a);
	iso_watch_resume(&a->w);
	a->res = iso_collect(a->run, a->pid, a->out, &a->w, a->limit);
}

/* The arm's next answer, or 0 when it ended, its watchdog fired or a stop
 * signal came. */
static int arm_hear(struct il_arm *a)
{
	char c;

	iso_watch_resume(&a->w);
	if (iso_wait(&a->w, a->ack) > 0 && read(a->ack, &c, 1) == 1)
		return c;
	return 0;
}

static void arm_spawn(struct il_arm *arms, size_t n, struct il_arm *a)
{
	int go[2], ack[2], out[2] = { -1, -1 };

	if (pipe2(go, O_CLOEXEC) || pipe2(ack, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		a->res = iso_status(a->run, "failed", strerror(errno));
		return; /* the parent runs out of descriptors: the suite ends soon */
	}
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();

	if (!pid) {
		/* The other arms' pipes are theirs: a copy here would keep
		 * their ends open. */
		for (size_t j = 0; j < n; j++)
			if (&arms[j] != a && arms[j].pid > 0 && !arms[j].res) {
				close_ends(&arms[j]);
				close(arms[j].out);
			}
		close(go[1]);
		close(ack[0]);
		close(out[0]);
		struct il_gate g = { go[0], ack[1] };

		iso_child(a->run, out[1], parent, &g);
	}
	close(go[0]);
	close(ack[1]);
	close(out[1]);
	a->go = go[1];
	a->ack = ack[0];
	a->out = out[0];
	if (pid < 0) {
		close_ends(a);
		close(a->out);
		a->res = iso_status(a->run, "failed", strerror(errno));
		return;
	}
	a->pid = pid;
	reap_track(pid);
	iso_watch_start(&a->w, a->limit);
	/* One at a time: the arms calibrate their busy loops on an idle
	 * machine, not beside each other. */
	if (arm_hear(a) != IL_READY)
		arm_finish(a);
}

/* One round: every arm still wanting repetitions, once, in a shuffled
 * order; the order as run ids. */
static json_t *round_run(struct il_order *o, struct il_arm *arms, size_t n, size_t *ord)
{
	json_t *ids = json_array();
	size_t m = 0;

	for (size_t j = 0; j < n; j++)
		if (!arms[j].res)
			ord[m++] = j;
	gsl_ran_shuffle(o->rng, ord, m, sizeof(*ord));
	for (size_t t = 0; t < m && !sig_pending(); t++) {
		struct il_arm *a = &arms[ord[t]];
		char go = 'g';

		json_array_append_new(ids, json_integer((json_int_t)a->id));
		/* EPIPE (SIGPIPE is ignored): the arm died between turns. */
		if (write(a->go, &go, 1) != 1 || arm_hear(a) != IL_MORE)
			arm_finish(a);
	}
	return ids;
}

static void point_done(struct il_order *o, struct il_arm *arms, size_t n, json_t *rounds,
		       long in_force, json_t **done)
{
	json_t *ids = json_array();

	for (size_t j = 0; j < n; j++)
		json_array_append_new(ids, json_integer((json_int_t)arms[j].id));
	for (size_t j = 0; j < n; j++) {
		json_t *r = arms[j].res;

		if (in_force >= 0)
			json_object_set_new(r, "slice_ext_nsec_in_force", json_integer(in_force));
		json_object_set_new(r, "interleave",
				    json_pack("{s:I,s:I,s:O,s:O}", "seed", (json_int_t)o->seed,
					      "point", (json_int_t)o->points, "arms", ids,
					      "rounds", rounds));
		done[arms[j].id] = r;
	}
	json_decref(ids);
	o->points++;
}

/* The runs of s->runs[first]'s point not yet taken, from first on, into
 * idx; their count.  A workload that measures itself (primitives) has no
 * repetitions to interleave: it is a point alone.  A program's arms take
 * turns like a lock's. */
static size_t point_of(const struct cfg_suite *s, size_t first, const unsigned char *taken,
		       size_t *idx)
{
	const struct workload_ops *o0 = s->runs[first].ops;
	char *key = point_key(&s->runs[first]);
	size_t n = 0;

	if (!key)
		abort();
	for (size_t i = first; i < s->nruns && !(n && o0->measure); i++) {
		const struct cfg_run *r = &s->runs[i];
		char *k;

		if (taken[i] || (i > first && r->ops->measure))
			continue;
		if (!(k = point_key(r)))
			abort();
		if (!strcmp(k, key))
			idx[n++] = i;
		free(k);
	}
	free(key);
	return n;
}

size_t il_points(const struct cfg_suite *s)
{
	unsigned char *taken = calloc(s->nruns + 1, 1);
	size_t *idx = calloc(s->nruns + 1, sizeof(*idx)), np = 0;

	if (!taken || !idx)
		abort();
	for (size_t i = 0; i < s->nruns; i++) {
		if (taken[i])
			continue;
		for (size_t j = 0, n = point_of(s, i, taken, idx); j < n; j++)
			taken[idx[j]] = 1;
		np++;
	}
	free(taken);
	free(idx);
	return np;
}

void il_run_point(struct il_order *o, const struct cfg_suite *s, size_t first, json_t **done)
{
	const struct cfg_run *r0 = &s->runs[first];
	struct il_arm *arms = calloc(s->nruns - first, sizeof(*arms));
	size_t *ord = calloc(s->nruns - first, sizeof(*ord)), n;
	unsigned char *taken = calloc(s->nruns, 1);
	char why[320];

	if (!arms || !ord || !taken)
		abort();
	for (size_t i = 0; i < s->nruns; i++)
		taken[i] = !!done[i];
	n = point_of(s, first, taken, ord);
	free(taken);
	for (size_t j = 0; j < n; j++) {
		const struct cfg_run *r = &s->runs[ord[j]];

		arms[j] = (struct il_arm){ .run = r, .id = ord[j], .go = -1, .ack = -1, .out = -1,
					   .limit = iso_timeout_s(r->params) };
	}
	json_t *rounds = json_array();
	long in_force = -1;

	/* The arms of a point share its run keys, so its system settings. */
	if (knob_apply(r0->params, why, sizeof(why))) {
		for (size_t j = 0; j < n; j++)
			arms[j].res = iso_status(arms[j].run, "unsupported", why);
	} else {
		in_force = knob_slice_ext_nsec();
		for (size_t j = 0; j < n && !sig_pending(); j++)
			arm_spawn(arms, n, &arms[j]);
		for (;;) {
			size_t left = 0;

			for (size_t j = 0; j < n; j++)
				left += !arms[j].res;
			if (!left || sig_pending())
				break;
			json_array_append_new(rounds, round_run(o, arms, n, ord));
		}
		/* Stopped by a signal: the arms still in flight are interrupted. */
		for (size_t j = 0; j < n; j++)
			if (!arms[j].res)
				arms[j].res = arms[j].pid > 0 ? (arm_finish(&arms[j]), arms[j].res)
							      : iso_interrupted(arms[j].run);
		knob_restore();
	}
	point_done(o, arms, n, rounds, in_force, done);
	json_decref(rounds);
	free(arms);
	free(ord);
}
