/* keyobj.h - a file's JSON object checked against a key table (keys.h),
 * as the plan files (plan.c) and the study files (harness/cli/study.c) are:
 * errors name FILE: key.path and the value given (struct cfg_ctx). */
#ifndef SB_KEYOBJ_H
#define SB_KEYOBJ_H

#include <jansson.h>

#include "config.h"
#include "../core/keys.h"

/* The longest name: a plan's results go to results/<name>/ and its jobs
 * are named sb-<name>-<machine>; a longer name passed and then failed at
 * mkdir ("File name too long", past 255 bytes). */
#define KOBJ_NAME_LEN 100

/* The keys of object o (at path, "" = the top level) against tab: unknown
 * keys get the nearest name, each value its type and range, strings and
 * list elements no tabs or newlines (the drivers read tab-separated
 * lines), KT_OBJ values their .sub keys.  A KT_LIST with .sub is a list of
 * objects: left to the caller. */
int kobj_check(struct cfg_ctx *c, const json_t *o, const char *path, const struct key_desc *tab);
/* s becomes a directory or file name: not empty, at most KOBJ_NAME_LEN,
 * only [A-Za-z0-9._-], not starting with '.'. */
int kobj_check_name(struct cfg_ctx *c, const char *path, const char *s);
/* Each string of list once; why ends the message ("" or "; use ..."). */
int kobj_check_distinct(struct cfg_ctx *c, const json_t *list, const char *key, const char *why);

/* An option a driver sets itself, so a list of extra options for the
 * program it calls must not hold it: the short letter (0 none), the long
 * name and why. */
struct owned_opt {
	char shrt;
	const char *name, *why;
};

/* args (the list at key): every element an option or the value of the
 * option before it, none of them in tab ("--NAME", "--NAME=V", an
 * abbreviation of 3 letters or more as getopt_long takes it, "-X", "-XV"). */
int kobj_check_args(struct cfg_ctx *c, const json_t *args, const char *key,
		    const struct owned_opt *tab);

#endif
