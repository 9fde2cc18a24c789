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

#include "../lib/outpath.h"
#include "../lib/regfile.h"
#include "../lib/resset.h"
#include "../lib/txtshow.h"
#include "../os/signals.h"
#include "../os/sysinfo.h"

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
	res_set(meta, fld_m_utc, json_string(ts));
	if (config_file) /* none: a run from flags, its config all in "config" */
		res_set(meta, fld_m_config_file, json_string(config_file));
	return json_pack("{s:s,s:o,s:O,s:[]}", fld_schema, RES_SCHEMA, fld_meta, meta, fld_config,
			 config, fld_results);
}

/* --meta limits: a key path no reader needs deeper (jansson's parser stops
 * at 2048 levels, so a deeper one wrote a result nothing could read), and
 * a file value of a size a result can carry. */
#define META_MAX_DEPTH 16
#define META_MAX_FILE (1 << 20)

/* The text of @FILE: a regular file only (regfile.h: a FIFO would block,
 * a directory read as ""), at most META_MAX_FILE bytes.  *n is its
 * length. */
static char *read_value_file(const char *arg, const char *file, size_t *n, char *err, size_t len)
{
	char shown[256];
	int fd = regfile_open(file, "file", err, len);
	struct stat st;

	txt_show(file, strlen(file), shown, sizeof(shown));
	if (fd < 0) {
		/* err names the file; say which argument it came from */
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, len, "--meta \"%s\": cannot read %s", arg, why);
		return NULL;
	}
	if (fstat(fd, &st) || st.st_size > META_MAX_FILE) {
		snprintf(err, len, "--meta \"%s\": \"%s\" is larger than 1 MiB", arg, shown);
		close(fd);
		return NULL;
	}
	char *buf = malloc((size_t)st.st_size + 1);
	ssize_t r = buf ? read(fd, buf, (size_t)st.st_size) : -1;

	close(fd);
	if (r < 0) {
		snprintf(err, len, "--meta \"%s\": cannot read \"%s\": %s", arg, shown,
			 strerror(buf ? errno : ENOMEM));
		free(buf);
		return NULL;
	}
	buf[r] = 0;
	*n = (size_t)r;
	return buf;
}

/* The value as JSON: numbers and true/false stay scalars, the rest is a
 * string, which must be UTF-8 without NUL bytes (a JSON reader refuses
 * "\u0000" unless told otherwise). */
static json_t *value_of(const char *arg, const char *v, char *err, size_t len)
{
	size_t n = strlen(v), bad;
	char *text = NULL, shown[256];

	if (*v == '@') {
		if (!(text = read_value_file(arg, v + 1, &n, err, len)))
			return NULL;
		if (memchr(text, 0, n)) {
			snprintf(err, len, "--meta \"%s\": the file has a NUL byte at offset %zu: "
				 "a value must be text", arg, (size_t)((char *)memchr(text, 0, n) - text));
			free(text);
			return NULL;
		}
		v = text;
	} else {
		json_t *j = json_loads(v, JSON_DECODE_ANY, NULL);

		if (j && (json_is_number(j) || json_is_boolean(j)))
			return j;
		json_decref(j);
	}
	if ((bad = txt_utf8_bad(v, n)) < n) {
		txt_show(v, n, shown, sizeof(shown));
		snprintf(err, len, "--meta \"%s\": the value is not UTF-8 (byte %zu): \"%s\"",
			 arg, bad, shown);
		free(text);
		return NULL;
	}
	json_t *s = json_stringn(v, n);

	free(text);
	if (!s)
		snprintf(err, len, "--meta \"%s\": out of memory", arg);
	return s;
}

int res_meta_set(json_t *doc, const char *assignment, char *err, size_t len)
{
	const char *eq = strchr(assignment, '=');
	size_t alen = strlen(assignment), bad;
	char arg[512];

	txt_show(assignment, alen, arg, sizeof(arg));
	if (!eq || eq == assignment) {
		snprintf(err, len, "--meta \"%s\": expected KEY=VALUE", arg);
		return -1;
	}
	size_t klen = (size_t)(eq - assignment);

	if ((bad = txt_utf8_bad(assignment, klen)) < klen) {
		snprintf(err, len, "--meta \"%s\": the key is not UTF-8 (byte %zu)", arg, bad);
		return -1;
	}
	/* Every dot-separated segment non-empty, and not too many of them. */
	size_t depth = 1;

	for (size_t i = 0; i < klen; i++) {
		if (assignment[i] != '.')
			continue;
		if (++depth > META_MAX_DEPTH) {
			snprintf(err, len, "--meta \"%s\": the key nests deeper than %d levels", arg,
				 META_MAX_DEPTH);
			return -1;
		}
	}
	if (assignment[0] == '.' || assignment[klen - 1] == '.' ||
	    memmem(assignment, klen, "..", 2)) {
		snprintf(err, len, "--meta \"%s\": an empty segment in the key (\".\" at the "
			 "start, at the end, or twice in a row)", arg);
		return -1;
	}
	json_t *val = value_of(arg, eq + 1, err, len);

	if (!val)
		return -1;
	char *key = strndup(assignment, klen), *save = NULL;
	json_t *obj = json_object_get(doc, fld_meta);
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

/* STEM.unsaved-PID.json in dir, where STEM is path's base name without
 * ".json"; prefix before it (the temporary directory's files say whose
 * they are). */
static void salvage_name(const char *path, const char *dir, const char *prefix, char *buf,
			 size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	if (n > 200)
		n = 200; /* NAME_MAX leaves room for the rest */
	snprintf(buf, len, "%s/%s%.*s.unsaved-%ld.json", dir, prefix, (int)n, base, (long)getpid());
}

int res_keep(const char *path, const json_t *doc, char *where, size_t len)
{
	char dir[4096], err[1024];
	const char *slash = strrchr(path, '/'), *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	salvage_name(path, dir, "", where, len);
	if (!res_write(where, 0, doc, err, sizeof(err)))
		return 0;
	salvage_name(path, tmp && *tmp == '/' ? tmp : "/tmp", "slicebench-", where, len);
	if (!res_write(where, 0, doc, err, sizeof(err)))
		return 0;
	/* Nowhere on disk: the result itself on stdout, one line. */
	snprintf(where, len, "stdout");
	if (json_dumpf(doc, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10)) || putchar('\n') == EOF ||
	    fflush(stdout))
		return -1;
	return 1;
}

int res_check_out(const char *path, int force, char *err, size_t len)
{
	return outpath_check(path, force, err, len);
}

void res_default_path(const json_t *doc, int n, char *buf, size_t len)
{
	const char *utc = json_string_value(json_object_get(json_object_get(doc, fld_meta), fld_m_utc));
	char ts[32], *t = ts;
	struct utsname u;

	/* The result's own meta.utc, digits, T and Z only: without '-' and
	 * ':', and never a '/' from a --meta utc=... that replaced it. */
	for (; utc && *utc && t < ts + sizeof(ts) - 1; utc++)
		if ((*utc >= '0' && *utc <= '9') || *utc == 'T' || *utc == 'Z')
			*t++ = *utc;
	*t = 0;
	uname(&u);
	if (n > 1)
		snprintf(buf, len, "results/%s-%s-%s-%d.json", ts, u.nodename, u.release, n);
	else
		snprintf(buf, len, "results/%s-%s-%s.json", ts, u.nodename, u.release);
}
