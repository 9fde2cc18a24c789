/* qtarget.c - published numbers for a question's contrasts, read from the
 * targets file by id (qtarget.h). */
#define _GNU_SOURCE
#include "qtarget.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resget.h"

/* The targets file named by the question at path: relative to its
 * directory.  NULL with err. */
static json_t *load_targets(const char *path, const char *rel, char *file, size_t flen,
			    char *err, size_t len)
{
	char *dup = strdup(path);
	json_error_t je;
	json_t *t;

	if (!dup) {
		snprintf(err, len, "%s: out of memory", path);
		return NULL;
	}
	if (rel[0] == '/')
		snprintf(file, flen, "%s", rel);
	else
		snprintf(file, flen, "%s/%s", dirname(dup), rel);
	free(dup);
	t = json_load_file(file, JSON_REJECT_DUPLICATES, &je);
	if (!t) {
		snprintf(err, len, "%s: targets \"%s\": %s:%d:%d: %s", path, rel, file, je.line,
			 je.column, je.text);
		return NULL;
	}
	if (!json_is_array(json_object_get(t, "targets"))) {
		snprintf(err, len, "%s: targets \"%s\": %s has no \"targets\" list", path, rel, file);
		json_decref(t);
		return NULL;
	}
	return t;
}

static const json_t *find_target(const json_t *t, const char *id)
{
	size_t i;
	json_t *x;

	json_array_foreach(json_object_get(t, "targets"), i, x)
		if (!strcmp(res_str(x, "id", ""), id))
			return x;
	return NULL;
}

/* Sets contrast c's published number and its source from target x. */
static int apply(const char *path, size_t i, json_t *c, const json_t *t, const json_t *x,
		 char *err, size_t len)
{
	const json_t *pub = json_object_get(x, "published");
	const char *kind = res_str(x, "kind", "");
	int ratio = !strcmp(kind, "ratio");
	const json_t *v = json_object_get(pub, ratio ? "ratio" : "value");
	const json_t *src = json_object_get(json_object_get(t, "sources"), res_str(x, "source", ""));
	char by[512];

	if ((!ratio && strcmp(kind, "value")) || !json_is_number(v)) {
		snprintf(err, len, "%s: contrasts[%zu].target: \"%s\" has no published %s", path, i,
			 res_str(x, "id", "?"), ratio ? "ratio" : "value");
		return -1;
	}
	if (json_object_get(c, "published") || json_object_get(c, "reference")) {
		snprintf(err, len, "%s: contrasts[%zu].target: a contrast names a target or writes "
			 "its published number, not both", path, i);
		return -1;
	}
	json_object_set(c, ratio ? "published" : "reference", (json_t *)v);
	if (!json_object_get(c, "published_by")) {
		snprintf(by, sizeof(by), "%s: %s", res_str(src, "who", res_str(x, "source", "?")),
			 res_str(pub, "as_published", "?"));
		json_object_set_new(c, "published_by", json_string(by));
	}
	return 0;
}

int qtarget_resolve(const char *path, json_t *doc, char *err, size_t len)
{
	const json_t *rel = json_object_get(doc, "targets");
	json_t *c, *t = NULL;
	char file[4096];
	size_t i;
	int rc = 0;

	if (rel && !json_is_string(rel)) {
		snprintf(err, len, "%s: targets: expected the targets file's path", path);
		return -1;
	}
	json_array_foreach(json_object_get(doc, "contrasts"), i, c) {
		const json_t *id = json_object_get(c, "target"), *x;

		if (!id)
			continue;
		if (!json_is_string(id)) {
			snprintf(err, len, "%s: contrasts[%zu].target: expected a target's id", path, i);
			rc = -1;
			break;
		}
		if (!rel) {
			snprintf(err, len, "%s: contrasts[%zu].target \"%s\": the question names no "
				 "\"targets\" file", path, i, json_string_value(id));
			rc = -1;
			break;
		}
		if (!t && !(t = load_targets(path, json_string_value(rel), file, sizeof(file), err,
					     len))) {
			rc = -1;
			break;
		}
		x = find_target(t, json_string_value(id));
		if (!x) {
			snprintf(err, len, "%s: contrasts[%zu].target: \"%s\" is not a target of %s",
				 path, i, json_string_value(id), file);
			rc = -1;
			break;
		}
		if ((rc = apply(path, i, c, t, x, err, len)))
			break;
	}
	json_decref(t);
	return rc;
}
