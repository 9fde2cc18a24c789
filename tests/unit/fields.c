/* fields.c - the field table is a tree: every row's parent path has a row
 * (else fldcheck could never reach it), every name is its row's path, and
 * the checker finds a mistyped and a missing field in a hand-made result;
 * the writer's setters put a field under its key. */
#include <string.h>

#include <jansson.h>

#include "tap.h"
#include "../../harness/lib/fields.h"
#include "../../harness/lib/resset.h"
#include "../../harness/report/fldcheck.h"

static char last[256];

static void keep(void *ctx, const char *path, const json_t *got, const char *msg)
{
	(void)ctx;
	snprintf(last, sizeof(last), "%s: %s%s", path, msg, got ? "" : " (missing)");
}

int main(void)
{
	CHECK(fld_orphans(stdout) == 0, "fields: every row's parent has a row");
	CHECK(fld_of(fld_ops_per_sec) && !strcmp(fld_of(fld_ops_per_sec)->unit, "ops/s"),
	      "fields: fld_ops_per_sec names its row (unit ops/s)");
	CHECK(!strcmp(fld_key(fld_th_ops), "ops"), "fields: a thread's ops key is \"ops\"");
	json_t *r = json_pack("{s:s,s:{},s:s,s:s}", "workload", "spin-tas", "params", "status",
			      "failed", "reason", "x");

	CHECK(fld_check_result(r, 1, keep, NULL) == 0, "fields: a failed result with a reason passes");
	json_object_del(r, "reason");
	CHECK(fld_check_result(r, 0, keep, NULL) == 1 &&
		      !strcmp(last, "reason: is required in a result that is not ok (missing)"),
	      "fields: a failed result without reason: \"%s\"", last);
	json_object_set_new(r, "reason", json_integer(3));
	CHECK(fld_check_result(r, 0, keep, NULL) == 1 &&
		      !strcmp(last, "reason: must be a string or null"),
	      "fields: a numeric reason: \"%s\"", last);
	json_object_set_new(r, "reason", json_string("x"));
	json_object_set_new(r, "typo", json_true());
	CHECK(fld_check_result(r, 0, keep, NULL) == 0 && fld_check_result(r, 1, keep, NULL) == 1 &&
		      !strncmp(last, "typo: is not a field", 20),
	      "fields: an unknown key fails only when strict: \"%s\"", last);
	json_decref(r);

	/* The writer's side: a field's last key, in the object that holds it. */
	json_t *th = json_object(), *ev = json_object();

	res_set(th, fld_th_ops, json_integer(7));
	res_set_as(ev, fld_counter, "cache-misses", json_object());
	CHECK(json_integer_value(json_object_get(th, "ops")) == 7 && json_object_size(th) == 1,
	      "resset: res_set puts a thread's fld_th_ops under \"ops\"");
	CHECK(json_is_object(json_object_get(ev, "cache-misses")) && json_object_size(ev) == 1,
	      "resset: res_set_as puts a counters.* event under its own name");
	json_decref(th);
	json_decref(ev);
	return tap_failed ? 1 : 0;
}
