/* study.c - a study file (configs/studies/NAME.json) validated as the plan
 * files are (keyobj.h: errors name FILE: key.path and the value), with the
 * config it names loaded as `run` loads it and the question as `plot`
 * does, and printed as the steps scripts/studies.sh takes. */
#define _GNU_SOURCE
#include "study.h"

#include <ctype.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "../core/workload.h"
#include "../engine/config.h"
#include "../engine/keyobj.h"
#include "../lib/cliopt.h"
#include "../lib/exitcodes.h"
#include "../os/topo.h"
#include "../report/compare.h"
#include "../report/question.h"

static const char *const preempt_names[] = { "none", "voluntary", "full", "lazy", NULL };
static const char *const variant_names[] = { "default", "none", "rt", NULL };

/* A model's name is part of a file name, NAME-vm-<name>[-BOOT].json, a
 * boot being a number: words of lower-case letters and digits, each
 * starting with a letter, joined by single dashes. */
static int check_model_name(const json_t *v, char *msg, size_t len)
{
	const char *n = json_string_value(v);
	size_t i, l = strlen(n);

	for (i = 0; i < l; i++) {
		int word_start = i == 0 || n[i - 1] == '-';

		if (word_start ? !islower((unsigned char)n[i])
			       : !(islower((unsigned char)n[i]) || isdigit((unsigned char)n[i]) ||
				   (n[i] == '-' && i + 1 < l)))
			break;
	}
	if (l && i == l)
		return 0;
	snprintf(msg, len,
		 "\"%s\" is not a name (words of a-z and 0-9, each starting with a letter, joined by dashes)",
		 n);
	return -1;
}

static const struct key_desc model_keys[] = {
	{ "name", KT_STR, "null", 0, 0, "",
	  "the boot's name, NAME-vm-<name>.json; null: the preempt (two models of one preempt need names, e.g. "
	  "\"rt-lazy\")" },
	{ "preempt", KT_ENUM, "required", 0, 0, "",
	  "preempt=MODE at boot (vm.sh --preempt): none | voluntary | full | lazy",
	  .values = preempt_names },
	{ "variant", KT_ENUM, "\"default\"", 0, 0, "",
	  "kernel variant (vm.sh --variant): default | none | rt; none and voluntary need none",
	  .values = variant_names },
	{ 0 },
};

static const struct key_desc study_keys[] = {
	{ "description", KT_STR, "\"\"", 0, 0, "", "what the study asks, in a line" },
	{ "config", KT_STR, "required", 0, 0, "", "the suite config, a path from the top of the checkout" },
	{ "question", KT_STR, "\"\"", 0, 0, "",
	  "its question (configs/questions/NAME.json, plot --question); \"\" = none" },
	{ "places", KT_LIST, "[\"vm\",\"host\"]", 1, 2, "",
	  "where it runs: vm (the guest, NAME-vm.json) and host (NAME-host.json)" },
	{ "models", KT_LIST, "[]", 0, 8, "",
	  "one guest boot per preemption model, NAME-vm-PREEMPT.json (or its name) ([] = one boot under the "
	  "kernel's default, NAME-vm.json): objects of the keys below",
	  model_keys },
	{ "boots", KT_INT, "1", 1, 99, "",
	  "fresh boots per guest result (the others in boots/, compare's --noise)" },
	{ "timeout_s", KT_INT, "1500", 60, 86400, "s", "vm.sh --timeout of each boot" },
	{ "vm_args", KT_LIST, "[]", 0, 64, "", "extra scripts/vm.sh options, e.g. [\"--no-selftest\"]" },
	/* At most plot's --baseline count: the report draws one panel each. */
	{ "baselines", KT_LIST, "[]", 0, 4, "",
	  "workloads of the config each --within comparison is against (plot draws each)" },
	{ "metrics", KT_LIST, "[]", 0, 8, "",
	  "compare metrics beside ops_per_sec, each in its own tables (e.g. victim_p99)" },
	{ "within", KT_LIST, "[\"vm\"]", 1, 2, "",
	  "the places whose result is compared against each baseline ([\"host\"] when the "
	  "study has no vm place)" },
	{ 0 },
};

/* Options scripts/studies.sh gives vm.sh itself, or that a study key says. */
static const struct owned_opt vm_owned[] = {
	{ 0, "config", "use \"config\"" },
	{ 0, "out", "scripts/studies.sh names each result" },
	{ 0, "timeout", "use \"timeout_s\"" },
	{ 0, "check-options", "scripts/studies.sh checks vm_args so itself" },
	{ 0 },
};

/* With models, each boot's --preempt and --variant are the model's. */
static const struct owned_opt model_owned[] = {
	{ 0, "preempt", "use \"models\"" },
	{ 0, "variant", "use \"models\"" },
	{ 0 },
};

