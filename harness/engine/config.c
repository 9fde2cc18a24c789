/* config.c - parse (jansson), validate every key against the tables, and
 * expand each run's lists into the cartesian product of parameter points. */
#define _GNU_SOURCE
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/policy.h"
#include "../lib/txtshow.h"

static void known_workloads(char *buf, size_t len)
{
	const struct workload_ops *o;
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; (o = wl_named(i)) && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", o->name);
	if (off < len)
		snprintf(buf + off, len - off, "; or LOCK+POLICY[+dry]");
}

static void known_locks(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; wl_locks[i] && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					wl_locks[i]->name);
}

static void known_policies(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; i < POL_COUNT && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					wl_policy_names[i]);
}

/* One scalar value of key k at path. */
static int check_value(struct cfg_ctx *c, const struct key_desc *k, const json_t *v,
		       const char *path)
{
	char msg[256];

	if (key_check(k, v, msg, sizeof(msg)))
		return cfg_fail(c, path, "%s", msg);
	if (!strcmp(k->name, "workload") && !wl_find(json_string_value(v))) {
		char names[512];

		known_workloads(names, sizeof(names));
		return cfg_fail(c, path, "unknown workload \"%s\" (known: %s)",
				json_string_value(v), names);
	}
	if (!strcmp(k->name, "lock") && !wl_lock_find(json_string_value(v))) {
		char names[512];

		known_locks(names, sizeof(names));
		return cfg_fail(c, path, "unknown lock \"%s\" (known: %s)", json_string_value(v),
				names);
	}
	if (!strcmp(k->name, "policy") && wl_policy_find(json_string_value(v)) == POL_COUNT) {
		char names[256];

		known_policies(names, sizeof(names));
		return cfg_fail(c, path, "\"%s\" is not one of %s", json_string_value(v), names);
	}
	if (k->check && k->check(v, msg, sizeof(msg)))
		return cfg_fail(c, path, "%s", msg);
	if (k->type == KT_OBJ && json_is_object(v)) {
		const char *name;
		json_t *m;
		char sub[256];

		json_object_foreach((json_t *)v, name, m) {
			const struct key_desc *s = key_find(k->sub, name);

			snprintf(sub, sizeof(sub), "%s.%s", path, name);
			if (!s)
				return cfg_fail_unknown(c, sub, name, &k->sub, 1, "unknown key");
			if (key_check(s, m, msg, sizeof(msg)))
				return cfg_fail(c, sub, "%s", msg);
		}
	}
	return 0;
}

/* A key's value: a scalar or a non-empty list of scalars. */
static int check_key(struct cfg_ctx *c, const struct key_desc *k, const json_t *v, const char *path)
{
	char sub[256];
	size_t i;
	json_t *e;

	if (!json_is_array(v) || k->type == KT_LIST)
		return check_value(c, k, v, path);
	if (!json_array_size(v))
		return cfg_fail(c, path, "empty list");
	json_array_foreach(v, i, e) {
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if (check_value(c, k, e, sub))
			return -1;
	}
	return 0;
}

/* The key tables of the locks a run names (its "lock" values, else its
 * workloads' locks), or of every lock and workload when both are NULL. */
static size_t wl_tables(const json_t *wl, const json_t *lk, const struct key_desc **tabs,
			size_t max)
{
	const struct workload_ops *o;
	size_t n = 0, i;
	json_t *e, *list;

	if (!wl && !lk) {
		for (i = 0; wl_locks[i] && n < max; i++)
			tabs[n++] = wl_locks[i]->keys;
		for (i = 0; (o = wl_named(i)) && n < max; i++)
			if (!o->lock)
				tabs[n++] = o->keys;
		return n;
	}
	list = json_is_array(lk ? lk : wl) ? json_incref((json_t *)(lk ? lk : wl))
					   : json_pack("[O]", lk ? lk : wl);
	json_array_foreach(list, i, e) {
		const char *name = json_string_value(e);
		const struct wl_lock *l = NULL;

		if (!name || n >= max)
			continue;
		if (lk)
			l = wl_lock_find(name);
		else if ((o = wl_find(name)))
			tabs[n++] = wl_keys(o);
		if (l)
			tabs[n++] = l->keys;
	}
	json_decref(list);
	return n;
}

