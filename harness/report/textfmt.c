/* textfmt.c - small formatters shared by the report writers (compare, plot). */
#include "textfmt.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/txtshow.h"

void html_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

char *html_esc_dup(const char *s)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	html_esc(f, s);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

json_t *json_map_strings(const json_t *v, char *(*fn)(const char *))
{
	json_t *o, *x;
	const char *k;
	size_t i;

	if (json_is_string(v)) {
		char *t = fn(json_string_value(v));
		json_t *r = t ? json_string(t) : NULL;

		free(t);
		/* a value the copy cannot show (out of memory, or not UTF-8
		 * after the mapping): "?" rather than the bytes */
		return r ? r : json_string("?");
	}
	if (json_is_array(v)) {
		o = json_array();
		json_array_foreach(v, i, x)
			json_array_append_new(o, json_map_strings(x, fn));
		return o;
	}
	if (json_is_object(v)) {
		o = json_object();
		json_object_foreach((json_t *)v, k, x) {
			char *t = fn(k);

			json_object_set_new(o, t ? t : "?", json_map_strings(x, fn));
			free(t);
		}
		return o;
	}
	return json_deep_copy(v);
}

void val_str(const json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_null(v) || !v)
		snprintf(buf, len, "off");
	else if (json_is_object(v) && json_is_string(json_object_get(v, "policy")))
		snprintf(buf, len, "%s", json_string_value(json_object_get(v, "policy")));
	else if (json_is_object(v))
		snprintf(buf, len, "on");
	else {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

		snprintf(buf, len, "%s", s ? s : "?");
		free(s);
	}
}

void ratio_str(double x, char *buf, size_t len)
{
	if (!(x > 0))
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, x >= 100 ? "x%.0f" : x < 0.01 ? "x%.0e" : "x%.3g", x);
}
