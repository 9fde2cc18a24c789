/* cfgerr.h - the error context of the JSON loaders (suite configs, plans,
 * the guest's meta and calibration files): messages that name the file and
 * the key path, or the line and column of a syntax error. */
#ifndef SB_CFGERR_H
#define SB_CFGERR_H

#include <stddef.h>

#include <jansson.h>

#include "../core/keys.h"

/* The error context of the config and plan loaders: the file's name and the
 * caller's err buffer. */
struct cfg_ctx {
	const char *file;
	char *err;
	size_t len;
};

/* Writes "FILE: PATH: message" to c->err; returns -1. */
int cfg_fail(struct cfg_ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Writes jansson's parse error as "FILE:LINE:COL: text" (or "FILE: text"
 * without a position) to c->err; returns -1. */
int cfg_fail_parse(struct cfg_ctx *c, const json_error_t *je);
/* "unknown key (did you mean "NEAR"?)" at path, with the name in tabs
 * nearest to name, else none; returns -1. */
int cfg_fail_unknown(struct cfg_ctx *c, const char *path, const char *name,
		     const struct key_desc *const *tabs, size_t ntabs, const char *none);
/* The JSON text of the regular file c->file (what names it in a message:
 * "config file"), duplicate keys rejected: a new reference, or NULL with
 * c->err as "FILE: reason" or "FILE:LINE:COL: text". */
json_t *cfg_read_json(struct cfg_ctx *c, const char *what);

#endif
