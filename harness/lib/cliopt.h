/* cliopt.h - one table per verb for its options: getopt_long's arrays and
 * the options part of the usage text both come from it, as perf's OPT_*
 * arrays do (tools/perf/bench/futex-hash.c), so an option cannot be parsed
 * without being documented or documented without being parsed. */
#ifndef SB_CLIOPT_H
#define SB_CLIOPT_H

#include <stdio.h>

struct cli_opt {
	int key;	  /* the short option letter, returned by cli_getopt; from
			   * CLI_LONG up, a long option only (no letter) */
	const char *name; /* the long option */
	const char *arg;  /* the value's name in the usage text; NULL: a flag */
	const char *help; /* one line, or several joined by '\n' */
};

/* The tables end with { 0 }.  At most CLI_MAX options per verb. */
#define CLI_MAX 24
/* The first key of the long-only options (getopt_long returns it). */
#define CLI_LONG 0x100

/* getopt_long over the table: the option's key, -1 after the last option,
 * '?' for an unknown option or a missing value (getopt has said which). */
int cli_getopt(int argc, char **argv, const struct cli_opt *opts);

/* The options block of a usage text, one entry per option, aligned. */
void cli_usage(FILE *f, const struct cli_opt *opts);

/* A verb's command line as a whole, so every verb's usage text has one
 * layout, from one printer:
 *
 *   usage: SYNOPSIS
 *   (blank line)
 *   ABOUT
 *   (two blank lines, then the options block, when there are options)
 *   what more() prints: keys, metrics...
 *   (blank line) exit status: EXITS   (when set) */
struct cli_cmd {
	const char *name;	    /* the verb: messages start "slicebench NAME: " */
	const char *synopsis;	    /* the lines after "usage: ", each ending in '\n' */
	const char *about;	    /* what the verb does, ending in '\n' */
	const struct cli_opt *opts; /* with an 'h' (help) entry; NULL: none */
	void (*more)(FILE *f);	    /* NULL: nothing */
	const char *exits;	    /* NULL: no exit status line */
};

void cli_cmd_usage(FILE *f, const struct cli_cmd *cmd);

/* cli_getopt over cmd's options, with help and mistakes handled: the
 * option's key; -1 after the last option; 0 when the verb is done and
 * returns *status: 0 after -h (the usage on stdout), EXIT_USAGE after an
 * unknown option or a missing value (getopt's message and "try
 * 'slicebench NAME --help'" on stderr). */
int cli_next(int argc, char **argv, const struct cli_cmd *cmd, int *status);

/* "slicebench NAME: MESSAGE" and "try 'slicebench NAME --help'" on stderr;
 * returns EXIT_USAGE. */
int cli_misuse(const struct cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
