/* plan.c - cluster plans: validate a plan file the way configs are validated
 * (errors name FILE: key.path), load every config it names, and expand
 * machines x repetitions x configs x kernels into jobs for scripts/slurm.sh. */
#define _GNU_SOURCE
#include "plan.h"
#include "../lib/cliopt.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../engine/config.h"
#include "../engine/keyobj.h"
#include "../core/keys.h"
#include "../os/topo.h"

#include "../lib/exitcodes.h"

static const struct key_desc slurm_keys[] = {
	{ "partition", KT_STR, "\"\"", 0, 0, "", "sbatch --partition (\"\" = the cluster's default)" },
	{ "time_min", KT_INT, "0", 0, 525600, "min", "time limit per task (0 = the partition's)" },
	{ "max_parallel", KT_INT, "0", 0, 100000, "tasks", "at most this many tasks at once (0 = no cap)" },
	{ "sbatch_args", KT_LIST, "[]", 0, 64, "", "extra sbatch options, e.g. [\"--qos=long\"]" },
	{ 0 },
};

static const struct key_desc machine_keys[] = {
	{ "name", KT_STR, "\"any\"", 0, 0, "", "label in the job list ([A-Za-z0-9._-])" },
	{ "constraint", KT_STR, "\"\"", 0, 0, "", "sbatch --constraint: node features" },
	{ "partition", KT_STR, "\"\"", 0, 0, "", "overrides slurm.partition for this class" },
	{ 0 },
};

static const struct key_desc plan_keys[] = {
	{ "name", KT_STR, "file name", 0, 0, "", "results go to results/<name>/ ([A-Za-z0-9._-])" },
	{ "description", KT_STR, "\"\"", 0, 0, "", "what the plan measures" },
	{ "configs", KT_LIST, "required", 1, 256, "", "suite configs, paths from the top of the checkout" },
	{ "kernels", KT_LIST, "[\"host\"]", 1, 16, "", "host, patched (built from kernel/), debian" },
	{ "repetitions", KT_INT, "1", 1, 1000, "", "independent runs of each config x kernel x machine" },
	{ "machines", KT_LIST, "[{\"name\":\"any\"}]", 1, 64, "",
	  "machine classes: objects of the keys below, one array job each", machine_keys },
	{ "slurm", KT_OBJ, "{}", 0, 0, "", "submission options", slurm_keys },
	{ "vm_args", KT_LIST, "[]", 0, 64, "", "extra scripts/vm.sh options for VM kernels" },
	{ 0 },
};

static const char *const kernels[] = { "host", "patched", "debian" };

void plan_print_keys(FILE *f)
{
	key_print_table(f, plan_keys);
}

/* sbatch options that scripts/slurm.sh sets itself, or that a plan key
 * says: given again in slurm.sbatch_args, sbatch takes the last one, and
 * the driver's task ids, logs or working directory are no longer what it
 * waits on (an extra --array would run tasks the job list does not have,
 * --output would put the logs the failure report names elsewhere). */
static const struct owned_opt sbatch_owned[] = {
	{ 'a', "array", "scripts/slurm.sh sets it: one array task per job of the plan" },
	{ 'o', "output", "scripts/slurm.sh sets it: each task's log is DIR/logs/<task>.log" },
	{ 'e', "error", "scripts/slurm.sh sets it: each task's log is DIR/logs/<task>.log" },
	{ 'D', "chdir", "scripts/slurm.sh sets it: the tasks run in this checkout" },
	{ 0, "wrap", "scripts/slurm.sh gives the batch script" },
	{ 0, "test-only", "nothing would be submitted, and the driver would wait for it" },
	{ 'W', "wait", "scripts/slurm.sh waits itself, with progress" },
	{ 'p', "partition", "use slurm.partition or machines[].partition" },
	{ 'C', "constraint", "use machines[].constraint" },
	{ 't', "time", "use slurm.time_min" },
	{ 0 },
};

/* The same for scripts/vm.sh in vm_args: each task gives its own. */
static const struct owned_opt vm_owned[] = {
	{ 0, "config", "scripts/slurm.sh gives each task its config" },
	{ 0, "out", "scripts/slurm.sh gives each task its result file" },
	{ 0, "kernel", "use kernels" },
	{ 0, "check-options", "scripts/slurm.sh checks vm_args so itself" },
	{ 0 },
};

