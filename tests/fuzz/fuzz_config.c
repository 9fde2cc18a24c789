/* fuzz_config.c - libFuzzer target for the config loader: no input may
 * crash it, leak or hit undefined behaviour, and every rejected input must
 * carry a message that names the file and then a line:column or a key. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/engine/config.h"
#include "../../harness/os/topo.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[256];

	(void)argc;
	(void)argv;
	if (topo_init(err, sizeof(err))) {
		fprintf(stderr, "fuzz_config: %s\n", err);
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfg_suite s;
	char err[1024] = "";
	int rc = cfg_load_buffer("fuzz.json", (const char *)data, size, &s, err, sizeof(err));

	/* "fuzz.json:L:C: ..." (syntax) or "fuzz.json: key.path: ..." */
	if (rc && strncmp(err, "fuzz.json:", 10)) {
		fprintf(stderr, "rejected without naming the file: \"%s\"\n", err);
		abort();
	}
	if (!rc && !s.nruns)
		abort(); /* accepted, but nothing to run */
	if (!rc && s.nruns > CFG_MAX_RUNS)
		abort(); /* past the stated cap */
	for (size_t i = 0; !rc && i < s.nruns; i++) {
		const char *t = json_string_value(json_object_get(s.runs[i].params, "threads"));
		size_t n = t ? strlen(t) : 0;

		/* One spelling per point: "Nx" is [1-9][0-9]*x, nothing else. */
		if (t && (n < 2 || t[0] < '1' || t[0] > '9' || t[n - 1] != 'x' ||
			  strspn(t, "0123456789") != n - 1)) {
			fprintf(stderr, "accepted threads \"%s\"\n", t);
			abort();
		}
	}
	cfg_free(&s);
	return 0;
}
