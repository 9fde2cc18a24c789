/* resset.c - setting a result's fields by the field table (resset.h). */
#include "resset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int res_set(json_t *obj, const char *name, json_t *v)
{
	const char *key = fld_key(name);

	if (strpbrk(key, "*[")) {
		fprintf(stderr, "res_set: field \"%s\" has no key of its own\n", name);
		abort();
	}
	return json_object_set_new(obj, key, v);
}

int res_set_as(json_t *obj, const char *name, const char *key, json_t *v)
{
	if (strcmp(fld_key(name), "*")) {
		fprintf(stderr, "res_set_as: field \"%s\" is not a \"*\" field\n", name);
		abort();
	}
	return json_object_set_new(obj, key, v);
}