static const char *str_or(const json_t *o, const char *k, const char *def)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : def;
}

/* The list at key: each element vm or host, once; *vm and *host say
 * which (left as they are when the key is absent: its default). */
static int load_places(struct cfg_ctx *c, const json_t *root, const char *key, int *vm,
		       int *host)
{
	const json_t *l = json_object_get(root, key);
	size_t i;
	json_t *e;

	if (!l)
		return 0;
	*vm = *host = 0;
	json_array_foreach(l, i, e) {
		const char *p = json_string_value(e);
		char path[64];
		int *on = !strcmp(p, "vm") ? vm : !strcmp(p, "host") ? host : NULL;

		snprintf(path, sizeof(path), "%s[%zu]", key, i);
		if (!on)
			return cfg_fail(c, path, "unknown place \"%s\" (known: vm, host)", p);
		if (*on)
			return cfg_fail(c, path, "\"%s\" is listed twice", p);
		*on = 1;
	}
	return 0;
}

static int load_models(struct cfg_ctx *c, struct study *st)
{
	const json_t *ms = json_object_get(st->root, "models");
	size_t i;
	json_t *m;

	if (!json_array_size(ms))
		return 0;
	if (!st->vm)
		return cfg_fail(c, "models", "the study does not run in the guest (places has no \"vm\")");
	st->models = calloc(json_array_size(ms), sizeof(*st->models));
	if (!st->models)
		return cfg_fail(c, "models", "out of memory");
	json_array_foreach(ms, i, m) {
		char path[64], sub[80], msg[200];

		snprintf(path, sizeof(path), "models[%zu]", i);
		if (kobj_check(c, m, path, model_keys))
			return -1;
		if (!json_object_get(m, "preempt"))
			return cfg_fail(c, path, "needs a \"preempt\"");
		struct study_model *sm = &st->models[i];

		sm->preempt = str_or(m, "preempt", "");
		sm->variant = str_or(m, "variant", "default");
		sm->name = str_or(m, "name", sm->preempt);
		snprintf(sub, sizeof(sub), "%s.name", path);
		if (json_object_get(m, "name") &&
		    check_model_name(json_object_get(m, "name"), msg, sizeof(msg)))
			return cfg_fail(c, sub, "%s", msg);
		/* 7dadeaa6e851 ("sched: Further restrict the preemption modes",
		 * v7.0-rc1) left full and lazy on x86; kernel/variants/none
		 * takes it back. */
		snprintf(sub, sizeof(sub), "%s.variant", path);
		if ((!strcmp(sm->preempt, "none") || !strcmp(sm->preempt, "voluntary")) &&
		    strcmp(sm->variant, "none"))
			return cfg_fail(c, sub, "\"%s\": preempt \"%s\" needs the variant \"none\" "
						"(7.x on x86 offers only full and lazy)",
					sm->variant, sm->preempt);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(st->models[j].name, sm->name))
				return cfg_fail(c, path, "name \"%s\" is already models[%zu]'s "
							 "(the result is NAME-vm-%s.json; give one a \"name\")",
						sm->name, j, sm->name);
		st->nmodels = i + 1;
	}
	return 0;
}

/* Each baseline a workload the config runs: compare --within finds no
 * row otherwise, and says so only when the reports are made. */
static int check_baselines(struct cfg_ctx *c, const struct cfg_suite *s, const char *config,
			   const json_t *bl)
{
	size_t i, r;
	json_t *e;

	json_array_foreach(bl, i, e) {
		char path[64];

		for (r = 0; r < s->nruns; r++)
			if (!strcmp(s->runs[r].ops->name, json_string_value(e)))
				break;
		snprintf(path, sizeof(path), "baselines[%zu]", i);
		if (r == s->nruns)
			return cfg_fail(c, path, "\"%s\" is not a workload %s runs (slicebench run "
						 "--config %s --dry-run lists them)",
					json_string_value(e), config, config);
	}
	return 0;
}

static int check_metrics(struct cfg_ctx *c, const json_t *ms, const json_t *bl)
{
	size_t i;
	json_t *e;

	if (json_array_size(ms) && !json_array_size(bl))
		return cfg_fail(c, "metrics", "compared against the baselines, and there are none");
	json_array_foreach(ms, i, e) {
		char path[64];
		const char *m = json_string_value(e);

		snprintf(path, sizeof(path), "metrics[%zu]", i);
		if (!cmp_metric_find(m))
			return cfg_fail(c, path, "unknown metric \"%s\" (slicebench compare --help)", m);
		if (!strcmp(m, "ops_per_sec"))
			return cfg_fail(c, path, "\"ops_per_sec\" is always compared");
	}
	return kobj_check_distinct(c, ms, "metrics", "");
}