/* Each entry of a list once: a repeat is what "repetitions" is for. */
#define REPEAT "; use \"repetitions\" to run it again"

static const char *str_or(const json_t *o, const char *k, const char *def)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : def;
}

static int load_machines(struct cfg_ctx *c, struct plan *p)
{
	json_t *ms = json_object_get(p->root, "machines");
	size_t i;
	json_t *m;

	if (!ms) {
		p->machines = calloc(1, sizeof(*p->machines));
		if (!p->machines)
			return cfg_fail(c, "machines", "out of memory");
		p->machines[0] = (struct plan_machine){ "any", "", "" };
		p->nmachines = 1;
		return 0;
	}
	if (!json_is_array(ms) || !json_array_size(ms) || json_array_size(ms) > 64)
		return cfg_fail(c, "machines", "must be a list of 1..64 machine objects");
	p->machines = calloc(json_array_size(ms), sizeof(*p->machines));
	if (!p->machines)
		return cfg_fail(c, "machines", "out of memory");
	json_array_foreach(ms, i, m) {
		char path[64], sub[80];

		snprintf(path, sizeof(path), "machines[%zu]", i);
		if (kobj_check(c, m, path, machine_keys))
			return -1;
		snprintf(sub, sizeof(sub), "%s.name", path);
		if (!json_object_get(m, "name"))
			return cfg_fail(c, path, "needs a \"name\"");
		struct plan_machine *pm = &p->machines[i];

		pm->name = str_or(m, "name", "any");
		pm->constraint = str_or(m, "constraint", "");
		pm->partition = str_or(m, "partition", "");
		if (kobj_check_name(c, sub, pm->name))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(p->machines[j].name, pm->name))
				return cfg_fail(c, sub, "\"%s\" is already machines[%zu]", pm->name,
						j);
	}
	p->nmachines = json_array_size(ms);
	return 0;
}

static int load_lists(struct cfg_ctx *c, struct plan *p, json_t **configs, json_t **kerns)
{
	size_t i;
	json_t *e;

	*configs = json_object_get(p->root, "configs");
	if (!*configs)
		return cfg_fail(c, "configs", "required: a non-empty list of config files");
	if (kobj_check_distinct(c, *configs, "configs", REPEAT))
		return -1;
	/* configs are at most 256 (plan_keys): one file by two names
	 * ("./configs/ci.json", a symlink) is the same file twice */
	struct stat seen[256];

	json_array_foreach(*configs, i, e) {
		struct cfg_suite s;
		char cerr[1024], path[64];

		snprintf(path, sizeof(path), "configs[%zu]", i);
		if (!json_string_length(e))
			return cfg_fail(c, path, "an empty path");
		/* The same validation `run` does, so a typo fails at submission,
		 * not in every array task an hour later. */
		if (cfg_load(json_string_value(e), &s, cerr, sizeof(cerr))) {
			cfg_free(&s);
			return cfg_fail(c, path, "%s", cerr);
		}
		cfg_free(&s);
		if (stat(json_string_value(e), &seen[i]))
			return cfg_fail(c, path, "%s: %s", json_string_value(e), strerror(errno));
		for (size_t j = 0; j < i; j++)
			if (seen[j].st_dev == seen[i].st_dev && seen[j].st_ino == seen[i].st_ino)
				return cfg_fail(c, path, "\"%s\" is configs[%zu] (\"%s\") by another "
						"name; use \"repetitions\" to run it again",
						json_string_value(e), j,
						json_string_value(json_array_get(*configs, j)));
	}
	*kerns = json_object_get(p->root, "kernels");
	if (!*kerns)
		*kerns = json_pack("[s]", "host");
	else
		json_incref(*kerns);
	json_array_foreach(*kerns, i, e) {
		size_t k;
		char path[64];

		for (k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++)
			if (!strcmp(json_string_value(e), kernels[k]))
				break;
		snprintf(path, sizeof(path), "kernels[%zu]", i);
		if (k == sizeof(kernels) / sizeof(kernels[0]))
			return cfg_fail(c, path,
					"unknown kernel \"%s\" (known: host, patched, debian)",
					json_string_value(e));
	}
	return kobj_check_distinct(c, *kerns, "kernels", REPEAT);
}

