/* validate.c - `slicebench validate`: result files against the schema of
 * README "Result format" (rescheck.c).  For committed reference results and
 * for anyone who edits or generates result files by other means. */
#include <stdio.h>
#include <string.h>

#include "rescheck.h"
#include "resload.h"

#include "../harness/cliopt.h"
#include "../harness/exitcodes.h"

static const struct cli_cmd validate_cmd = {
	.name = "validate",
	.synopsis = "slicebench validate RESULT.json [MORE.json | DIR ...]\n",
	.about = "Checks each file against the result schema (README \"Result format\"):\n"
		 "the envelope, every status with its reason, and for ok results the\n"
		 "repetitions, the ops/s summary with its interval and ordered\n"
		 "percentiles.  Prints FILE: ok (N results) per file.  compare and plot\n"
		 "run the same checks on their inputs and refuse a file that fails.\n",
	.exits = "0 all valid, 2 a file is not",
};

int cmd_validate(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_cmd_usage(argc < 2 ? stderr : stdout, &validate_cmd);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	int bad = 0;

	for (int a = 1; a < argc; a++) {
		json_t *doc;
		char err[512];

		if (res_load(argv[a], &doc, err, sizeof(err))) {
			fprintf(stderr, "slicebench validate: %s\n", err);
			bad = 1;
			continue;
		}
		if (res_check_doc(doc, "slicebench validate", argv[a], stderr))
			bad = 1;
		else
			printf("%s: ok (%zu results)\n", argv[a],
			       json_array_size(json_object_get(doc, "results")));
		json_decref(doc);
	}
	return bad ? EXIT_USAGE : 0;
}