/* The config and the question, loaded as run and plot load them. */
static int load_files(struct cfg_ctx *c, struct study *st)
{
	struct cfg_suite s;
	struct question q = { 0 };
	char err[1024];
	int rc = 0;

	if (!json_object_get(st->root, "config"))
		return cfg_fail(c, "config", "required: the suite config the study runs");
	if (cfg_load(st->config, &s, err, sizeof(err)))
		rc = cfg_fail(c, "config", "%s", err);
	else
		rc = check_baselines(c, &s, st->config, st->baselines);
	if (!rc && *st->question) {
		/* the config's points as the results will name them */
		json_t *runs = json_array();

		for (size_t i = 0; i < s.nruns; i++)
			json_array_append_new(runs, json_pack("{s:s,s:O}", "workload",
							      s.runs[i].ops->name, "params",
							      s.runs[i].params));
		if (question_load(st->question, &q, err, sizeof(err)))
			rc = cfg_fail(c, "question", "%s", err);
		else if (question_check_runs(&q, runs, st->config, err, sizeof(err)))
			rc = cfg_fail(c, "question", "%s: %s", st->question, err);
		json_decref(runs);
		question_free(&q);
	}
	cfg_free(&s);
	return rc;
}

int study_load(const char *path, struct study *st, char *err, size_t len)
{
	struct cfg_ctx c = { path, err, len };
	char tmp[sizeof(st->name)], *b = st->name;

	memset(st, 0, sizeof(*st));
	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(b, sizeof(st->name), "%s", basename(tmp));
	if (strlen(b) > 5 && !strcmp(b + strlen(b) - 5, ".json"))
		b[strlen(b) - 5] = 0;
	if (kobj_check_name(&c, "(file name)", b))
		return -1;
	st->root = cfg_read_json(&c, "study file");
	if (!st->root)
		return -1;
	if (!json_is_object(st->root))
		return cfg_fail(&c, "(top level)", "must be an object");
	if (kobj_check(&c, st->root, "", study_keys))
		return -1;
	const json_t *r = st->root;

	st->config = str_or(r, "config", "");
	st->question = str_or(r, "question", "");
	st->boots = json_object_get(r, "boots") ? (int)json_integer_value(json_object_get(r, "boots")) : 1;
	st->timeout_s = json_object_get(r, "timeout_s")
				? (int)json_integer_value(json_object_get(r, "timeout_s"))
				: 1500;
	st->vm_args = json_object_get(r, "vm_args");
	st->baselines = json_object_get(r, "baselines");
	st->metrics = json_object_get(r, "metrics");
	/* defaults: both places; within the guest, else the host */
	st->vm = st->host = 1;
	if (load_places(&c, r, "places", &st->vm, &st->host))
		return -1;
	st->within_vm = st->vm;
	st->within_host = !st->vm;
	if (load_places(&c, r, "within", &st->within_vm, &st->within_host) || load_models(&c, st))
		return -1;
	if ((st->within_vm && !st->vm) || (st->within_host && !st->host))
		return cfg_fail(&c, "within", "\"%s\" is not one of the study's places",
				st->within_vm && !st->vm ? "vm" : "host");
	if (json_array_size(st->vm_args) && !st->vm)
		return cfg_fail(&c, "vm_args", "the study does not run in the guest (places has no \"vm\")");
	if (kobj_check_args(&c, st->vm_args, "vm_args", vm_owned) ||
	    (st->nmodels && kobj_check_args(&c, st->vm_args, "vm_args", model_owned)) ||
	    kobj_check_distinct(&c, st->baselines, "baselines", "") ||
	    check_metrics(&c, st->metrics, st->baselines))
		return -1;
	return load_files(&c, st);
}

void study_free(struct study *st)
{
	free(st->models);
	json_decref(st->root);
	memset(st, 0, sizeof(*st));
}

static const char *dash(const char *s)
{
	return *s ? s : "-";
}

/* The lines scripts/studies.sh reads, tab separated, each led by its kind
 * and the study's name:
 *   study NAME CONFIG QUESTION|- BOOTS TIMEOUT_S
 *   place NAME host|vm|vm-PREEMPT PREEMPT|- VARIANT|-
 *   vmarg NAME ARG / within NAME vm|host / baseline NAME W / metric NAME M */
