/* counters.c - libpfm4 encodes, perf_event_open counts; every event that
 * cannot be encoded or opened is recorded with its reason, never fatal. */
#define _GNU_SOURCE
#include "counters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

#include "../lib/resset.h"
#include "sysinfo.h"

/* A switch-out with prev_state 0 (running, yielded) or TASK_REPORT_MAX
 * (256 since 4.14: preempted) is involuntary; blocked states are 1..128. */
#define SWITCH_FILTER "prev_state == 0 || prev_state >= 256"

static int pfm_ready;

int cnt_encode(const json_t *names, struct cnt_events *ev, char *err, size_t len)
{
	size_t i;
	json_t *e;

	memset(ev, 0, sizeof(*ev));
	if (!pfm_ready) {
		int rc = pfm_initialize();

		if (rc != PFM_SUCCESS) {
			snprintf(err, len, "pfm_initialize: %s", pfm_strerror(rc));
			/* Still fill the names so each says why. */
		} else {
			pfm_ready = 1;
		}
	}
	json_array_foreach(names, i, e) {
		if (ev->n == CNT_MAX)
			break;
		struct cnt_spec *s = &ev->spec[ev->n++];
		pfm_perf_encode_arg_t arg;

		snprintf(s->name, sizeof(s->name), "%s", json_string_value(e));
		if (!pfm_ready) {
			snprintf(s->reason, sizeof(s->reason), "libpfm4 not initialized: %s", err);
			continue;
		}
		memset(&arg, 0, sizeof(arg));
		arg.attr = &s->attr;
		arg.size = sizeof(arg);
		/* User and kernel: a context switch happens in the kernel and
		 * a user-only software event would never count it. */
		int rc = pfm_get_os_event_encoding(s->name, PFM_PLM0 | PFM_PLM3,
						   PFM_OS_PERF_EVENT_EXT, &arg);

		if (rc != PFM_SUCCESS) {
			/* libpfm4 offers its perf_events OS layer only when it can
			 * see /proc/sys/kernel/perf_event_paranoid: without that
			 * file (a kernel built without CONFIG_PROC_SYSCTL) every
			 * event is "not supported", whatever the PMU. */
			int nosys = rc == PFM_ERR_NOTSUPP &&
				    access("/proc/sys/kernel/perf_event_paranoid", F_OK);

			snprintf(s->reason, sizeof(s->reason), "libpfm4 cannot encode \"%s\": %s%s",
				 json_string_value(e), pfm_strerror(rc),
				 nosys ? " (no /proc/sys/kernel/perf_event_paranoid: kernel "
					 "without CONFIG_PROC_SYSCTL, libpfm4 sees no perf_events)"
				       : "");
			continue;
		}
		s->encoded = 1;
		s->kernel_too = 1;
		if (s->attr.type == PERF_TYPE_TRACEPOINT && strstr(s->name, "sched_switch"))
			s->filter = SWITCH_FILTER;
	}
	return 0;
}

static int perf_open(struct perf_event_attr *a, int group)
{
	return (int)syscall(SYS_perf_event_open, a, 0 /* this thread */, -1, group,
			    PERF_FLAG_FD_CLOEXEC);
}

void cnt_open_self(const struct cnt_events *ev, struct cnt_thread *ct)
{
	memset(ct, 0, sizeof(*ct));
	ct->leader = -1;
	for (size_t i = 0; i < CNT_MAX; i++)
		ct->fd[i] = -1;
	for (size_t i = 0; i < ev->n; i++) {
		const struct cnt_spec *s = &ev->spec[i];
		struct perf_event_attr a = s->attr;

		if (!s->encoded) {
			snprintf(ct->reason[i], sizeof(ct->reason[i]), "%s", s->reason);
			continue;
		}
		a.size = sizeof(a);
		a.disabled = ct->leader < 0; /* the leader gates the group */
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		int fd = perf_open(&a, ct->leader);

		if (fd < 0 && (errno == EACCES || errno == EPERM)) {
			/* perf_event_paranoid forbids kernel counts: user only. */
			a.exclude_kernel = 1;
			a.exclude_hv = 1;
			fd = perf_open(&a, ct->leader);
		}
		if (fd < 0) {
			int e = errno;

			snprintf(ct->reason[i], sizeof(ct->reason[i]), "perf_event_open: %s%s",
				 strerror(e),
				 e == ENOENT || e == EOPNOTSUPP ? " (no such PMU event here)" : "");
			continue;
		}
		if (s->filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, s->filter)) {
			snprintf(ct->reason[i], sizeof(ct->reason[i]),
				 "PERF_EVENT_IOC_SET_FILTER \"%s\": %s", s->filter, strerror(errno));
			close(fd);
			continue;
		}
		ct->fd[i] = fd;
		if (ct->leader < 0)
			ct->leader = fd;
	}
}

