/* results.c - result envelope, --meta, and temp-file-plus-rename output. */
#define _GNU_SOURCE
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "outpath.h"
#include "signals.h"
#include "sysinfo.h"

static void utc_now(char *buf, size_t len, const char *fmt)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, fmt, &tm);
}

json_t *res_new(const json_t *config, const char *config_file)
{
	char ts[32];
	json_t *meta = sysinfo_json();

	utc_now(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ");
	json_object_set_new(meta, "utc", json_string(ts));
	json_object_set_new(meta, "config_file", json_string(config_file));
	return json_pack("{s:s,s:o,s:O,s:[]}", "schema", RES_SCHEMA, "meta", meta, "config",
			 config, "results");
}

static json_t *scalar_of(const char *v, char *err, size_t len)
{
	if (*v == '@') {
		FILE *f = fopen(v + 1, "r");
		char *buf = NULL;
		size_t cap = 0;

		if (!f) {
			snprintf(err, len, "--meta: cannot read %s: %s", v + 1, strerror(errno));
			return NULL;
		}
		ssize_t n = getdelim(&buf, &cap, '\0', f);

		fclose(f);
		json_t *s = json_stringn(n > 0 ? buf : "", n > 0 ? (size_t)n : 0);

		free(buf);
		if (!s)
			snprintf(err, len, "--meta: %s is not valid UTF-8 text", v + 1);
		return s;
	}
	json_t *j = json_loads(v, JSON_DECODE_ANY, NULL);

	if (j && (json_is_number(j) || json_is_boolean(j)))
		return j;
	json_decref(j);
	return json_string(v);
}

int res_meta_set(json_t *doc, const char *assignment, char *err, size_t len)
{
	const char *eq = strchr(assignment, '=');

	if (!eq || eq == assignment) {
		snprintf(err, len, "--meta \"%s\": expected KEY=VALUE", assignment);
		return -1;
	}
	char *key = strndup(assignment, (size_t)(eq - assignment)), *save = NULL;
	json_t *obj = json_object_get(doc, "meta"), *val = scalar_of(eq + 1, err, len);

	if (!val) {
		free(key);
		return -1;
	}
	char *part = strtok_r(key, ".", &save), *next;

	for (; part && (next = strtok_r(NULL, ".", &save)); part = next) {
		json_t *sub = json_object_get(obj, part);

		if (!json_is_object(sub)) {
			sub = json_object();
			json_object_set_new(obj, part, sub);
		}
		obj = sub;
	}
	json_object_set_new(obj, part, val);
	free(key);
	return 0;
}

static int write_all(int fd, const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = ENOSPC;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int res_write(const char *path, int force, const json_t *doc, char *err, size_t len)
{
	char tmp[4096];

	if (outpath_check(path, 1, err, len))
		return -1;
	outpath_clean_stale(path);
	int fd = outpath_tmp(path, tmp, sizeof(tmp), err, len);

	sig_set_tmpfile(fd >= 0 ? tmp : NULL);
	if (fd < 0)
		return -1;
	int rc = 0, saved = 0;
	/* Serialise to memory and write it ourselves: jansson's fd writer
	 * reports a short write (a full disk) without errno. */
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(10));

	if (!text) {
		rc = -1;
		saved = ENOMEM;
	} else if (write_all(fd, text) || write_all(fd, "\n") || fsync(fd)) {
		rc = -1;
		saved = errno;
	}
	free(text);
	if (close(fd) && !rc) {
		rc = -1;
		saved = errno;
	}
	if (rc) {
		unlink(tmp);
		snprintf(err, len, "%s: write failed: %s", path, strerror(saved));
	} else if (outpath_commit(tmp, path, force, err, len)) {
		rc = -1;
		saved = errno;
	}
	sig_set_tmpfile(NULL);
	errno = saved;
	return rc;
}

int res_check_out(const char *path, int force, char *err, size_t len)
{
	return outpath_check(path, force, err, len);
}

void res_default_path(const json_t *doc, int n, char *buf, size_t len)
{
	const char *utc = json_string_value(json_object_get(json_object_get(doc, "meta"), "utc"));
	char ts[32], *t = ts;
	struct utsname u;

	/* The result's own meta.utc, without '-' and ':'. */
	for (; utc && *utc && t < ts + sizeof(ts) - 1; utc++)
		if (*utc != '-' && *utc != ':')
			*t++ = *utc;
	*t = 0;
	uname(&u);
	if (n > 1)
		snprintf(buf, len, "results/%s-%s-%s-%d.json", ts, u.nodename, u.release, n);
	else
		snprintf(buf, len, "results/%s-%s-%s.json", ts, u.nodename, u.release);
}
