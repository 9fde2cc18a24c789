/* textfmt.c - small formatters shared by the report writers (compare, plot). */
#include "textfmt.h"

#include <stdlib.h>
#include <string.h>

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