void cnt_enable(struct cnt_thread *ct)
{
	if (ct->leader >= 0) {
		ioctl(ct->leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		ioctl(ct->leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	}
}

void cnt_disable(struct cnt_thread *ct)
{
	if (ct->leader >= 0)
		ioctl(ct->leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

void cnt_read(const struct cnt_events *ev, struct cnt_thread *ct, struct cnt_values *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < ev->n; i++) {
		uint64_t buf[3];

		if (ct->fd[i] < 0)
			continue;
		if (read(ct->fd[i], buf, sizeof(buf)) != sizeof(buf)) {
			snprintf(ct->reason[i], sizeof(ct->reason[i]), "read: %s", strerror(errno));
			continue;
		}
		out->value[i] = buf[0];
		out->enabled[i] = buf[1];
		out->running[i] = buf[2];
		out->ok[i] = 1;
	}
}

void cnt_close(struct cnt_thread *ct)
{
	/* The reasons stay: the result is written after the threads end. */
	for (size_t i = 0; i < CNT_MAX; i++) {
		if (ct->fd[i] >= 0)
			close(ct->fd[i]);
		ct->fd[i] = -1;
	}
	ct->leader = -1;
}

static struct cnt_events keys_ev;
static struct cnt_thread keys_ct = { .leader = -1 };

json_t *cnt_keys_hold(void)
{
	json_t *names = json_pack("[s,s]", "context-switches", "sched:sched_switch");
	json_t *o = json_object();
	char err[256];

	if (cnt_encode(names, &keys_ev, err, sizeof(err))) {
		res_set_as(o, fld_m_perf_key, "error", json_string(err));
		json_decref(names);
		return o;
	}
	cnt_open_self(&keys_ev, &keys_ct);
	for (size_t i = 0; i < keys_ev.n; i++)
		res_set_as(o, fld_m_perf_key, json_string_value(json_array_get(names, i)),
			   json_string(keys_ct.fd[i] >= 0 ? "held" : keys_ct.reason[i]));
	json_decref(names);
	return o;
}

void cnt_keys_release(void)
{
	cnt_close(&keys_ct);
}

/* Multiplexed counts are scaled by enabled/running, as perf stat does. */
static double scaled(const struct cnt_values *v, size_t i)
{
	if (!v->running[i])
		return 0;
	return (double)v->value[i] * ((double)v->enabled[i] / (double)v->running[i]);
}

double cnt_total(const struct cnt_events *ev, const struct cnt_values *v, size_t nthreads,
		 const char *name)
{
	for (size_t i = 0; i < ev->n; i++) {
		if (strcmp(ev->spec[i].name, name))
			continue;
		double sum = 0;
		int any = 0;

		for (size_t t = 0; t < nthreads; t++)
			if (v[t].ok[i]) {
				sum += scaled(&v[t], i);
				any = 1;
			}
		return any ? sum : -1;
	}
	return -1;
}

json_t *cnt_json(const struct cnt_events *ev, const struct cnt_thread *ct,
		 const struct cnt_values *v, size_t nthreads)
{
	json_t *o = json_object();

	for (size_t i = 0; i < ev->n; i++) {
		uint64_t val = 0, en = 0, run = 0;
		double sc = 0;
		int any = 0;
		json_t *per = json_array();

		for (size_t t = 0; t < nthreads; t++) {
			if (!v[t].ok[i]) {
				json_array_append_new(per, json_null());
				continue;
			}
			any = 1;
			val += v[t].value[i];
			en += v[t].enabled[i];
			run += v[t].running[i];
			sc += scaled(&v[t], i);
			json_array_append_new(per, json_integer((json_int_t)v[t].value[i]));
		}
		json_t *e;

		if (any) {
			e = json_pack("{s:s,s:I,s:f,s:I,s:I,s:b,s:b,s:o}",
				      fld_key(fld_counter_status), "ok", fld_key(fld_counter_value),
				      (json_int_t)val, fld_key(fld_counter_scaled), sc,
				      fld_key(fld_counter_enabled), (json_int_t)en,
				      fld_key(fld_counter_running), (json_int_t)run,
				      fld_key(fld_counter_mux), run < en,
				      fld_key(fld_counter_kernel), ev->spec[i].kernel_too,
				      fld_key(fld_counter_per_thread), per);
			if (ev->spec[i].filter)
				res_set(e, fld_counter_filter, json_string(ev->spec[i].filter));
		} else {
			json_decref(per);
			e = json_pack("{s:s,s:s}", fld_key(fld_counter_status), "unsupported",
				      fld_key(fld_counter_reason), nthreads ? ct[0].reason[i] : ev->spec[i].reason);
		}
		res_set_as(o, fld_counter, ev->spec[i].name, e);
	}
	return o;
}

void rseq_stats_read(struct rseq_stats *s)
{
	const char *why = NULL;
	char *txt = sysinfo_debugfs_read("rseq/stats", &why);
	static const char *const want[] = { "sgrant", "sexpir", "srevok", "syield", "sabort" };

	memset(s, 0, sizeof(*s));
	if (!txt) {
		snprintf(s->reason, sizeof(s->reason), "debugfs rseq/stats: %s%s", why,
			 !strcmp(why, "not present in debugfs") ? " (kernel without CONFIG_RSEQ_STATS)"
							       : "");
		return;
	}
	int found = 0;

	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		char pat[16];
		const char *p;

		snprintf(pat, sizeof(pat), "%s:", want[k]);
		if ((p = strstr(txt, pat))) {
			s->v[k] = strtoull(p + strlen(pat), NULL, 10);
			found++;
		}
	}
	free(txt);
	s->ok = found > 0;
	if (!s->ok)
		snprintf(s->reason, sizeof(s->reason),
			 "debugfs rseq/stats has no slice counters (kernel without "
			 "CONFIG_RSEQ_SLICE_EXTENSION)");
}

json_t *rseq_stats_delta_json(const struct rseq_stats *a, const struct rseq_stats *b)
{
	static const char *const want[] = { fld_rseq_sgrant, fld_rseq_sexpir, fld_rseq_srevok,
					    fld_rseq_syield, fld_rseq_sabort };

	if (!a->ok || !b->ok)
		return json_pack("{s:s,s:s}", fld_key(fld_rseq_status), "unsupported",
				 fld_key(fld_rseq_reason), a->ok ? b->reason : a->reason);
	json_t *o = json_pack("{s:s}", fld_key(fld_rseq_status), "ok");

	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
		res_set(o, want[k], json_integer((json_int_t)(b->v[k] - a->v[k])));
	return o;
}