static const struct key_desc *lookup(const char *name, const struct key_desc **tabs, size_t n)
{
	const struct key_desc *k = key_find(run_keys, name);

	for (size_t i = 0; !k && i < n; i++)
		k = key_find(tabs[i], name);
	return k;
}

/* Checks a defaults or run object; wl_scope and lk_scope = the "workload"
 * and "lock" values in force for it, or NULL. */
static int check_run_obj(struct cfg_ctx *c, const json_t *o, const char *path,
			 const json_t *wl_scope, const json_t *lk_scope)
{
	const struct key_desc *tabs[64];
	const char *name;
	json_t *v;
	char sub[256];

	if (!json_is_object(o))
		return cfg_fail(c, path, "must be an object");
	/* "workload" first: the other keys are looked up in its tables. */
	v = json_object_get(o, "workload");
	snprintf(sub, sizeof(sub), "%s.workload", path);
	if (v && check_key(c, run_keys, v, sub))
		return -1;
	v = json_object_get(o, "lock");
	snprintf(sub, sizeof(sub), "%s.lock", path);
	if (v && check_key(c, key_find(run_keys, "lock"), v, sub))
		return -1;
	size_t ntabs = wl_tables(wl_scope, lk_scope, tabs, 64);

	json_object_foreach((json_t *)o, name, v) {
		snprintf(sub, sizeof(sub), "%s.%s", path, name);
		if (!strcmp(name, "label")) {
			if (!json_is_string(v))
				return cfg_fail(c, sub, "must be a string");
			continue;
		}
		const struct key_desc *k = lookup(name, tabs, ntabs);

		if (!k) {
			const struct key_desc *all[64];
			size_t nall = wl_tables(NULL, NULL, all + 1, 63) + 1;

			all[0] = run_keys;
			if (lookup(name, all + 1, nall - 1))
				return cfg_fail(c, sub, "not a key of the workload(s) of this run");
			return cfg_fail_unknown(c, sub, name, all, nall, "unknown key");
		}
		if (check_key(c, k, v, sub))
			return -1;
	}
	return 0;
}

/* The suite's structure; its keys that take a value are suite_opts. */
static const struct key_desc suite_keys[] = {
	{ .name = "name", .help = "short name of the suite (string)" },
	{ .name = "description", .help = "what the suite measures (string)" },
	{ .name = "defaults", .help = "run keys applied to every run (object)" },
	{ .name = "runs", .help = "list of run objects; lists in a run are swept (array)" },
	{ 0 }
};

void cfg_print_keys(FILE *f)
{
	for (const struct key_desc *k = suite_keys; k->name; k++)
		fprintf(f, "  %-14s %s\n", k->name, k->help);
	key_print_table(f, suite_opts);
}

/* A list of one key's values (a scalar becomes a list of one). */
static json_t *as_list(json_t *v, const struct key_desc *k)
{
	if (json_is_array(v) && k->type != KT_LIST)
		return json_incref(v);
	return json_pack("[O]", v);
}

static int push_point(struct cfg_suite *s, const struct workload_ops *ops, json_t *params,
		      const char *label)
{
	/* The same point twice under one label runs once: a hash set of
	 * "workload\nparams\nlabel" (sorted keys), not a scan of the points so
	 * far.  Under two labels it runs twice: a true A/A pair, the same arm
	 * declared twice, whose difference can only be noise. */
	char *p = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS), *id = NULL;

	if (!p || asprintf(&id, "%s\n%s\n%s", ops->name, p, label ? label : "") < 0) {
		free(p);
		return -1;
	}
	free(p);
	if (json_object_get(s->seen, id)) {
		free(id);
		return 0;
	}
	json_object_set_new(s->seen, id, json_true());
	free(id);
	struct cfg_run *r = s->runs;

	/* Doubling at each power of two: no quadratic copying. */
	if (!(s->nruns & (s->nruns - 1)) &&
	    !(r = realloc(s->runs, (s->nruns ? 2 * s->nruns : 1) * sizeof(*r))))
		return -1;
	s->runs = r;
	r[s->nruns].ops = ops;
	if (!(r[s->nruns].params = json_deep_copy(params)))
		return -1;
	run_params_parse(r[s->nruns].params, &r[s->nruns].p);
	r[s->nruns].label = label;
	s->nruns++;
	return 0;
}

