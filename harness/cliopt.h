/* cliopt.h - one table per verb for its options: getopt_long's arrays and
 * the options part of the usage text both come from it, as perf's OPT_*
 * arrays do (tools/perf/bench/futex-hash.c), so an option cannot be parsed
 * without being documented or documented without being parsed. */
#ifndef SB_CLIOPT_H
#define SB_CLIOPT_H

#include <stdio.h>

struct cli_opt {
	int key;	  /* the short option letter, returned by cli_getopt */
	const char *name; /* the long option */
	const char *arg;  /* the value's name in the usage text; NULL: a flag */
	const char *help; /* one line, or several joined by '\n' */
};

/* The tables end with { 0 }.  At most CLI_MAX options per verb. */
#define CLI_MAX 24

/* getopt_long over the table: the option's key, -1 after the last option,
 * '?' for an unknown option or a missing value (getopt has said which). */
int cli_getopt(int argc, char **argv, const struct cli_opt *opts);

/* The options block of a usage text, one entry per option, aligned. */
void cli_usage(FILE *f, const struct cli_opt *opts);

#endif
