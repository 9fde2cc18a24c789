/* keyobj.c - a file's JSON object checked against a key table: the plan
 * and study files' validation (keyobj.h). */
#include "keyobj.h"

#include <stdio.h>
#include <string.h>

int kobj_check_name(struct cfg_ctx *c, const char *path, const char *s)
{
	if (!*s)
		return cfg_fail(c, path, "must not be empty");
	if (strlen(s) > KOBJ_NAME_LEN)
		return cfg_fail(c, path, "\"%.32s...\" is %zu characters long, at most %d", s,
				strlen(s), KOBJ_NAME_LEN);
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			return cfg_fail(c, path, "\"%s\": only letters, digits, '.', '_' and '-'",
					s);
	if (*s == '.')
		return cfg_fail(c, path, "\"%s\" must not start with '.'", s);
	return 0;
}

static int check_text(struct cfg_ctx *c, const char *path, const char *s)
{
	if (strpbrk(s, "\t\n"))
		return cfg_fail(c, path, "must not contain tabs or newlines");
	return 0;
}

/* "--NAME", "--NAME=V" or an abbreviation getopt_long would take for it
 * (3 letters or more), "-X" or "-XV": the entry of tab a is, or NULL. */
static const struct owned_opt *owned_opt(const struct owned_opt *tab, const char *a)
{
	for (; tab->name; tab++) {
		if (a[0] == '-' && a[1] == '-') {
			size_t n = strcspn(a + 2, "=");

			if (n >= 3 && !strncmp(a + 2, tab->name, n) && n <= strlen(tab->name))
				return tab;
		} else if (a[0] == '-' && tab->shrt && a[1] == tab->shrt) {
			return tab;
		}
	}
	return NULL;
}

int kobj_check_args(struct cfg_ctx *c, const json_t *args, const char *key,
		    const struct owned_opt *tab)
{
	size_t i;
	json_t *e;

	json_array_foreach(args, i, e) {
		const char *a = json_string_value(e);
		char path[64];
		const struct owned_opt *k = owned_opt(tab, a);

		snprintf(path, sizeof(path), "%s[%zu]", key, i);
		if (!*a)
			return cfg_fail(c, path, "an empty argument");
		/* a value follows its option ("--qos", "long"); one that follows
		 * no option is what sbatch takes for the script */
		const char *prev = i ? json_string_value(json_array_get(args, i - 1)) : "";

		if (a[0] != '-' && (prev[0] != '-' || strchr(prev, '=')))
			return cfg_fail(c, path, "\"%s\" is not an option and follows none that "
						 "takes a value", a);
		if (k)
			return cfg_fail(c, path, "\"%s\": --%s is not allowed here: %s", a, k->name,
					k->why);
	}
	return 0;
}

int kobj_check(struct cfg_ctx *c, const json_t *o, const char *path, const struct key_desc *tab)
{
	const char *name;
	json_t *v;
	char sub[256], msg[256];

	if (!json_is_object(o))
		return cfg_fail(c, *path ? path : "(top level)", "must be an object");
	json_object_foreach((json_t *)o, name, v) {
		const struct key_desc *k = key_find(tab, name);

		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", name);
		if (!k)
			return cfg_fail_unknown(c, sub, name, &tab, 1, "unknown key");
		if (k->type == KT_LIST && k->sub)
			continue; /* a list of objects: the caller's */
		if (key_check(k, v, msg, sizeof(msg)))
			return cfg_fail(c, sub, "%s", msg);
		if ((k->type == KT_STR || k->type == KT_ENUM) &&
		    check_text(c, sub, json_string_value(v)))
			return -1;
		if (k->type == KT_LIST) {
			size_t i;
			json_t *e;

			if (json_array_size(v) < (size_t)k->min)
				return cfg_fail(c, sub, "must be a non-empty list");
			json_array_foreach(v, i, e) {
				char el[300];

				snprintf(el, sizeof(el), "%s[%zu]", sub, i);
				if (check_text(c, el, json_string_value(e)))
					return -1;
			}
		}
		if (k->type == KT_OBJ && k->sub && kobj_check(c, v, sub, k->sub))
			return -1;
	}
	return 0;
}

int kobj_check_distinct(struct cfg_ctx *c, const json_t *list, const char *key, const char *why)
{
	size_t i, j;

	for (i = 0; i < json_array_size(list); i++)
		for (j = 0; j < i; j++)
			if (!strcmp(json_string_value(json_array_get(list, i)),
				    json_string_value(json_array_get(list, j)))) {
				char path[64];

				snprintf(path, sizeof(path), "%s[%zu]", key, i);
				return cfg_fail(c, path, "\"%s\" is listed twice (as %s[%zu])%s",
						json_string_value(json_array_get(list, i)), key, j,
						why);
			}
	return 0;
}