static int expand(struct cfg_ctx *c, struct plan *p, const json_t *configs, const json_t *kerns)
{
	p->nconfigs = json_array_size(configs);
	p->nkernels = json_array_size(kerns);
	p->njobs = p->nmachines * (size_t)p->reps * p->nconfigs * p->nkernels;
	p->jobs = calloc(p->njobs, sizeof(*p->jobs));
	if (!p->jobs)
		return cfg_fail(c, "(top level)", "out of memory");
	/* Repetitions outside configs and kernels: the first round of every
	 * config x kernel runs before any second one, so drift on a node over
	 * time spreads over all of them instead of biasing one (A/B interleaving). */
	size_t id = 0;

	for (size_t m = 0; m < p->nmachines; m++)
		for (int r = 1; r <= p->reps; r++)
			for (size_t ci = 0; ci < p->nconfigs; ci++)
				for (size_t k = 0; k < p->nkernels; k++, id++)
					p->jobs[id] = (struct plan_job){
						id, json_string_value(json_array_get(configs, ci)),
						json_string_value(json_array_get(kerns, k)),
						&p->machines[m], r };
	return 0;
}

int plan_load(const char *path, struct plan *p, char *err, size_t len)
{
	struct cfg_ctx c = { path, err, len };
	json_t *configs = NULL, *kerns = NULL;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	p->root = cfg_read_json(&c, "plan file");
	if (!p->root)
		return -1;
	if (!json_is_object(p->root))
		return cfg_fail(&c, "(top level)", "must be an object");
	if (kobj_check(&c, p->root, "", plan_keys))
		return -1;

	char tmp[sizeof(p->base)], *b = p->base;

	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(b, sizeof(p->base), "%s", basename(tmp));
	if (strlen(b) > 5 && !strcmp(b + strlen(b) - 5, ".json"))
		b[strlen(b) - 5] = 0;
	p->name = str_or(p->root, "name", b);
	if (kobj_check_name(&c, json_object_get(p->root, "name") ? "name" : "(file name)", p->name))
		return -1;
	json_t *reps = json_object_get(p->root, "repetitions");

	p->reps = reps ? (int)json_integer_value(reps) : 1;
	json_t *sl = json_object_get(p->root, "slurm");

	p->partition = str_or(sl, "partition", "");
	p->time_min = (int)json_integer_value(json_object_get(sl, "time_min"));
	p->max_parallel = (int)json_integer_value(json_object_get(sl, "max_parallel"));
	p->sbatch_args = json_object_get(sl, "sbatch_args");
	p->sbatch_args = p->sbatch_args ? json_incref(p->sbatch_args) : json_array();
	p->vm_args = json_object_get(p->root, "vm_args");
	p->vm_args = p->vm_args ? json_incref(p->vm_args) : json_array();
	if (kobj_check_args(&c, p->sbatch_args, "slurm.sbatch_args", sbatch_owned) ||
	    kobj_check_args(&c, p->vm_args, "vm_args", vm_owned))
		return -1;
	if (!load_machines(&c, p) && !load_lists(&c, p, &configs, &kerns) &&
	    !expand(&c, p, configs, kerns))
		rc = 0;
	p->kernel_list = kerns; /* maybe the default list: owned by the plan */
	return rc;
}

void plan_free(struct plan *p)
{
	free(p->jobs);
	free(p->machines);
	json_decref(p->sbatch_args);
	json_decref(p->vm_args);
	json_decref(p->kernel_list);
	json_decref(p->root);
	memset(p, 0, sizeof(*p));
}

static const struct cli_opt plan_opts[] = {
	{ 'n', "dry-run", NULL, "print the job list (the default)" },
	{ 't', "tsv", NULL, "the job list for scripts/slurm.sh (tab separated)" },
	{ 'r', "results", "DIR", "where the results go" },
	{ 'h', "help", NULL, "this text" },
	{ 0 }
};

static void plan_more(FILE *f)
{
	fprintf(f, "\nplan keys:\n");
	plan_print_keys(f);
}

