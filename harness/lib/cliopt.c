/* cliopt.c - a verb's option table turned into getopt_long's arrays and
 * into the options block of its usage text; a verb's usage text. */
#define _GNU_SOURCE
#include "cliopt.h"

#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include "exitcodes.h"

int cli_getopt(int argc, char **argv, const struct cli_opt *opts)
{
	struct option lo[CLI_MAX + 1];
	char so[3 * CLI_MAX + 1], *s = so;
	size_t n = 0;

	/* Built per call from the const table: getopt keeps its position in
	 * optind and its own state, not in these arrays. */
	for (; opts[n].key && n < CLI_MAX; n++) {
		lo[n] = (struct option){ opts[n].name, opts[n].arg ? required_argument : no_argument,
					 NULL, opts[n].key };
		if (opts[n].key >= CLI_LONG)
			continue;
		*s++ = (char)opts[n].key;
		if (opts[n].arg)
			*s++ = ':';
	}
	lo[n] = (struct option){ 0 };
	*s = '\0';
	return getopt_long(argc, argv, so, lo, NULL);
}

void cli_usage(FILE *f, const struct cli_opt *opts)
{
	int w = 0;

	for (const struct cli_opt *o = opts; o->key; o++) {
		int l = (int)strlen(o->name) + (o->arg ? 1 + (int)strlen(o->arg) : 0);

		if (l > w)
			w = l;
	}
	for (const struct cli_opt *o = opts; o->key; o++) {
		char left[64];
		const char *h = o->help, *nl;

		snprintf(left, sizeof(left), "%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		nl = strchr(h, '\n');
		if (o->key < CLI_LONG)
			fprintf(f, "  -%c, ", o->key);
		else
			fputs("      ", f);
		fprintf(f, "--%-*s  %.*s\n", w, left, nl ? (int)(nl - h) : (int)strlen(h), h);
		while (nl) {
			h = nl + 1;
			nl = strchr(h, '\n');
			fprintf(f, "  %*s  %.*s\n", w + 6, "", nl ? (int)(nl - h) : (int)strlen(h), h);
		}
	}
}

void cli_cmd_usage(FILE *f, const struct cli_cmd *cmd)
{
	fprintf(f, "usage: %s\n%s", cmd->synopsis, cmd->about);
	if (cmd->opts) {
		fputs("\n\n", f);
		cli_usage(f, cmd->opts);
	}
	if (cmd->more)
		cmd->more(f);
	if (cmd->exits)
		fprintf(f, "\nexit status: %s\n", cmd->exits);
}

int cli_next(int argc, char **argv, const struct cli_cmd *cmd, int *status)
{
	int c = cli_getopt(argc, argv, cmd->opts);

	if (c == 'h') {
		cli_cmd_usage(stdout, cmd);
		*status = 0;
		return 0;
	}
	if (c == '?') {
		/* getopt has named the option: one line more, not the usage */
		fprintf(stderr, "try 'slicebench %s --help'\n", cmd->name);
		*status = EXIT_USAGE;
		return 0;
	}
	return c;
}

int cli_misuse(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "slicebench %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fprintf(stderr, "try 'slicebench %s --help'\n", cmd->name);
	return EXIT_USAGE;
}