/* Cartesian product over keys[] (each a list in lists); depth-first. */
static int expand(struct cfg_suite *s, const struct workload_ops *ops, const char **keys,
		  json_t **lists, size_t nkeys, size_t d, json_t *point, const char *label)
{
	if (d == nkeys)
		return push_point(s, ops, point, label);
	size_t i;
	json_t *e;

	json_array_foreach(lists[d], i, e) {
		const struct key_desc *k = key_find(run_keys, keys[d]);

		if (k && k->type == KT_OBJ)
			json_object_set_new(point, keys[d], key_complete_obj(k, e));
		else
			json_object_set(point, keys[d], e);
		if (expand(s, ops, keys, lists, nkeys, d + 1, point, label))
			return -1;
	}
	return 0;
}

static json_t *pick(const json_t *run, const json_t *defs, const struct key_desc *k)
{
	json_t *v = json_object_get(run, k->name);

	if (!v)
		v = json_object_get(defs, k->name);
	return v ? json_incref(v) : key_default(k);
}

int cfg_is_selector(const char *name)
{
	return !strcmp(name, "workload") || !strcmp(name, "lock") || !strcmp(name, "policy") ||
	       !strcmp(name, "dry");
}

/* Where a run's key came from, for an error message: the run (its
 * default when given nowhere) or the defaults, and the run's label. */
static void key_path(char *buf, size_t len, const json_t *run, size_t idx, const char *key,
		     const json_t *defs)
{
	const char *label = json_string_value(json_object_get(run, "label"));
	char lb[160] = "", shown[136];

	/* as given, but never a control byte to the terminal */
	if (label) {
		txt_show(label, strlen(label), shown, sizeof(shown));
		snprintf(lb, sizeof(lb), "label \"%s\"", shown);
	}
	if (json_object_get(run, key) || !json_object_get(defs, key))
		snprintf(buf, len, "runs[%zu].%s%s%s%s", idx, key, *lb ? " (" : "", lb,
			 *lb ? ")" : "");
	else
		snprintf(buf, len, "defaults.%s (runs[%zu]%s%s)", key, idx, *lb ? ", " : "", lb);
}

/* The workload of one (workload, lock, policy, dry) choice, where null
 * lock/policy/dry keep the workload's own; NULL after cfg_fail. */
static const struct workload_ops *choose(struct cfg_ctx *c, const json_t *run, size_t idx,
					 const json_t *defs, const json_t *wl, const json_t *lk,
					 const json_t *pol, const json_t *dry)
{
	const struct workload_ops *o = wl_find(json_string_value(wl));
	char path[256];
	const char *why;

	if (!o->lock) {
		if (json_is_null(lk) && json_is_null(pol) && json_is_null(dry))
			return o;
		key_path(path, sizeof(path), run, idx,
			 !json_is_null(lk) ? "lock" : !json_is_null(pol) ? "policy" : "dry", defs);
		cfg_fail(c, path, "workload \"%s\" measures itself: it takes no lock, policy or dry",
			 o->name);
		return NULL;
	}
	const struct wl_lock *l = json_is_null(lk) ? o->lock : wl_lock_find(json_string_value(lk));
	int p = json_is_null(pol) ? o->policy : (int)wl_policy_find(json_string_value(pol));
	int d = json_is_null(dry) ? o->dry : json_is_true(dry);
	const struct workload_ops *r = wl_resolve(l, p, d, &why);

	if (r)
		return r;
	if (p == POL_REARM && !wl_has_trylock(l)) {
		char names[256] = "";

		for (size_t i = 0; wl_locks[i]; i++)
			if (wl_has_trylock(wl_locks[i]))
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 *names ? ", " : "", wl_locks[i]->name);
		key_path(path, sizeof(path), run, idx, "policy", defs);
		cfg_fail(c, path, "\"rearm\" needs a lock with trylock; \"%s\" has none (with "
				  "trylock: %s)", l->name, names);
	} else {
		key_path(path, sizeof(path), run, idx, "dry", defs);
		cfg_fail(c, path, "true: %s (the policy is \"%s\")", why, wl_policy_names[p]);
	}
	return NULL;
}

