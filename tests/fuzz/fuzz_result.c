/* fuzz_result.c - libFuzzer target for the result loader that compare and
 * plot read through: no input may crash it, leak or hit undefined
 * behaviour, every rejected input must carry a message that names the file
 * and then a line:column or a key path, and every accepted one must have
 * the "_file"/"_meta" annotations the readers rely on. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/report/resget.h"
#include "../../harness/report/resload.h"

#define NAME "fuzz.json"

/* "L:C: text" after the name: jansson's syntax errors. */
static int is_line_col(const char *p)
{
	for (int field = 0; field < 2; field++) {
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p++ != ':')
			return 0;
	}
	return p[0] == ' ' && p[1] != '\0';
}

/* " key.path: text" after the name, e.g. "results[3].params", or
 * "(top level)" for a document that is not an object. */
static int is_key_path(const char *p)
{
	const char *end;
	size_t n;

	if (*p++ != ' ' || !(end = strstr(p, ": ")) || end == p || !end[2])
		return 0;
	n = (size_t)(end - p);
	if (n == strlen("(top level)") && !strncmp(p, "(top level)", n))
		return 1;
	for (; p < end; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.[]", *p))
			return 0;
	return 1;
}

static void check_accepted(const json_t *doc)
{
	const json_t *results = json_object_get(doc, "results"), *r;
	char line[512];
	size_t i;

	json_array_foreach(results, i, r) {
		const json_t *meta = res_meta_of(doc, r);

		if (strcmp(res_str(r, "_file", ""), NAME) || !meta) {
			fprintf(stderr, "results[%zu] accepted without _file/_meta\n", i);
			abort();
		}
		/* What compare and plot print for every input they take. */
		res_group(meta, line, sizeof(line));
		res_meta_line(meta, line, sizeof(line));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = NULL;
	char err[1024] = "";
	int rc = res_load_buffer(NAME, (const char *)data, size, &doc, err, sizeof(err));
	const char *rest = err + strlen(NAME ":");

	if (rc) {
		if (doc || strncmp(err, NAME ":", strlen(NAME ":")) ||
		    !(is_line_col(rest) || is_key_path(rest))) {
			fprintf(stderr, "rejected without naming the place: \"%s\"\n", err);
			abort();
		}
		return 0;
	}
	if (!json_is_object(doc))
		abort(); /* accepted, but not a document */
	check_accepted(doc);
	json_decref(doc);
	return 0;
}
