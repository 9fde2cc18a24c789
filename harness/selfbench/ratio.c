/* ratio.c - the ratio of two paired series with its 95% interval, the way
 * the suite compares runs: one number per independent run, A and
 * B interleaved, Student's t on the log ratios of the pairs (the harness's
 * own st_summarize), reported back as a ratio.
 *   stdin: {"a": [..], "b": [..]} (same length, positive)
 *   stdout: {"n", "median", "gmean", "ci95_lo", "ci95_hi", "min", "max"} of a/b */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "../lib/exitcodes.h"
#include "../lib/stats.h"

int main(void)
{
	json_error_t e;
	json_t *in = json_loadf(stdin, 0, &e);
	json_t *a = json_object_get(in, "a"), *b = json_object_get(in, "b");
	size_t n = json_array_size(a);

	if (!in || !n || n != json_array_size(b)) {
		fprintf(stderr, "ratio: want {\"a\": [...], \"b\": [...]} of equal length: %s\n",
			in ? "bad arrays" : e.text);
		return EXIT_USAGE;
	}
	double *lr = calloc(n, sizeof(*lr)), *r = calloc(n, sizeof(*r));

	if (!lr || !r)
		return 1;
	for (size_t i = 0; i < n; i++) {
		double x = json_number_value(json_array_get(a, i));
		double y = json_number_value(json_array_get(b, i));

		if (!(x > 0) || !(y > 0)) {
			fprintf(stderr, "ratio: pair %zu is not positive (%g, %g)\n", i, x, y);
			return 1;
		}
		r[i] = x / y;
		lr[i] = log(r[i]);
	}
	struct st_summary sl, sr;

	st_summarize(lr, n, &sl);
	st_summarize(r, n, &sr);
	json_t *o = json_pack("{s:I,s:f,s:f,s:f,s:f,s:f,s:f}", "n", (json_int_t)n, "median",
			      sr.median, "gmean", exp(sl.mean), "ci95_lo", exp(sl.ci95_lo),
			      "ci95_hi", exp(sl.ci95_hi), "min", sr.min, "max", sr.max);

	json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(o);
	json_decref(in);
	free(lr);
	free(r);
	return 0;
}
