/* units.c - times with their unit, from one table of units. */
#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	double ns;
} time_units[] = {
	{ "ns", 1 },
	{ "us", 1e3 },
	{ "ms", 1e6 },
	{ "s", 1e9 },
};
#define NUNITS (sizeof(time_units) / sizeof(time_units[0]))

static double unit_ns(const char *unit)
{
	for (size_t i = 0; unit && i < NUNITS; i++)
		if (!strcmp(time_units[i].name, unit))
			return time_units[i].ns;
	return 0;
}

int unit_is_time(const char *unit)
{
	return unit_ns(unit) > 0;
}

/* The length of the decimal number text starts with (digits, an optional
 * fraction, an optional exponent), 0 if none: strtod alone would take a
 * sign, hex, "inf" and "nan". */
static size_t number_len(const char *t)
{
	size_t i = 0, d = 0;

	while (t[i] >= '0' && t[i] <= '9')
		i++, d++;
	if (t[i] == '.')
		for (i++; t[i] >= '0' && t[i] <= '9'; i++)
			d++;
	if (!d)
		return 0;
	if (t[i] == 'e' || t[i] == 'E') {
		size_t j = i + 1;

		if (t[j] == '+' || t[j] == '-')
			j++;
		if (t[j] >= '0' && t[j] <= '9') {
			while (t[j] >= '0' && t[j] <= '9')
				j++;
			i = j;
		}
	}
	return i;
}

int unit_time(const char *text, const char *to, double *out, char *msg, size_t len)
{
	size_t n = number_len(text);
	const char *u = text + n;
	double from = *u ? unit_ns(u) : unit_ns(to);

	if (!n) {
		snprintf(msg, len, "not a time (a number and ns, us, ms or s: 200ns, 1.5us, 5s)");
		return -1;
	}
	if (!from) {
		snprintf(msg, len, "unknown unit \"%s\" (ns, us, ms or s)", u);
		return -1;
	}
	*out = strtod(text, NULL) * from / unit_ns(to);
	return 0;
}
