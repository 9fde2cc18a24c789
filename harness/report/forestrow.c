/* forestrow.c - a forest's rows labelled from their points (forestrow.h). */
#include "forestrow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resget.h"

void frow_parse_point(const char *pt, struct fkeys *ks, struct frow *fr)
{
	char buf[512], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", pt);
	for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		size_t k;

		if (!eq)
			continue;
		*eq = '\0';
		for (k = 0; k < ks->n && strcmp(ks->name[k], tok); k++)
			;
		if (k == ks->n) {
			if (ks->n == MAXKEYS)
				continue;
			snprintf(ks->name[ks->n++], sizeof(ks->name[0]), "%s", tok);
		}
		snprintf(fr->vals[k], sizeof(fr->vals[k]), "%s", eq + 1);
	}
}

static int key_varies(const struct frow *r, size_t n, size_t k)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(r[i].vals[k], r[0].vals[k]))
			return 1;
	return 0;
}

static int key_follows(const struct frow *r, size_t n, size_t k, size_t by)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(r[i].vals[by], r[j].vals[by]) && strcmp(r[i].vals[k], r[j].vals[k]))
				return 0;
	return 1;
}

static int same_place(const struct frow *x, const struct frow *y)
{
	return !strcmp(x->panel, y->panel) && !strcmp(x->group, y->group) &&
	       !strcmp(x->series, y->series);
}

/* Rows that would be drawn with the same label (the same point and
 * workload: runs that differ only in settings the point leaves out, as an
 * A/A check's tighter interval target beside the sweep's run at the same
 * threads) are told apart by their runs' labels: B's, or A's when B's
 * are alike too. */
static void tell_apart(struct frow *r, size_t n)
{
	char *dup = calloc(n + 1, 1);

	for (size_t i = 0; dup && i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (j != i && same_place(&r[i], &r[j])) {
				const char *bi = res_str(r[i].row, "b.label", "");

				dup[i] |= strcmp(bi, res_str(r[j].row, "b.label", "")) ? 1 : 2;
			}
	for (size_t i = 0; dup && i < n; i++) {
		const char *lb = res_str(r[i].row, dup[i] & 2 ? "a.label" : "b.label", "");
		size_t l = strlen(r[i].group);

		if (dup[i] && *lb)
			snprintf(r[i].group + l, sizeof(r[i].group) - l, " (run %s)", lb);
	}
	free(dup);
}

/* Sets each row's panel and group from the keys that vary. */
void frow_label(struct frow *r, size_t n, const struct fkeys *ks, int by_tag)
{
	size_t vk[MAXKEYS], nv = 0;

	for (size_t k = 0; k < ks->n; k++) {
		int keep = key_varies(r, n, k);

		for (size_t j = 0; keep && j < nv; j++)
			if (key_follows(r, n, k, vk[j]))
				keep = 0;
		if (keep)
			vk[nv++] = k;
	}
	for (size_t i = 0; i < n; i++) {
		size_t first = nv >= 2 ? 1 : 0, pl = 0, gl = 0;

		r[i].panel[0] = r[i].group[0] = '\0';
		if (by_tag && r[i].tag)
			pl += (size_t)snprintf(r[i].panel, sizeof(r[i].panel), "%s", r[i].tag);
		if (first && r[i].vals[vk[0]][0]) /* a key its report did not vary */
			snprintf(r[i].panel + pl, sizeof(r[i].panel) - pl, "%s%s=%s", pl ? ", " : "",
				 ks->name[vk[0]], r[i].vals[vk[0]]);
		for (size_t j = first; j < nv && gl < sizeof(r[i].group); j++)
			if (r[i].vals[vk[j]][0]) /* a key its own report did not vary */
				gl += (size_t)snprintf(r[i].group + gl, sizeof(r[i].group) - gl,
						       "%s%s=%s", gl ? " " : "", ks->name[vk[j]],
						       r[i].vals[vk[j]]);
		if (!r[i].group[0])
			snprintf(r[i].group, sizeof(r[i].group), "all");
	}
	tell_apart(r, n);
}

/* Splits every panel by lock when one holds more than ANSWER_PANEL_ROWS
 * rows of several locks; the rows are in report, then lock order, so the
 * panels run lock by lock along a report's row of the layout. */
void frow_split_by_lock(struct frow *r, size_t n)
{
	int split = 0;

	for (size_t i = 0; i < n && !split; i++) {
		size_t rows = 0, other = 0;

		for (size_t j = 0; j < n; j++)
			if (!strcmp(r[j].panel, r[i].panel)) {
				rows++;
				other |= strcmp(r[j].st.lock, r[i].st.lock) != 0;
			}
		split = rows > ANSWER_PANEL_ROWS && other;
	}
	for (size_t i = 0; split && i < n; i++) {
		size_t l = strlen(r[i].panel);

		snprintf(r[i].panel + l, sizeof(r[i].panel) - l, "%slock=%s", l ? ", " : "",
			 r[i].st.lock);
	}
}
