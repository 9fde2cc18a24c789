/* resload.c - load and validate result files for compare and plot. */
#define _GNU_SOURCE
#include "resload.h"
#include "../lib/exitcodes.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <limits.h>

#include <zlib.h>

#include "../lib/fields.h"
#include "../lib/regfile.h"
#include "rescheck.h"

static int verr(char *err, size_t len, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int verr(char *err, size_t len, const char *name, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "%s: ", name);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < len)
		vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* "slicebench/1" and "slicebench/1.2" are major 1; anything else is not ours
 * or from a future, incompatible writer. */
static int check_schema(const char *name, const json_t *s, char *err, size_t len)
{
	const char *v, *p;
	char *end;

	if (!s)
		return verr(err, len, name, "schema: missing (not a slicebench result file)");
	if (!json_is_string(s))
		return verr(err, len, name, "schema: must be a string");
	v = json_string_value(s);
	if (strncmp(v, "slicebench/", 11))
		return verr(err, len, name, "schema: \"%.64s\" is not a slicebench result schema", v);
	p = v + 11;
	errno = 0;
	long major = (*p >= '0' && *p <= '9') ? strtol(p, &end, 10) : -1;

	if (major < 0 || errno || (*end && *end != '.'))
		return verr(err, len, name, "schema: \"%.64s\" has no major version", v);
	if (major != RES_SCHEMA_MAJOR)
		return verr(err, len, name,
			    "schema: \"%.64s\" is not supported (this build reads slicebench/%d)", v,
			    RES_SCHEMA_MAJOR);
	return 0;
}

static int validate(const char *name, json_t *doc, char *err, size_t len)
{
	json_t *meta, *results, *r;
	size_t i;

	if (!json_is_object(doc))
		return verr(err, len, name, "(top level): must be an object");
	if (check_schema(name, json_object_get(doc, fld_schema), err, len))
		return -1;
	meta = json_object_get(doc, fld_meta);
	if (!json_is_object(meta))
		return verr(err, len, name, "%s: %s", fld_meta, meta ? "must be an object" : "missing");
	results = json_object_get(doc, fld_results);
	if (!json_is_array(results))
		return verr(err, len, name, "%s: %s", fld_results,
			    results ? "must be a list" : "missing");
	json_array_foreach(results, i, r) {
		const char *const need[] = { fld_r_workload, fld_r_params, fld_r_status };

		if (!json_is_object(r))
			return verr(err, len, name, "results[%zu]: must be an object", i);
		for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++) {
			json_t *v = json_object_get(r, need[k]);
			int good = k == 1 ? json_is_object(v) : json_is_string(v);

			if (!good)
				return verr(err, len, name, "results[%zu].%s: %s", i, need[k],
					    v ? (k == 1 ? "must be an object" : "must be a string")
					      : "missing");
		}
		json_object_set_new(r, fld_r_file, json_string(name));
		json_object_set_new(r, fld_r_index, json_integer((json_int_t)i));
		json_object_set(r, fld_r_meta, meta);
	}
	return 0;
}

int res_load_buffer(const char *name, const char *buf, size_t len, json_t **doc, char *err,
		    size_t errlen)
{
	json_error_t je;
	json_t *d;

	*doc = NULL;
	/* Duplicate keys are rejected: a result with two "ops_per_sec" says
	 * nothing reliable about either. */
	d = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!d) {
		snprintf(err, errlen, "%s:%d:%d: %s", name, je.line, je.column, je.text);
		return -1;
	}
	if (validate(name, d, err, errlen)) {
		json_decref(d);
		return -1;
	}
	*doc = d;
	return 0;
}

/* Only a regular file is read (regfile.h): a FIFO named *.json does not
 * wait for a writer.  zlib's gzread reads a gzip file (a reference result
 * is stored as .json.gz) and passes any other through as it is. */
