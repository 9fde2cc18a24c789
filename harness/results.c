/* results.c - result envelope, --meta, and temp-file-plus-rename output. */
#define _GNU_SOURCE
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

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

static int mkdir_p(const char *dir)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", dir);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
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

int res_write(const char *path, const json_t *doc, char *err, size_t len)
{
	char *dup = strdup(path), *dup2 = strdup(path), tmp[4096];
	const char *dir = dirname(dup);

	if (mkdir_p(dir)) {
		snprintf(err, len, "%s: cannot create directory %s: %s", path, dir,
			 strerror(errno));
		free(dup);
		free(dup2);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.XXXXXX", dir, basename(dup2));
	free(dup);
	free(dup2);
	int fd = mkstemp(tmp);

	sig_set_tmpfile(fd >= 0 ? tmp : NULL);
	if (fd < 0) {
		snprintf(err, len, "%s: cannot create a temporary file: %s", path, strerror(errno));
		return -1;
	}
	/* mkstemp makes it 0600; a result is as readable as any file we write. */
	mode_t um = umask(0);

	umask(um);
	int rc = 0, saved = 0;
	/* Serialise to memory and write it ourselves: jansson's fd writer
	 * reports a short write (a full disk) without errno. */
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(10));

	if (!text) {
		rc = -1;
		saved = ENOMEM;
	} else if (fchmod(fd, 0666 & ~um) || write_all(fd, text) || write_all(fd, "\n") ||
		   fsync(fd)) {
		rc = -1;
		saved = errno;
	}
	free(text);
	if (close(fd) && !rc) {
		rc = -1;
		saved = errno;
	}
	if (!rc && rename(tmp, path)) {
		rc = -1;
		saved = errno;
	}
	if (rc) {
		unlink(tmp);
		snprintf(err, len, "%s: write failed: %s", path, strerror(saved));
	}
	sig_set_tmpfile(NULL);
	return rc;
}

int res_check_out(const char *path, int force, char *err, size_t len)
{
	struct stat st;

	if (!force && !stat(path, &st)) {
		snprintf(err, len, "%s: exists; use --force to overwrite it", path);
		return -1;
	}
	char *dup = strdup(path), tmp[4096];
	const char *dir = dirname(dup);

	if (mkdir_p(dir)) {
		snprintf(err, len, "%s: cannot create directory %s: %s", path, dir, strerror(errno));
		free(dup);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s/.slicebench-probe.XXXXXX", dir);
	free(dup);
	int fd = mkstemp(tmp);

	if (fd < 0) {
		snprintf(err, len, "%s: directory not writable: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

void res_default_path(char *buf, size_t len)
{
	struct utsname u;
	char ts[32];

	uname(&u);
	utc_now(ts, sizeof(ts), "%Y%m%dT%H%M%SZ");
	snprintf(buf, len, "results/%s-%s-%s.json", ts, u.nodename, u.release);
}