/* Expands one resolved workload over every other key of the run. */
static int expand_ops(struct cfg_suite *s, const struct workload_ops *ops, const json_t *run,
		      const json_t *defs, const char *label, double *over)
{
	const char *keys[128];
	json_t *lists[128], *point = json_object();
	size_t n = 0;
	int rc;

	if (ops->lock)
		json_object_set_new(point, "lock", json_string(ops->lock->name));
	json_object_set_new(point, "policy",
			    ops->lock ? json_string(wl_policy_names[ops->policy]) : json_null());
	json_object_set_new(point, "dry", ops->lock ? json_boolean(ops->dry) : json_null());
	if (!ops->lock)
		json_object_set_new(point, "lock", json_null());
	for (const struct key_desc *k = run_keys; k->name; k++) {
		if (cfg_is_selector(k->name))
			continue;
		json_t *v = pick(run, defs, k);

		keys[n] = k->name;
		lists[n++] = as_list(v, k);
		json_decref(v);
	}
	for (const struct key_desc *k = wl_keys(ops); k && k->name && n < 128; k++) {
		json_t *v = pick(run, defs, k);

		keys[n] = k->name;
		lists[n++] = as_list(v, k);
		json_decref(v);
	}
	/* The product of the lists, counted before it is built: a sweep past
	 * the cap is refused at once, not after minutes of expansion. */
	double np = 1;

	for (size_t j = 0; j < n; j++)
		np *= (double)json_array_size(lists[j]);
	if ((double)s->nruns + np > CFG_MAX_RUNS) {
		*over = np;
		rc = -3;
	} else {
		rc = expand(s, ops, keys, lists, n, 0, point, label);
	}
	for (size_t j = 0; j < n; j++)
		json_decref(lists[j]);
	json_decref(point);
	return rc;
}

/* The workload's own check of its keys read together (workload.h), on
 * each point from first on: -2 after cfg_fail at the first it refuses. */
static int check_points(struct cfg_ctx *c, const struct cfg_suite *s, size_t first,
			const json_t *run, size_t idx, const json_t *defs)
{
	const char *key = NULL;
	char msg[512], path[256];

	for (size_t i = first; i < s->nruns; i++) {
		const struct cfg_run *r = &s->runs[i];

		if (r->ops->check && r->ops->check(r->params, &key, msg, sizeof(msg))) {
			key_path(path, sizeof(path), run, idx, key, defs);
			cfg_fail(c, path, "%s", msg);
			return -2;
		}
		double m = r->p.check_margin_pct;

		if (m > 0 && (!s->interleave || !(r->p.ci_target_pct > 0))) {
			key_path(path, sizeof(path), run, idx, "check_margin_pct", defs);
			cfg_fail(c, path,
				 "%g needs \"interleave\": true and ci_target_pct > 0 (an A/A "
				 "check's two arms stop together only while they take turns, "
				 "from max(repetitions, 2) up to repetitions_max)", m);
			return -2;
		}
	}
	return 0;
}

/* -1 out of memory, -2 a refused lock x policy pair or point (c->err says
 * which), -3 past CFG_MAX_RUNS (*over: the points of the choice that would be). */
static int expand_run(struct cfg_ctx *c, struct cfg_suite *s, const json_t *run, size_t idx,
		      const json_t *defs, double *over)
{
	static const char *const sel[] = { "workload", "lock", "policy", "dry" };
	json_t *l[4];
	const char *label = json_string_value(json_object_get(run, "label"));
	size_t i[4];
	json_t *e[4];
	int rc = 0;

	for (int k = 0; k < 4; k++) {
		const struct key_desc *kd = key_find(run_keys, sel[k]);
		json_t *v = pick(run, defs, kd);

		l[k] = as_list(v, kd);
		json_decref(v);
	}
	json_array_foreach(l[0], i[0], e[0])
		json_array_foreach(l[1], i[1], e[1])
			json_array_foreach(l[2], i[2], e[2])
				json_array_foreach(l[3], i[3], e[3]) {
					const struct workload_ops *o =
						choose(c, run, idx, defs, e[0], e[1], e[2], e[3]);
					size_t first = s->nruns;

					rc = !o ? -2 : expand_ops(s, o, run, defs, label, over);
					if (!rc)
						rc = check_points(c, s, first, run, idx, defs);
					if (rc)
						goto out;
				}
out:
	for (int k = 0; k < 4; k++)
		json_decref(l[k]);
	return rc;
}