static int load_file(const char *path, json_t **doc, char *err, size_t len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	int rc, fd = regfile_open(path, "result file", err, len), zerr;

	*doc = NULL;
	if (fd < 0)
		return -1;
	gzFile z = gzdopen(fd, "rb");

	if (!z) {
		snprintf(err, len, "%s: %s", path, strerror(errno ? errno : ENOMEM));
		close(fd);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb = ncap <= INT_MAX ? realloc(buf, ncap) : NULL;

			if (!nb) {
				free(buf);
				gzclose(z);
				snprintf(err, len, "%s: out of memory", path);
				return -1;
			}
			buf = nb;
			cap = ncap;
		}
		int got = gzread(z, buf + n, (unsigned)(cap - n));

		if (got < 0) {
			const char *why = gzerror(z, &zerr);

			snprintf(err, len, "%s: read error: %s", path,
				 zerr == Z_ERRNO ? strerror(errno) : why);
			free(buf);
			gzclose(z);
			return -1;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	gzclose(z);
	rc = res_load_buffer(path, buf ? buf : "", n, doc, err, len);
	free(buf);
	return rc;
}

/* NAME.json or NAME.json.gz, not hidden (a writer's temp file) */
int res_is_json_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && ((n > 5 && !strcmp(name + n - 5, ".json")) ||
				  (n > 8 && !strcmp(name + n - 8, ".json.gz")));
}

static int is_json_name(const struct dirent *e)
{
	return res_is_json_name(e->d_name);
}

static int load_dir(const char *path, json_t **doc, char *err, size_t len)
{
	struct dirent **ents;
	int n = scandir(path, &ents, is_json_name, alphasort);
	json_t *merged = NULL, *files, *all;

	*doc = NULL;
	if (n < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (n == 0) {
		free(ents);
		snprintf(err, len, "%s: directory holds no *.json result file", path);
		return -1;
	}
	files = json_array();
	all = json_array();
	for (int i = 0; i < n; i++) {
		char fp[4096];
		json_t *d, *r;
		size_t k;

		snprintf(fp, sizeof(fp), "%s/%s", path, ents[i]->d_name);
		if (load_file(fp, &d, err, len)) {
			json_decref(merged);
			merged = NULL;
			break;
		}
		if (!merged)
			merged = json_pack("{s:s,s:O,s:O}", fld_schema, "slicebench/1", fld_meta,
					   json_object_get(d, fld_meta), fld_config,
					   json_object_get(d, fld_config) ? json_object_get(d, fld_config)
									  : json_null());
		json_array_append_new(files, json_string(fp));
		json_array_foreach(json_object_get(d, fld_results), k, r)
			json_array_append(all, r);
		json_decref(d);
	}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	if (!merged) {
		json_decref(files);
		json_decref(all);
		return -1;
	}
	/* The first file's meta is copied, so "files" does not leak into the
	 * per-result "_meta" references the results still hold. */
	json_t *m = json_deep_copy(json_object_get(merged, fld_meta));

	json_object_set_new(m, fld_m_files, files);
	json_object_set_new(merged, fld_meta, m);
	json_object_set_new(merged, fld_results, all);
	*doc = merged;
	return 0;
}

int res_load(const char *path, json_t **doc, char *err, size_t len)
{
	struct stat st;

	*doc = NULL;
	if (stat(path, &st)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return load_dir(path, doc, err, len);
	return load_file(path, doc, err, len);
}

int res_load_all(const char *who, const char *const *paths, size_t n, json_t ***docs)
{
	char err[8192];

	*docs = calloc(n ? n : 1, sizeof(**docs));
	if (!*docs) {
		fprintf(stderr, "%s: out of memory\n", who);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++) {
		if (res_load(paths[i], &(*docs)[i], err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", who, err);
			return EXIT_USAGE;
		}
		/* validate's checks: a value a reader would have to skip (a
		 * string ops_per_sec, a summary below its minimum) stops it. */
		size_t bad = res_check_doc((*docs)[i], 0, who, paths[i], stderr);

		if (bad) {
			fprintf(stderr, "%s: %s: %zu value(s) fail the result schema (as "
				"`slicebench validate` reports): nothing compared\n", who, paths[i], bad);
			return EXIT_USAGE;
		}
	}
	return 0;
}

void res_free_all(json_t **docs, size_t n)
{
	for (size_t i = 0; docs && i < n; i++)
		json_decref(docs[i]);
	free(docs);
}
