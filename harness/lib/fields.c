/* fields.c - the result schema's rows (fields.h) and their names. */
#include "fields.h"

#include <stdio.h>
#include <string.h>

#define SB_FLD_NAME(A, sc, id, path, ...) const char fld_##id[] = path;
SB_FIELDS(SB_FLD_NAME, 0)

#define SB_FLD_ROW(A, sc, id, path, type, unit, role, need, help) \
	{ fld_##id, sc, role, need, type, unit, help },
const struct fld fld_table[] = { SB_FIELDS(SB_FLD_ROW, 0) };
const size_t fld_count = sizeof(fld_table) / sizeof(fld_table[0]);

const char *fld_scope_prefix(enum fld_scope sc)
{
	static const char *const pre[] = { "", "meta.", "results[].", "results[].repetitions[]." };

	return pre[sc];
}

const struct fld *fld_of(const char *name)
{
	for (size_t i = 0; i < fld_count; i++)
		if (fld_table[i].path == name)
			return &fld_table[i];
	return NULL;
}

void fld_type_text(unsigned type, char *buf, size_t len)
{
	static const struct {
		unsigned bit;
		const char *a;
	} t[] = {
		{ FT_OBJ, "an object" }, { FT_LIST, "a list" },	  { FT_STR, "a string" },
		{ FT_NUM, "a number" },	 { FT_INT, "an integer" }, { FT_BOOL, "true or false" },
		{ FT_NULL, "null" },
	};
	size_t n = 0;

	*buf = '\0';
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if ((type & t[i].bit) != t[i].bit || (t[i].bit == FT_INT && (type & FT_REAL)))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? " or " : "", t[i].a);
		if (n >= len)
			return;
	}
}

const char *fld_role_name(unsigned role)
{
	static const char *const r[] = { "throughput", "latency", "cost", "share", "count", "meta" };

	return role < sizeof(r) / sizeof(r[0]) ? r[role] : "?";
}

const char *fld_need_text(unsigned need)
{
	static const char *const n[] = { "always", "ok", "ok, a rate", "ok, lock loop", "not ok",
					 "" };

	return need < sizeof(n) / sizeof(n[0]) ? n[need] : "?";
}

const char *fld_key(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot ? dot + 1 : name;
}

const char *fld_rel(const char *name, const char *parent)
{
	size_t n = strlen(parent);

	return !strncmp(name, parent, n) && name[n] == '.' ? name + n + 1 : name;
}
