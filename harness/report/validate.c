/* validate.c - `slicebench validate`: result files against the result
 * schema (harness/lib/fields.h, docs/result-schema.md; rescheck.c).  For committed reference results and
 * for anyone who edits or generates result files by other means. */
#include <stdio.h>
#include <string.h>

#include "rescheck.h"
#include "resload.h"

#include "../lib/cliopt.h"
#include "../lib/exitcodes.h"
#include "../lib/fields.h"

static const struct cli_cmd validate_cmd = {
	.name = "validate",
	.synopsis = "slicebench validate [--strict] RESULT.json [MORE.json | DIR ...]\n",
	.about = "Checks each file against the result schema (docs/result-schema.md,\n"
		 "`slicebench schema`): every field's type, the fields each status\n"
		 "requires, every status with its reason, and for ok results the\n"
		 "repetitions, the ops/s summary with its interval and ordered\n"
		 "percentiles.  --strict: a key the schema does not declare is an\n"
		 "error too (a --meta key is one).  Prints FILE: ok (N results) per\n"
		 "file.  compare and plot run the same checks (not --strict) on their\n"
		 "inputs and refuse a file that fails.\n",
	.exits = "0 all valid, 2 a file is not",
};

int cmd_validate(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_cmd_usage(argc < 2 ? stderr : stdout, &validate_cmd);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	int bad = 0, strict = !strcmp(argv[1], "--strict");

	if (strict && argc < 3) {
		cli_cmd_usage(stderr, &validate_cmd);
		return EXIT_USAGE;
	}
	for (int a = 1 + strict; a < argc; a++) {
		json_t *doc;
		char err[512];

		if (res_load(argv[a], &doc, err, sizeof(err))) {
			fprintf(stderr, "slicebench validate: %s\n", err);
			bad = 1;
			continue;
		}
		if (res_check_doc(doc, strict, "slicebench validate", argv[a], stderr))
			bad = 1;
		else
			printf("%s: ok (%zu results)\n", argv[a],
			       json_array_size(json_object_get(doc, fld_results)));
		json_decref(doc);
	}
	return bad ? EXIT_USAGE : 0;
}