static void print_tsv(const struct study *st)
{
	const char *n = st->name;
	size_t i;
	json_t *e;

	printf("study\t%s\t%s\t%s\t%d\t%d\n", n, st->config, dash(st->question), st->boots,
	       st->timeout_s);
	for (i = 0; i < st->nmodels; i++)
		printf("place\t%s\tvm-%s\t%s\t%s\n", n, st->models[i].name, st->models[i].preempt,
		       st->models[i].variant);
	if (st->vm && !st->nmodels)
		printf("place\t%s\tvm\t-\t-\n", n);
	if (st->host)
		printf("place\t%s\thost\t-\t-\n", n);
	json_array_foreach(st->vm_args, i, e)
		printf("vmarg\t%s\t%s\n", n, json_string_value(e));
	if (st->within_vm)
		printf("within\t%s\tvm\n", n);
	if (st->within_host)
		printf("within\t%s\thost\n", n);
	json_array_foreach(st->baselines, i, e)
		printf("baseline\t%s\t%s\n", n, json_string_value(e));
	json_array_foreach(st->metrics, i, e)
		printf("metric\t%s\t%s\n", n, json_string_value(e));
}

static void print_list(const struct study *st, const char *file)
{
	size_t i;
	json_t *e;

	printf("study %s (%s): %s\n  question: %s\n", st->name, file, st->config,
	       *st->question ? st->question : "none");
	if (st->vm) {
		printf("  guest, %d boot%s each, vm.sh --timeout %d", st->boots,
		       st->boots == 1 ? "" : "s", st->timeout_s);
		json_array_foreach(st->vm_args, i, e)
			printf(" %s", json_string_value(e));
		printf(":");
		for (i = 0; i < st->nmodels; i++)
			printf("%s %s-vm-%s.json (preempt=%s, variant %s)", i ? "," : "", st->name,
			       st->models[i].name, st->models[i].preempt, st->models[i].variant);
		if (!st->nmodels)
			printf(" %s-vm.json", st->name);
		printf("\n");
	}
	if (st->host)
		printf("  host: %s-host.json\n", st->name);
	if (!json_array_size(st->baselines)) {
		printf("  no --within comparisons\n");
		return;
	}
	printf("  within %s%s%s against", st->within_vm ? "vm" : "",
	       st->within_vm && st->within_host ? ", " : "", st->within_host ? "host" : "");
	json_array_foreach(st->baselines, i, e)
		printf("%s %s", i ? "," : "", json_string_value(e));
	printf(" (ops_per_sec");
	json_array_foreach(st->metrics, i, e)
		printf(", %s", json_string_value(e));
	printf(")\n");
}

static const struct cli_opt study_opts[] = {
	{ 'n', "dry-run", NULL, "describe each study (the default)" },
	{ 't', "tsv", NULL, "the steps for scripts/studies.sh (tab separated)" },
	{ 'h', "help", NULL, "this text" },
	{ 0 }
};

static void study_more(FILE *f)
{
	fprintf(f, "\nstudy keys:\n");
	key_print_table(f, study_keys);
}

static const struct cli_cmd study_cmd = {
	.name = "study",
	.synopsis = "slicebench study FILE... [--dry-run] [--tsv]\n",
	.about = "Validates study files (configs/studies/NAME.json), the config each\n"
		 "names and its question, and prints what scripts/studies.sh does with\n"
		 "them: the results (NAME-vm.json, NAME-vm-PREEMPT.json per model,\n"
		 "NAME-host.json) and the comparisons.  Nothing runs; one bad file\n"
		 "prints nothing.\n",
	.opts = study_opts,
	.more = study_more,
	.exits = "0 ok, 1 no topology, 2 a bad file or usage",
};

int cmd_study(int argc, char **argv)
{
	char err[2048];
	int tsv = 0, c, rc;

	while ((c = cli_next(argc, argv, &study_cmd, &rc)) > 0) {
		switch (c) {
		case 'n': break;
		case 't': tsv = 1; break;
		}
	}
	if (!c)
		return rc;
	if (optind == argc)
		return cli_misuse(&study_cmd, "FILE is required");
	if (topo_init(err, sizeof(err))) {
		fprintf(stderr, "slicebench: %s\n", err);
		return 1;
	}
	size_t n = (size_t)(argc - optind);
	struct study *st = calloc(n, sizeof(*st));

	if (!st) {
		fprintf(stderr, "slicebench study: out of memory\n");
		return 1;
	}
	rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		if (study_load(argv[optind + i], &st[i], err, sizeof(err))) {
			fprintf(stderr, "slicebench: %s\n", err);
			rc = EXIT_USAGE;
		}
	for (size_t i = 0; i < n && !rc; i++) {
		for (size_t j = 0; j < i; j++)
			if (!strcmp(st[i].name, st[j].name)) {
				fprintf(stderr, "slicebench study: %s and %s: two studies named %s\n",
					argv[optind + j], argv[optind + i], st[i].name);
				rc = EXIT_USAGE;
			}
	}
	for (size_t i = 0; i < n && !rc; i++) {
		if (tsv)
			print_tsv(&st[i]);
		else
			print_list(&st[i], argv[optind + i]);
	}
	for (size_t i = 0; i < n; i++)
		study_free(&st[i]);
	free(st);
	return rc;
}
