/* catalog.c - `slicebench list` and docs/manual.md's tables from the registry. */
#include "catalog.h"

#include <string.h>

#include "../core/keys.h"
#include "../core/policy.h"
#include "../core/workload.h"

void catalog_print(FILE *f)
{
	const struct workload_ops *o;

	fprintf(f, "locks (key \"lock\"):\n");
	for (size_t i = 0; wl_locks[i]; i++) {
		fprintf(f, "  %-18s %s%s\n", wl_locks[i]->name, wl_locks[i]->desc,
			wl_has_trylock(wl_locks[i]) ? " [trylock]" : "");
		if (wl_locks[i]->keys)
			key_print_table(f, wl_locks[i]->keys);
	}
	fprintf(f, "\npolicies (key \"policy\"; \"dry\": true makes any of them its control):\n");
	for (int p = 0; p < POL_COUNT; p++)
		fprintf(f, "  %-18s %s\n", wl_policy_names[p], wl_policy_help[p]);
	fprintf(f, "\nworkloads (key \"workload\": one of these, or LOCK+POLICY[+dry]):\n");
	for (size_t i = 0; (o = wl_named(i)); i++) {
		if (o->lock)
			fprintf(f, "  %-18s %s+%s%s: %s\n", o->name, o->lock->name,
				wl_policy_names[o->policy], o->dry ? "+dry" : "", o->desc);
		else
			fprintf(f, "  %-18s %s\n", o->name, o->desc);
		/* the program arms share one key table: shown once */
		if (!o->lock && o->keys && (!i || wl_named(i - 1)->keys != o->keys))
			key_print_table(f, o->keys);
	}
}

void catalog_keys_markdown(FILE *f)
{
	const struct workload_ops *o;

	fprintf(f, "| key | applies to | default | unit | range | meaning |\n"
		   "|---|---|---|---|---|---|\n");
	key_print_markdown(f, suite_opts, "the suite (top level)");
	key_print_markdown(f, run_keys, "every run");
	for (size_t i = 0; wl_locks[i]; i++) {
		char scope[128];

		if (!wl_locks[i]->keys)
			continue;
		snprintf(scope, sizeof(scope), "lock `%s`", wl_locks[i]->name);
		key_print_markdown(f, wl_locks[i]->keys, scope);
	}
	for (size_t i = 0; (o = wl_named(i)); i++) {
		char scope[128];

		const struct workload_ops *next = wl_named(i + 1);

		if (o->lock || !o->keys || (i && wl_named(i - 1)->keys == o->keys))
			continue;
		snprintf(scope, sizeof(scope), "`%s`%s", o->name,
			 next && next->keys == o->keys ? " (and its arms)" : "");
		key_print_markdown(f, o->keys, scope);
	}
}

void catalog_tables_markdown(FILE *f)
{
	const struct workload_ops *o;

	fprintf(f, "| lock | trylock | keys | what it is |\n|---|---|---|---|\n");
	for (size_t i = 0; wl_locks[i]; i++) {
		const struct wl_lock *l = wl_locks[i];
		char keys[128] = "";

		for (const struct key_desc *k = l->keys; k && k->name; k++)
			snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), "%s`%s`",
				 *keys ? ", " : "", k->name);
		fprintf(f, "| `%s` | %s | %s | %s |\n", l->name, wl_has_trylock(l) ? "yes" : "no",
			keys, l->desc);
	}
	fprintf(f, "\n| policy | what the lock thread does with the request |\n|---|---|\n");
	for (int p = 0; p < POL_COUNT; p++)
		fprintf(f, "| `%s` | %s |\n", wl_policy_names[p], wl_policy_help[p]);
	fprintf(f, "\n| workload | lock | policy | dry | what it is |\n|---|---|---|---|---|\n");
	for (size_t i = 0; (o = wl_named(i)); i++)
		fprintf(f, "| `%s` | %s%s%s | %s%s%s | %s | %s |\n", o->name, o->lock ? "`" : "",
			o->lock ? o->lock->name : "-", o->lock ? "`" : "", o->lock ? "`" : "",
			o->lock ? wl_policy_names[o->policy] : "-", o->lock ? "`" : "",
			o->dry ? "yes" : "no", o->desc);
}
