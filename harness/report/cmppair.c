/* cmppair.c - which results of `slicebench compare` are the same point:
 * the run parameters that define it, those that vary among a workload's
 * results, and the short description a row shows. */
#include "cmppair.h"

#include <string.h>

#include "../core/keys.h"
#include "../lib/fields.h"
#include "resget.h"
#include "textfmt.h"
#include "../core/workload.h"

/* Run keys that do not define a point: how long or how often it was
 * measured, what was kept, and the watchdog.  Pairing ignores them.  The
 * lock x policy x dry triple is in the workload's name already (results
 * from before it was recorded lack it). */
static const char *const ignored_keys[] = { "timeout_s", "duration_s", "warmup_s",
					    "repetitions", "ci_target_pct", "repetitions_max", "check_margin_pct",
					    "events", "keep", "sample_every",
					    "lock", "policy", "dry", NULL };

static int ignored(const char *k)
{
	for (size_t i = 0; ignored_keys[i]; i++)
		if (!strcmp(k, ignored_keys[i]))
			return 1;
	return 0;
}

/* Whether params key k holds its run key's default.  A result from before
 * a key existed lacks it, and ran as the default: the same point as a newer
 * result at that default, so a default is left out of the point.  The
 * defaults are parsed once (point_key runs for every result). */
static int at_default(const char *k, const json_t *v)
{
	static json_t *defs[128];
	static int parsed;
	const struct key_desc *d = key_find(run_keys, k);
	size_t i;

	if (!d || d->type == KT_OBJ)
		return 0;
	i = (size_t)(d - run_keys);
	if (i >= sizeof(defs) / sizeof(defs[0]))
		return 0;
	if (!parsed) {
		for (size_t j = 0; run_keys[j].name && j < sizeof(defs) / sizeof(defs[0]); j++)
			defs[j] = run_keys[j].def ? json_loads(run_keys[j].def, JSON_DECODE_ANY, NULL)
						  : NULL;
		parsed = 1;
	}
	return defs[i] && json_equal(defs[i], v);
}

/* workload + params without the ignored keys (and, for --within, without
 * the keys that are not run keys: the workloads' own knobs, except the
 * program arms' shared ones). */
char *cmp_point_key(const json_t *r, int with_workload, int run_keys_only)
{
	json_t *p = json_object_get(r, fld_r_params), *c = json_object(), *v;
	const char *k;

	json_object_foreach(p, k, v) {
		if (ignored(k) || at_default(k, v) ||
		    (run_keys_only && !wl_point_key(wl_find(res_str(r, fld_r_workload, "")), k)))
			continue;
		json_object_set(c, k, v);
	}
	if (with_workload)
		json_object_set_new(c, " workload", json_string(res_str(r, fld_r_workload, "?")));
	char *s = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

	json_decref(c);
	return s;
}

/* Which params vary among each workload's results, in one pass over them
 * (a result set can hold thousands): {workload: {"n": results, "keys":
 * {key: [first value, results having it, differs]}}}. */
json_t *cmp_variation(json_t *const *all, size_t nall)
{
	json_t *var = json_object();

	for (size_t i = 0; i < nall; i++) {
		const char *wl = res_str(all[i], fld_r_workload, "?"), *k;
		json_t *w = json_object_get(var, wl), *v;

		if (!w) {
			w = json_pack("{s:i,s:{}}", "n", 0, "keys");
			json_object_set_new(var, wl, w);
		}
		json_object_set_new(w, "n", json_integer(json_integer_value(json_object_get(w, "n")) + 1));
		json_t *keys = json_object_get(w, "keys");

		json_object_foreach(json_object_get(all[i], fld_r_params), k, v) {
			json_t *e = json_object_get(keys, k);

			if (!e) {
				json_object_set_new(keys, k, json_pack("[O,i,b]", v, 1, 0));
				continue;
			}
			json_array_set_new(e, 1, json_integer(json_integer_value(json_array_get(e, 1)) + 1));
			if (!json_equal(v, json_array_get(e, 0)))
				json_array_set(e, 2, json_true());
		}
	}
	return var;
}

/* "threads=2x pin=oversubscribe:2 victim=on": threads always, then every
 * other key whose value differs among this workload's results (or that
 * some of them lack). */
void cmp_point_desc(const json_t *r, const json_t *var, char *buf, size_t len)
{
	const json_t *p = json_object_get(r, fld_r_params);
	const json_t *w = json_object_get(var, res_str(r, fld_r_workload, "?"));
	const json_t *keys = json_object_get(w, "keys");
	json_int_t nw = json_integer_value(json_object_get(w, "n"));
	const char *k;
	json_t *v;
	char s[96];

	val_str(res_get(r, fld_r_threads), s, sizeof(s));
	snprintf(buf, len, "threads=%s", s);
	json_object_foreach((json_t *)p, k, v) {
		const json_t *e = json_object_get(keys, k);

		if (!strcmp(k, fld_key(fld_r_threads)) || ignored(k))
			continue;
		if (json_integer_value(json_array_get(e, 1)) == nw &&
		    !json_is_true(json_array_get(e, 2)))
			continue;
		size_t n = strlen(buf);

		val_str(v, s, sizeof(s));
		snprintf(buf + n, len - n, " %s=%s", k, s);
	}
}

int cmp_dry_name(const char *workload)
{
	size_t n = strlen(workload);

	return n >= 3 && !strcmp(workload + n - 3, "dry");
}
