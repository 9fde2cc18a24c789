/* writecost.c - how long the harness takes to write a result: loads a
 * result file and writes it again with the harness's own res_write()
 * (serialise, write, fsync, rename) into DIR, best and median of N.
 *   writecost RESULT.json DIR [N]  ->  JSON on stdout */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <jansson.h>

#include "../lib/exitcodes.h"
#include "../engine/results.h"
#include "../lib/stats.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	json_error_t e;
	char err[512], path[4096];

	if (argc < 3) {
		fprintf(stderr, "usage: writecost RESULT.json DIR [N]\n");
		return EXIT_USAGE;
	}
	int n = argc > 3 ? atoi(argv[3]) : 5;
	json_t *doc = json_load_file(argv[1], 0, &e);

	if (!doc || n < 1) {
		fprintf(stderr, "writecost: %s:%d:%d: %s\n", argv[1], e.line, e.column, e.text);
		return EXIT_USAGE;
	}
	double *t = calloc((size_t)n, sizeof(*t));

	snprintf(path, sizeof(path), "%s/writecost.json", argv[2]);
	for (int i = 0; i < n; i++) {
		double t0 = now_s();

		if (res_write(path, 0, doc, err, sizeof(err))) {
			fprintf(stderr, "writecost: %s\n", err);
			return 1;
		}
		t[i] = now_s() - t0;
		remove(path);
	}
	struct st_summary s;

	st_summarize(t, (size_t)n, &s);
	json_t *o = json_pack("{s:i,s:f,s:f}", "n", n, "min_s", s.min, "median_s", s.median);

	json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(o);
	json_decref(doc);
	free(t);
	return 0;
}
