/* cfgerr.c - see cfgerr.h. */
#include "cfgerr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/regfile.h"
#include "../lib/txtshow.h"

int cfg_fail(struct cfg_ctx *c, const char *path, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The key path and the value come from the file: no control byte of
	 * theirs reaches the terminal (txtshow.h). */
	char *sp = txt_term(path), *sm = txt_term(msg);

	snprintf(c->err, c->len, "%s: %s: %s", c->file, sp ? sp : path, sm ? sm : msg);
	free(sp);
	free(sm);
	return -1;
}

int cfg_fail_parse(struct cfg_ctx *c, const json_error_t *je)
{
	if (je->line < 0)
		snprintf(c->err, c->len, "%s: %s", c->file, je->text);
	else
		snprintf(c->err, c->len, "%s:%d:%d: %s", c->file, je->line, je->column, je->text);
	return -1;
}

int cfg_fail_unknown(struct cfg_ctx *c, const char *path, const char *name,
		     const struct key_desc *const *tabs, size_t ntabs, const char *none)
{
	const char *near = key_suggest(name, tabs, ntabs);

	if (near)
		return cfg_fail(c, path, "unknown key (did you mean \"%s\"?)", near);
	return cfg_fail(c, path, "%s", none);
}

json_t *cfg_read_json(struct cfg_ctx *c, const char *what)
{
	json_error_t je;
	/* A directory is named as one (jansson would say "'[' or '{' expected
	 * near end of file" at 1:0), and a FIFO does not block. */
	int fd = regfile_open(c->file, what, c->err, c->len);
	json_t *root;

	if (fd < 0)
		return NULL;
	root = json_loadfd(fd, JSON_REJECT_DUPLICATES, &je);
	close(fd);
	if (!root)
		cfg_fail_parse(c, &je);
	return root;
}