static const struct cli_cmd plan_cmd = {
	.name = "plan",
	.synopsis = "slicebench plan PLAN.json [--dry-run] [--tsv] [--results DIR]\n",
	.about = "Validates a cluster plan and every config it names, and prints the\n"
		 "expanded job list: one job = one config on one kernel on one machine\n"
		 "class, writing one result JSON (DIR/<task>.json, DIR defaults to\n"
		 "results/<name>).  Nothing runs: ./run.sh --slurm PLAN.json submits it,\n"
		 "./run.sh --local PLAN.json runs it here.\n",
	.opts = plan_opts,
	.more = plan_more,
};

static const char *dash(const char *s)
{
	return *s ? s : "-";
}

static void print_tsv(const struct plan *p, const char *dir)
{
	size_t i;
	json_t *e;

	printf("plan\t%s\t%s\t%s\t%d\t%d\n", p->name, dir, dash(p->partition), p->time_min,
	       p->max_parallel);
	json_array_foreach(p->sbatch_args, i, e)
		printf("sbatch\t%s\n", json_string_value(e));
	json_array_foreach(p->vm_args, i, e)
		printf("vm\t%s\n", json_string_value(e));
	for (i = 0; i < p->nmachines; i++)
		printf("machine\t%s\t%s\t%s\n", p->machines[i].name,
		       dash(p->machines[i].constraint), dash(p->machines[i].partition));
	for (i = 0; i < p->njobs; i++) {
		const struct plan_job *j = &p->jobs[i];

		printf("job\t%zu\t%s\t%s\t%d\t%s\n", j->id, j->machine->name, j->kernel, j->rep,
		       j->config);
	}
}

static void print_list(const struct plan *p, const char *dir)
{
	printf("plan %s: %zu jobs = %zu machine%s x %d repetition%s x %zu config%s x %zu "
	       "kernel%s -> %s/\n",
	       p->name, p->njobs, p->nmachines, p->nmachines == 1 ? "" : "s", p->reps,
	       p->reps == 1 ? "" : "s", p->nconfigs, p->nconfigs == 1 ? "" : "s", p->nkernels,
	       p->nkernels == 1 ? "" : "s", dir);
	printf("%-5s %-12s %-8s %4s  %-28s %s\n", "task", "machine", "kernel", "rep", "config",
	       "result");
	for (size_t i = 0; i < p->njobs; i++) {
		const struct plan_job *j = &p->jobs[i];

		printf("%-5zu %-12s %-8s %4d  %-28s %s/%zu.json\n", j->id, j->machine->name,
		       j->kernel, j->rep, j->config, dir, j->id);
	}
	for (size_t i = 0; i < p->nmachines; i++) {
		const struct plan_machine *m = &p->machines[i];
		const char *part = *m->partition ? m->partition : p->partition;

		printf("machine %s: sbatch --exclusive%s%s%s%s\n", m->name, *part ? " --partition=" : "",
		       part, *m->constraint ? " --constraint=" : "", m->constraint);
	}
}

int cmd_plan(int argc, char **argv)
{
	const char *dir = NULL;
	char err[1536], defdir[300];
	int tsv = 0, c, rc;

	while ((c = cli_next(argc, argv, &plan_cmd, &rc)) > 0) {
		switch (c) {
		case 'n': break;
		case 't': tsv = 1; break;
		case 'r': dir = optarg; break;
		}
	}
	if (!c)
		return rc;
	if (optind != argc - 1)
		return cli_misuse(&plan_cmd, "%s",
				  optind == argc ? "PLAN.json is required"
						 : "one plan file at a time");
	if (topo_init(err, sizeof(err))) {
		fprintf(stderr, "slicebench: %s\n", err);
		return 1;
	}
	struct plan p;

	if (plan_load(argv[optind], &p, err, sizeof(err))) {
		fprintf(stderr, "slicebench: %s\n", err);
		plan_free(&p);
		return EXIT_USAGE;
	}
	if (!dir) {
		snprintf(defdir, sizeof(defdir), "results/%s", p.name);
		dir = defdir;
	}
	if (!*dir || strpbrk(dir, "\t\n")) {
		fprintf(stderr, "slicebench plan: --results \"%s\": must not be empty or contain "
				"tabs or newlines\n", dir);
		plan_free(&p);
		return EXIT_USAGE;
	}
	if (tsv)
		print_tsv(&p, dir);
	else
		print_list(&p, dir);
	plan_free(&p);
	return 0;
}