/* The checks and the expansion of a loaded suite. */
static int cfg_parsed(struct cfg_ctx *c, struct cfg_suite *s)
{
	const char *name;
	json_t *v;
	size_t i;

	if (!json_is_object(s->root))
		return cfg_fail(c, "(top level)", "must be an object");
	json_object_foreach(s->root, name, v) {
		const struct key_desc *o = key_find(suite_opts, name), *tabs[] = { suite_keys, suite_opts };
		char msg[256];

		if (o && key_check(o, v, msg, sizeof(msg)))
			return cfg_fail(c, name, "%s", msg);
		if (!o && !key_find(suite_keys, name)) {
			if (key_find(run_keys, name))
				return cfg_fail(c, name, "unknown key (run keys such as \"%s\" "
							  "belong in \"defaults\" or a run)",
						name);
			return cfg_fail_unknown(c, name, name, tabs, 2,
						"unknown key (expected name, description, defaults, "
						"runs, interleave, seed)");
		}
		if ((!strcmp(name, "name") || !strcmp(name, "description")) && !json_is_string(v))
			return cfg_fail(c, name, "must be a string");
	}
	s->interleave = json_is_true(json_object_get(s->root, "interleave"));
	s->seed = (unsigned long)json_integer_value(json_object_get(s->root, "seed"));
	json_t *defs = json_object_get(s->root, "defaults");
	json_t *runs = json_object_get(s->root, "runs");

	if (defs && check_run_obj(c, defs, "defaults", json_object_get(defs, "workload"),
				  json_object_get(defs, "lock")))
		return -1;
	if (!json_is_array(runs) || !json_array_size(runs))
		return cfg_fail(c, "runs", "must be a non-empty list of run objects");
	json_array_foreach(runs, i, v) {
		char p[32];

		snprintf(p, sizeof(p), "runs[%zu]", i);
		json_t *scope = json_object_get(v, "workload");

		if (!scope)
			scope = json_object_get(defs, "workload");
		json_t *def = scope ? NULL : key_default(run_keys); /* "workload" */
		json_t *lk = json_object_get(v, "lock");

		if (!lk)
			lk = json_object_get(defs, "lock");
		int rc = check_run_obj(c, v, p, scope ? scope : def, lk);

		json_decref(def);
		if (rc)
			return -1;
	}
	s->seen = json_object();
	json_array_foreach(runs, i, v) {
		double over = 0;
		int rc = expand_run(c, s, v, i, defs, &over);

		if (rc == -1)
			snprintf(c->err, c->len, "%s: out of memory expanding runs", c->file);
		else if (rc == -3)
			snprintf(c->err, c->len, "%s: runs[%zu]: expands to %.0f run points (the product of "
				 "its lists), which takes the suite past its cap of %d (%zu before "
				 "it); split it into several suites", c->file, i, over, CFG_MAX_RUNS, s->nruns);
		if (rc) {
			json_decref(s->seen);
			s->seen = NULL;
			return -1;
		}
	}
	json_decref(s->seen);
	s->seen = NULL;
	return 0;
}

int cfg_load(const char *path, struct cfg_suite *s, char *err, size_t len)
{
	struct cfg_ctx c = { path, err, len };

	memset(s, 0, sizeof(*s));
	s->root = cfg_read_json(&c, "config file");
	return s->root ? cfg_parsed(&c, s) : -1;
}

int cfg_load_buffer(const char *name, const char *buf, size_t n, struct cfg_suite *s, char *err,
		    size_t len)
{
	struct cfg_ctx c = { name, err, len };
	json_error_t je;

	memset(s, 0, sizeof(*s));
	s->root = json_loadb(buf, n, JSON_REJECT_DUPLICATES, &je);
	return s->root ? cfg_parsed(&c, s) : cfg_fail_parse(&c, &je);
}

int cfg_load_json(const char *name, json_t *root, struct cfg_suite *s, char *err, size_t len)
{
	struct cfg_ctx c = { name, err, len };

	memset(s, 0, sizeof(*s));
	s->root = json_incref(root);
	return cfg_parsed(&c, s);
}

void cfg_free(struct cfg_suite *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		json_decref(s->runs[i].params);
	free(s->runs);
	json_decref(s->seen);
	json_decref(s->root);
	memset(s, 0, sizeof(*s));
}
