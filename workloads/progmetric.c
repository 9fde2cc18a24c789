/* progmetric.c - see progmetric.h. */
#include "progmetric.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

int pm_check_regex(const char *regex, char *err, size_t len)
{
	regex_t re;
	int rc = regcomp(&re, regex, REG_EXTENDED);

	if (rc) {
		char msg[128];

		regerror(rc, &re, msg, sizeof(msg));
		snprintf(err, len, "\"%s\" is not an extended regex: %s", regex, msg);
		return -1;
	}
	size_t groups = re.re_nsub;

	regfree(&re);
	if (groups < 1) {
		snprintf(err, len, "\"%s\" has no group: put the number in ( )", regex);
		return -1;
	}
	return 0;
}

/* strtok_r, which by_path splits with, reads "a..b" as "a.b": an empty
 * name is refused instead of silently skipped. */
int pm_check_path(const char *path, char *err, size_t len)
{
	const char *dd = strstr(path, "..");
	size_t n = strlen(path);

	if (!n) {
		snprintf(err, len, "\"\": an empty path");
		return -1;
	}
	if (path[0] == '.' || path[n - 1] == '.' || dd) {
		snprintf(err, len, "\"%s\": an empty name %s", path,
			 path[0] == '.' ? "before the first dot"
			 : dd		? "between two dots (write \"a.b\", \"runs.0.rate\")"
					: "after the last dot");
		return -1;
	}
	return 0;
}

/* Why v is no metric (not finite, negative, above PM_MAX), or NULL. */
static const char *out_of_range(double v)
{
	if (!isfinite(v))
		return "not a finite number";
	if (v < 0)
		return "negative";
	return v > PM_MAX ? "above 1e15" : NULL;
}

/* The number the group matched at s, n bytes into out; a value out of
 * range is named with its line of the output, as printed. */
static int number(const char *out, const char *s, size_t n, double *v, char *err, size_t len)
{
	char buf[64], *end;
	const char *why;

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	*v = strtod(buf, &end);
	if (end == buf || *end || errno) {
		snprintf(err, len, "metric: the group matched \"%s\", not a number", buf);
		return -1;
	}
	if (!(why = out_of_range(*v)))
		return 0;
	const char *bol = s, *eol = strchr(s, '\n');
	int line = 1;

	while (bol > out && bol[-1] != '\n')
		bol--;
	for (const char *p = out; p < bol; p++)
		line += *p == '\n';
	if (!eol)
		eol = s + strlen(s);
	snprintf(err, len, "metric: \"%s\" on line %d of the output (\"%.*s\"%s) is %s", buf, line,
		 eol - bol > 80 ? 80 : (int)(eol - bol), bol, eol - bol > 80 ? "..." : "", why);
	return -1;
}

static int by_regex(const char *out, const char *regex, double *v, char *err, size_t len)
{
	regex_t re;
	regmatch_t m[2], last[2] = { { -1, -1 }, { -1, -1 } };
	int found = 0;

	if (regcomp(&re, regex, REG_EXTENDED | REG_NEWLINE))
		return pm_check_regex(regex, err, len);
	for (const char *p = out; !regexec(&re, p, 2, m, p == out ? 0 : REG_NOTBOL);) {
		found = 1;
		last[1].rm_so = m[1].rm_so + (p - out);
		last[1].rm_eo = m[1].rm_eo + (p - out);
		p += m[0].rm_eo > m[0].rm_so ? m[0].rm_eo : m[0].rm_eo + 1;
		if (p > out + strlen(out))
			break;
	}
	regfree(&re);
	if (!found || last[1].rm_so < 0) {
		snprintf(err, len, "metric: /%s/ matched nothing in the program's output", regex);
		return -1;
	}
	return number(out, out + last[1].rm_so, (size_t)(last[1].rm_eo - last[1].rm_so), v, err, len);
}

static int by_path(const char *out, const char *path, double *v, char *err, size_t len)
{
	json_error_t je;
	json_t *root = json_loads(out, JSON_DECODE_ANY, &je), *cur = root;

	if (!root) {
		snprintf(err, len, "metric_json: the output is not JSON: line %d column %d: %s",
			 je.line, je.column, je.text);
		return -1;
	}
	char *copy = strdup(path), *save = NULL;

	for (char *k = strtok_r(copy, ".", &save); cur && k; k = strtok_r(NULL, ".", &save)) {
		if (json_is_array(cur)) {
			char *end;
			unsigned long i = strtoul(k, &end, 10);

			cur = *end ? NULL : json_array_get(cur, i);
		} else {
			cur = json_object_get(cur, k);
		}
		if (!cur)
			snprintf(err, len, "metric_json: \"%s\": no \"%s\" in the output", path, k);
	}
	free(copy);
	int rc = 0;

	if (cur && !json_is_number(cur)) {
		snprintf(err, len, "metric_json: \"%s\" is not a number in the output", path);
		rc = -1;
	} else if (!cur) {
		rc = -1;
	} else {
		const char *why = out_of_range(*v = json_number_value(cur));

		if (why) {
			snprintf(err, len, "metric_json: \"%s\" in the output is %g: %s", path, *v, why);
			rc = -1;
		}
	}
	json_decref(root);
	return rc;
}

int pm_extract(const char *out, const char *regex, const char *json_path, double *v, char *err,
	       size_t len)
{
	if (*regex)
		return by_regex(out, regex, v, err, len);
	return pm_check_path(json_path, err, len) ? -1 : by_path(out, json_path, v, err, len);
}
