/* fields.h - the result schema, each field spelled once: its path, JSON
 * type, unit, which metric it is, when a result must carry it, and what it
 * means.  validate's type and presence checks (harness/report/fldcheck.c), the
 * readers (compare, the run's table, the loader) and docs/result-schema.md
 * (`slicebench schema`) are all made from this list, as the key table
 * (keys.c) makes --help and the manual's key table.
 *
 * A reader names a field by its constant: fld_<id> is the path's text
 * relative to its scope (a repetition's "hold_ns.p50", a result's
 * "summary.ops_per_sec.mean"), usable in static initializers.  A writer
 * sets it by the same constant (resset.h), so renaming an id breaks the
 * build of both sides. */
#ifndef SB_FIELDS_H
#define SB_FIELDS_H

#include <stddef.h>

/* Where a path starts: the document, its meta, a result, a repetition. */
enum fld_scope { FS_DOC, FS_META, FS_RESULT, FS_REP };

/* JSON types a field may take (or-ed).  FT_OPEN: an object that may hold
 * keys beyond those listed (user --meta keys, the VM runner's notes, the
 * config keys of docs/manual.md, "Keys"): only validate --strict names the rest. */
enum fld_type {
	FT_NULL = 1, FT_BOOL = 2, FT_INT = 4, FT_REAL = 8, FT_NUM = FT_INT | FT_REAL,
	FT_STR = 16, FT_LIST = 32, FT_OBJ = 64, FT_OPEN = 128,
};

/* Which metric a field is: what a reader may do with it. */
enum fld_role {
	FR_THROUGHPUT, /* operations per second: higher is better */
	FR_LATENCY,    /* a duration one operation or wakeup took: lower is better */
	FR_COST,       /* a resource spent per operation: lower is better */
	FR_SHARE,      /* a ratio or index in [0, 1] or around 1 */
	FR_COUNT,      /* events counted over a window */
	FR_META,       /* what was run, where, and why it did not */
};

/* When a result must carry a field (its enclosing object being there):
 * FN_WITH always, FN_OK in an ok result, FN_RATE in an ok result that
 * reports a rate (every workload but primitives), FN_LOOP in an ok result
 * of the lock loop (neither a program nor primitives), FN_NOTOK in a result
 * that is not ok, FN_OPT never. */
enum fld_need { FN_WITH, FN_OK, FN_RATE, FN_LOOP, FN_NOTOK, FN_OPT };

/* Shapes used at several places.  A percentile summary of durations
 * (hist.c: what was sampled, in ns); kid is the need of its members. */
#define SB_FLD_PCT(X, A, sc, id, p, role, need, kid, what)                                    \
	X(A, sc, id, p, FT_OBJ, "ns", role, need, what)                                        \
	X(A, sc, id##_count, p ".count", FT_INT, "", FR_COUNT, kid, "samples taken")           \
	X(A, sc, id##_min, p ".min", FT_NUM, "ns", role, kid, "the shortest sample")           \
	X(A, sc, id##_mean, p ".mean", FT_NUM, "ns", role, kid, "mean of the samples")         \
	X(A, sc, id##_p50, p ".p50", FT_NUM, "ns", role, kid, "median")                        \
	X(A, sc, id##_p90, p ".p90", FT_NUM, "ns", role, kid, "90th percentile")               \
	X(A, sc, id##_p99, p ".p99", FT_NUM, "ns", role, kid, "99th percentile")               \
	X(A, sc, id##_p99_9, p ".p99_9", FT_NUM, "ns", role, kid, "99.9th percentile")         \
	X(A, sc, id##_p99_99, p ".p99_99", FT_NUM, "ns", role, kid, "99.99th percentile")      \
	X(A, sc, id##_max, p ".max", FT_NUM, "ns", role, kid, "the longest sample")

/* One number over the repetitions (stats.c st_summary_json). */
#define SB_FLD_STATS(X, A, sc, id, p, unit, role, need, what)                                 \
	X(A, sc, id, p, FT_OBJ, unit, role, need, what " over the repetitions")               \
	X(A, sc, id##_n, p ".n", FT_INT, "", FR_COUNT, FN_WITH, "repetitions summarised")      \
	X(A, sc, id##_mean, p ".mean", FT_NUM, unit, role, FN_WITH, "mean")                    \
	X(A, sc, id##_stddev, p ".stddev", FT_NUM, unit, role, FN_WITH, "standard deviation")  \
	X(A, sc, id##_median, p ".median", FT_NUM, unit, role, FN_WITH, "median")              \
	X(A, sc, id##_min, p ".min", FT_NUM, unit, role, FN_WITH, "smallest repetition")       \
	X(A, sc, id##_max, p ".max", FT_NUM, unit, role, FN_WITH, "largest repetition")        \
	X(A, sc, id##_ci95_lo, p ".ci95_lo", FT_NUM, unit, role, FN_WITH,                      \
	  "95% interval of the mean (Student's t), low end")                                               \
	X(A, sc, id##_ci95_hi, p ".ci95_hi", FT_NUM, unit, role, FN_WITH,                      \
	  "95% interval of the mean (Student's t), high end")

/* debugfs rseq/stats over a window (CONFIG_RSEQ_STATS, system-wide). */
#define SB_FLD_RSEQ(X, A, sc, id, p)                                                           \
	X(A, sc, id, p, FT_OBJ, "", FR_META, FN_OPT, "debugfs rseq/stats over the window")     \
	X(A, sc, id##_status, p ".status", FT_STR, "", FR_META, FN_WITH, "ok or unsupported")  \
	X(A, sc, id##_reason, p ".reason", FT_STR, "", FR_META, FN_OPT, "why not read")        \
	X(A, sc, id##_sgrant, p ".sgrant", FT_NUM, "", FR_COUNT, FN_OPT, "extensions granted") \
	X(A, sc, id##_sexpir, p ".sexpir", FT_NUM, "", FR_COUNT, FN_OPT, "grants expired")     \
	X(A, sc, id##_srevok, p ".srevok", FT_NUM, "", FR_COUNT, FN_OPT, "grants revoked")     \
	X(A, sc, id##_syield, p ".syield", FT_NUM, "", FR_COUNT, FN_OPT, "grants yielded")     \
	X(A, sc, id##_sabort, p ".sabort", FT_NUM, "", FR_COUNT, FN_OPT, "requests aborted")

/* Slice-timer events by kind (slicetrace.c). */
#define SB_FLD_EVENTS(X, A, sc, id, p)                                                         \
	X(A, sc, id, p, FT_OBJ, "", FR_COUNT, FN_OPT, "the kernel's rseq slice events by kind") \
	X(A, sc, id##_grant, p ".grant", FT_NUM, "", FR_COUNT, FN_OPT, "grants")                \
	X(A, sc, id##_expire, p ".expire", FT_NUM, "", FR_COUNT, FN_OPT, "expiries")            \
	X(A, sc, id##_revoke, p ".revoke", FT_NUM, "", FR_COUNT, FN_OPT, "revocations")         \
	X(A, sc, id##_yield, p ".yield", FT_NUM, "", FR_COUNT, FN_OPT, "yields")                \
	X(A, sc, id##_abort, p ".abort", FT_NUM, "", FR_COUNT, FN_OPT, "aborts")

/* The slice timer's arms and how each ended (slicetrace.c, slicedur.h). */
#define SB_FLD_ARMS(X, A, sc, id, p)                                                           \
	X(A, sc, id##_arms, p ".arms", FT_NUM, "", FR_COUNT, FN_OPT, "slice-timer starts")      \
	X(A, sc, id##_expired, p ".expired", FT_NUM, "", FR_COUNT, FN_OPT, "arms that expired") \
	X(A, sc, id##_rearmed, p ".rearmed", FT_NUM, "", FR_COUNT, FN_OPT,                      \
	  "arms restarted before ending")                                                       \
	X(A, sc, id##_open, p ".open", FT_NUM, "", FR_COUNT, FN_OPT, "arms still open at the end") \
	X(A, sc, id##_unmatched, p ".unmatched", FT_NUM, "", FR_COUNT, FN_OPT,                  \
	  "ends without a start")                                                               \
	X(A, sc, id##_other_tasks, p ".other_tasks", FT_NUM, "", FR_COUNT, FN_OPT,              \
	  "arms by tasks outside the run")                                                      \
	X(A, sc, id##_lost_events, p ".lost_events", FT_NUM, "", FR_COUNT, FN_OPT,              \
	  "trace events the ring buffer dropped")                                               \
	SB_FLD_EVENTS(X, A, sc, id##_rseq_events, p ".rseq_events")

/* One perf event of a repetition (counters.c). */
#define SB_FLD_COUNTER(X, A, sc, id, p, what)                                                  \
	X(A, sc, id, p, FT_OBJ, "", FR_COUNT, FN_OPT, what)                                     \
	X(A, sc, id##_status, p ".status", FT_STR, "", FR_META, FN_WITH, "ok or unsupported")   \
	X(A, sc, id##_reason, p ".reason", FT_STR, "", FR_META, FN_OPT, "why not counted")      \
	X(A, sc, id##_value, p ".value", FT_NUM, "", FR_COUNT, FN_OPT, "the lock threads' total") \
	X(A, sc, id##_scaled, p ".scaled", FT_NUM, "", FR_COUNT, FN_OPT,                        \
	  "value scaled for multiplexing")                                                      \
	X(A, sc, id##_enabled, p ".time_enabled_ns", FT_NUM, "ns", FR_META, FN_OPT,             \
	  "time the event was enabled")                                                         \
	X(A, sc, id##_running, p ".time_running_ns", FT_NUM, "ns", FR_META, FN_OPT,             \
	  "time the event was counting")                                                        \
	X(A, sc, id##_kernel, p ".kernel_counted", FT_BOOL, "", FR_META, FN_OPT,                \
	  "kernel-mode events included")                                                        \
	X(A, sc, id##_mux, p ".multiplexed", FT_BOOL, "", FR_META, FN_OPT, "counted part time") \
	X(A, sc, id##_filter, p ".filter", FT_STR, "", FR_META, FN_OPT, "tracepoint filter")    \
	X(A, sc, id##_per_thread, p ".per_thread", FT_LIST, "", FR_COUNT, FN_OPT,               \
	  "one value per lock thread (dropped by keep: summary)")                               \
	X(A, sc, id##_per_thread_i, p ".per_thread[]", FT_NUM | FT_NULL, "", FR_COUNT, FN_OPT,  \
	  "a thread's value, null when not counted")

/* One side (hold or think) of a repetition's busy-loop check (drift.c). */
#define SB_FLD_CALSIDE(X, A, sc, id, p, what)                                                  \
	X(A, sc, id, p, FT_OBJ, "", FR_META, FN_WITH, what)                                     \
	X(A, sc, id##_expected, p ".expected_ns", FT_NUM, "ns", FR_LATENCY, FN_WITH,            \
	  "the configured duration")                                                            \
	X(A, sc, id##_p50, p ".p50_ns", FT_NUM, "ns", FR_LATENCY, FN_OPT, "its sampled median") \
	X(A, sc, id##_ratio, p ".ratio", FT_NUM, "", FR_SHARE, FN_OPT, "p50_ns / expected_ns")  \
	X(A, sc, id##_samples, p ".samples", FT_NUM, "", FR_COUNT, FN_OPT, "samples taken")     \
	X(A, sc, id##_drifted, p ".drifted", FT_BOOL, "", FR_META, FN_OPT,                      \
	  "ratio outside the tolerance")                                                        \
	X(A, sc, id##_unchecked, p ".unchecked", FT_STR, "", FR_META, FN_OPT, "why not checked")

#define SB_FLD_FAULTS(X, A, sc, id, p)                                                         \
	X(A, sc, id, p, FT_OBJ, "", FR_COUNT, FN_OPT, "page faults of the lock threads")        \
	X(A, sc, id##_majflt, p ".majflt", FT_NUM, "", FR_COUNT, FN_WITH, "major faults")       \
	X(A, sc, id##_minflt, p ".minflt", FT_NUM, "", FR_COUNT, FN_WITH, "minor faults")       \
	X(A, sc, id##_minflt_per_op, p ".minflt_per_op", FT_NUM, "1/op", FR_COST, FN_OPT,       \
	  "minor faults per operation")

/* X(A, scope, id, path, type, unit, role, need, meaning), parents before
 * their members; among siblings a listed key before the "*" that takes
 * any other key. */
#define SB_FIELDS(X, A)                                                                        \
	X(A, FS_DOC, schema, "schema", FT_STR, "", FR_META, FN_WITH,                           \
	  "\"slicebench/MAJOR[.MINOR]\"; readers refuse another major")                        \
	X(A, FS_DOC, meta, "meta", FT_OBJ, "", FR_META, FN_WITH,                               \
	  "where and how the suite ran (sysinfo.c)")                                           \
	X(A, FS_DOC, config, "config", FT_OBJ | FT_OPEN | FT_NULL, "", FR_META, FN_OPT,        \
	  "the suite config as given (docs/manual.md, \"Config format\")")                                     \
	X(A, FS_DOC, config_name, "config.name", FT_STR, "", FR_META, FN_OPT, "the suite's name") \
	X(A, FS_DOC, config_desc, "config.description", FT_STR, "", FR_META, FN_OPT,          \
	  "what it asks, for the report's heading")                                            \
	X(A, FS_DOC, results, "results", FT_LIST, "", FR_META, FN_WITH, "one entry per run")   \
	X(A, FS_DOC, result, "results[]", FT_OBJ, "", FR_META, FN_WITH,                        \
	  "one workload at one parameter point")                                               \
	SB_FLD_META(X, A) SB_FLD_RESULT(X, A) SB_FLD_SUMMARY(X, A) SB_FLD_REP(X, A)

#define SB_FLD_META(X, A)                                                                      \
	X(A, FS_META, m_suite_version, "suite_version", FT_STR, "", FR_META, FN_OPT, "slicebench version") \
	X(A, FS_META, m_git_revision, "git_revision", FT_STR, "", FR_META, FN_OPT, "the build's commit") \
	X(A, FS_META, m_utc, "utc", FT_STR, "", FR_META, FN_OPT, "start time, ISO 8601 UTC")    \
	X(A, FS_META, m_host, "host", FT_STR, "", FR_META, FN_OPT, "host name")                \
	X(A, FS_META, m_config_file, "config_file", FT_STR, "", FR_META, FN_OPT,                \
	  "the config's path (none for a run from flags)")                                      \
	X(A, FS_META, m_study, "study", FT_STR, "", FR_META, FN_OPT, "the study that ran it")  \
	X(A, FS_META, m_interrupted, "interrupted", FT_OBJ, "", FR_META, FN_OPT,               \
	  "a signal stopped the suite: the results are the runs so far")                       \
	X(A, FS_META, m_int_signal, "interrupted.signal", FT_INT, "", FR_META, FN_WITH,        \
	  "the signal's number")                                                               \
	X(A, FS_META, m_int_name, "interrupted.name", FT_STR, "", FR_META, FN_WITH,            \
	  "its name (strsignal)")                                                              \
	X(A, FS_META, m_int_done, "interrupted.runs_done", FT_INT, "", FR_COUNT, FN_WITH,      \
	  "runs with a result, the one in flight marked interrupted")                          \
	X(A, FS_META, m_int_planned, "interrupted.runs_planned", FT_INT, "", FR_COUNT,         \
	  FN_WITH, "runs the suite has")                                                       \
	X(A, FS_META, m_files, "files", FT_LIST, "", FR_META, FN_OPT,                          \
	  "a directory read as one document: its files (readers only)")                        \
	X(A, FS_META, m_file, "files[]", FT_STR, "", FR_META, FN_OPT, "a file's path")         \
	X(A, FS_META, m_kernel, "kernel", FT_OBJ, "", FR_META, FN_OPT, "uname(2)")             \
	X(A, FS_META, m_kernel_release, "kernel.release", FT_STR, "", FR_META, FN_OPT, "kernel release") \
	X(A, FS_META, m_kernel_version, "kernel.version", FT_STR, "", FR_META, FN_OPT, "kernel build") \
	X(A, FS_META, m_kernel_machine, "kernel.machine", FT_STR, "", FR_META, FN_OPT, "architecture") \
	X(A, FS_META, m_cmdline, "cmdline", FT_STR, "", FR_META, FN_OPT, "kernel command line") \
	X(A, FS_META, m_kconfig, "kconfig", FT_OBJ, "", FR_META, FN_OPT,                       \
	  "the kernel config options that matter here")                                        \
	X(A, FS_META, m_kconfig_source, "kconfig.source", FT_STR | FT_NULL, "", FR_META, FN_OPT, \
	  "where the config was read")                                                         \
	X(A, FS_META, m_kconfig_opt, "kconfig.*", FT_STR, "", FR_META, FN_OPT,                 \
	  "an option's value, or \"not set\"")                                                 \
	X(A, FS_META, m_preemption, "preemption", FT_OBJ, "", FR_META, FN_OPT, "preemption model") \
	X(A, FS_META, m_preempt_model, "preemption.model", FT_STR, "", FR_META, FN_OPT,        \
	  "none, voluntary, full or lazy")                                                     \
	X(A, FS_META, m_preempt_source, "preemption.source", FT_STR, "", FR_META, FN_OPT,      \
	  "where the model was read")                                                          \
	X(A, FS_META, m_preempt_variant, "preemption.variant", FT_STR | FT_NULL, "", FR_META,  \
	  FN_OPT, "the suite's kernel variant")                                                \
	X(A, FS_META, m_preempt_variant_source, "preemption.variant_source", FT_STR, "",       \
	  FR_META, FN_OPT, "where the variant was read")                                       \
	X(A, FS_META, m_hz, "hz", FT_NUM | FT_NULL, "Hz", FR_META, FN_OPT, "CONFIG_HZ")         \
	X(A, FS_META, m_timers, "timers", FT_OBJ, "", FR_META, FN_OPT,                         \
	  "the timers a wakeup rests on (sysinfo.c)")                                          \
	X(A, FS_META, m_timers_res, "timers.monotonic_res_ns", FT_NUM, "ns", FR_META, FN_OPT,  \
	  "clock_getres(CLOCK_MONOTONIC): 1 with high-resolution timers, else 1/HZ")           \
	X(A, FS_META, m_timers_hres, "timers.high_resolution", FT_BOOL, "", FR_META, FN_OPT,   \
	  "hrtimers in high-resolution mode (sleeps do not wait for a tick)")                  \
	X(A, FS_META, m_timers_dev, "timers.clockevent", FT_STR | FT_NULL, "", FR_META, FN_OPT, \
	  "CPU 0's tick device (lapic, lapic-deadline, hpet, pit...)")                         \
	X(A, FS_META, m_timers_src, "timers.clocksource", FT_STR | FT_NULL, "", FR_META,       \
	  FN_OPT, "the clocksource in use")                                                    \
	X(A, FS_META, m_slice, "slice_extension", FT_OBJ, "", FR_META, FN_OPT,                 \
	  "the rseq time-slice extension here")                                                \
	X(A, FS_META, m_slice_available, "slice_extension.available", FT_BOOL, "", FR_META,    \
	  FN_OPT, "prctl(PR_RSEQ_SLICE_EXTENSION) succeeded")                                  \
	X(A, FS_META, m_slice_reason, "slice_extension.reason", FT_STR | FT_NULL, "", FR_META, \
	  FN_OPT, "why it is not available")                                                   \
	X(A, FS_META, m_slice_registration, "slice_extension.registration", FT_STR, "",        \
	  FR_META, FN_OPT, "the rseq registration mode")                                       \
	X(A, FS_META, m_slice_feature, "slice_extension.rseq_feature_size", FT_NUM, "bytes",   \
	  FR_META, FN_OPT, "AT_RSEQ_FEATURE_SIZE")                                             \
	X(A, FS_META, m_slice_nsec, "slice_extension.slice_ext_nsec", FT_NUM, "ns", FR_META,   \
	  FN_OPT, "debugfs rseq/slice_ext_nsec")                                               \
	X(A, FS_META, m_slice_nsec_reason, "slice_extension.slice_ext_nsec_reason", FT_STR,    \
	  "", FR_META, FN_OPT, "why it was not read")                                          \
	X(A, FS_META, m_topology, "topology", FT_OBJ, "", FR_META, FN_OPT, "hwloc's view")     \
	X(A, FS_META, m_pus, "topology.pus", FT_NUM, "", FR_META, FN_OPT, "processing units")  \
	X(A, FS_META, m_cores, "topology.cores", FT_NUM, "", FR_META, FN_OPT, "cores")         \
	X(A, FS_META, m_packages, "topology.packages", FT_NUM, "", FR_META, FN_OPT, "packages") \
	X(A, FS_META, m_numa, "topology.numa_nodes", FT_NUM, "", FR_META, FN_OPT, "NUMA nodes") \
	X(A, FS_META, m_cpu_model, "topology.cpu_model", FT_STR, "", FR_META, FN_OPT, "CPU model") \
	X(A, FS_META, m_allowed, "topology.allowed_cpus", FT_STR, "", FR_META, FN_OPT,         \
	  "the CPUs the suite may use")                                                        \
	X(A, FS_META, m_virt, "virtualization", FT_OBJ, "", FR_META, FN_OPT,                   \
	  "CPUID hypervisor leaf")                                                             \
	X(A, FS_META, m_virt_hypervisor, "virtualization.hypervisor", FT_BOOL, "", FR_META,    \
	  FN_OPT, "running under a hypervisor")                                                \
	X(A, FS_META, m_virt_vendor, "virtualization.vendor", FT_STR, "", FR_META, FN_OPT,     \
	  "its vendor string")                                                                 \
	X(A, FS_META, m_virt_kind, "virtualization.kind", FT_STR, "", FR_META, FN_OPT,         \
	  "kvm, tcg, ...")                                                                     \
	X(A, FS_META, m_vuln, "cpu_vulnerabilities", FT_OBJ, "", FR_META, FN_OPT,              \
	  "/sys/devices/system/cpu/vulnerabilities")                                           \
	X(A, FS_META, m_vuln_one, "cpu_vulnerabilities.*", FT_STR, "", FR_META, FN_OPT,        \
	  "one file's text")                                                                   \
	X(A, FS_META, m_glibc, "glibc", FT_STR, "", FR_META, FN_OPT, "glibc version")          \
	X(A, FS_META, m_compiler, "compiler", FT_STR, "", FR_META, FN_OPT, "compiler version") \
	X(A, FS_META, m_perf_keys, "perf_keys", FT_OBJ, "", FR_META, FN_OPT,                   \
	  "perf events and where each came from")                                              \
	X(A, FS_META, m_perf_key, "perf_keys.*", FT_STR, "", FR_META, FN_OPT, "an event's source") \
	X(A, FS_META, m_slurm, "slurm", FT_OBJ | FT_OPEN, "", FR_META, FN_OPT,                 \
	  "the Slurm job, under Slurm")                                                        \
	X(A, FS_META, m_interleave, "interleave", FT_OBJ | FT_OPEN, "", FR_META, FN_OPT,       \
	  "seed and generator of an interleaved suite")                                        \
	X(A, FS_META, m_selftest, "selftest", FT_OBJ | FT_OPEN, "", FR_META, FN_OPT,           \
	  "the kernel selftest's verdict, in the guest")                                       \
	X(A, FS_META, m_rseq_stats, "rseq_stats", FT_OBJ, "", FR_META, FN_OPT,                 \
	  "the guest's debugfs rseq/stats around the suite")                                   \
	X(A, FS_META, m_rseq_source, "rseq_stats.source", FT_STR, "", FR_META, FN_OPT,         \
	  "where they were read")                                                              \
	X(A, FS_META, m_rseq_side, "rseq_stats.*", FT_OBJ, "", FR_META, FN_OPT,                \
	  "before, after, or delta")                                                           \
	X(A, FS_META, m_rseq_counter, "rseq_stats.*.*", FT_NUM, "", FR_COUNT, FN_OPT,          \
	  "one counter")                                                                       \
	X(A, FS_META, m_timescale, "timescale", FT_OBJ | FT_OPEN, "", FR_META, FN_OPT,         \
	  "run --slowdown K: the slowdown and whether run keys were scaled")                   \
	X(A, FS_META, m_vm, "vm", FT_OBJ | FT_OPEN, "", FR_META, FN_OPT,                       \
	  "the VM runner's guest and host")                                                    \
	X(A, FS_META, m_vm_accel, "vm.accel", FT_STR, "", FR_META, FN_OPT, "kvm or tcg")       \
	X(A, FS_META, m_vm_calibration, "vm.calibration", FT_OBJ | FT_OPEN, "", FR_META,       \
	  FN_OPT, "the guest's calibration run")                                                \
	X(A, FS_META, m_vm_timescale, "vm.timescale", FT_OBJ | FT_OPEN, "", FR_META, FN_OPT,    \
	  "the guest's slowdown k against the host and the time constants scaled by it")

#define SB_FLD_RESULT(X, A)                                                                    \
	X(A, FS_RESULT, r_id, "id", FT_NUM, "", FR_META, FN_OPT, "the run's number in the suite") \
	X(A, FS_RESULT, r_label, "label", FT_STR, "", FR_META, FN_OPT, "the config run's label") \
	X(A, FS_RESULT, r_workload, "workload", FT_STR, "", FR_META, FN_WITH,                  \
	  "lock+policy, or a workload's name")                                                 \
	X(A, FS_RESULT, r_params, "params", FT_OBJ | FT_OPEN, "", FR_META, FN_WITH,            \
	  "every key resolved (docs/manual.md, \"Keys\")")                                              \
	X(A, FS_RESULT, r_threads, "params.threads", FT_NUM | FT_STR, "", FR_META, FN_OPT,     \
	  "threads as configured (\"2x\" follows the PU count)")                               \
	X(A, FS_RESULT, r_cs_ns, "params.cs_ns", FT_NUM, "ns", FR_META, FN_OPT,                \
	  "critical-section length")                                                           \
	X(A, FS_RESULT, r_pin, "params.pin", FT_STR, "", FR_META, FN_OPT, "placement")         \
	X(A, FS_RESULT, r_lock, "params.lock", FT_STR | FT_NULL, "", FR_META, FN_OPT,          \
	  "the lock of a lock+policy workload (null: another kind)")                                                \
	X(A, FS_RESULT, r_policy, "params.policy", FT_STR | FT_NULL, "", FR_META, FN_OPT,      \
	  "its waiting policy (none: no request)")                                             \
	X(A, FS_RESULT, r_dry, "params.dry", FT_BOOL | FT_NULL, "", FR_META, FN_OPT,           \
	  "the request written where the kernel never reads it")                               \
	X(A, FS_RESULT, r_noise, "params.noise", FT_NUM, "", FR_META, FN_OPT, "noise threads") \
	X(A, FS_RESULT, r_victim, "params.victim", FT_OBJ | FT_OPEN | FT_NULL, "", FR_META,   \
	  FN_OPT, "the victim probe's settings")                                               \
	X(A, FS_RESULT, r_victim_threads, "params.victim.threads", FT_NUM, "", FR_META, FN_OPT, \
	  "victim threads (0: none)")                                                          \
	X(A, FS_RESULT, r_slice_ext_nsec, "params.slice_ext_nsec", FT_NUM, "ns", FR_META,     \
	  FN_OPT, "the extension length asked for (0: the kernel's)")                          \
	X(A, FS_RESULT, r_duration, "params.duration_s", FT_NUM, "s", FR_META, FN_OPT,         \
	  "a window's length")                                                                 \
	X(A, FS_RESULT, r_nreps, "params.repetitions", FT_NUM, "", FR_META, FN_OPT,            \
	  "repetitions asked for")                                                             \
	X(A, FS_RESULT, r_ci_target, "params.ci_target_pct", FT_NUM, "%", FR_META, FN_OPT,     \
	  "> 0: repeat until the interval is this narrow")                                     \
	X(A, FS_RESULT, r_nthreads, "nthreads", FT_NUM, "", FR_META, FN_OK,                    \
	  "lock threads that ran")                                                             \
	X(A, FS_RESULT, r_status, "status", FT_STR, "", FR_META, FN_WITH,                      \
	  "ok, unsupported, failed or interrupted")                                            \
	X(A, FS_RESULT, r_reason, "reason", FT_STR | FT_NULL, "", FR_META, FN_NOTOK,           \
	  "why it is not ok (null when ok)")                                                   \
	X(A, FS_RESULT, r_rseq_reg, "rseq_registration", FT_OBJ, "", FR_META, FN_OPT,          \
	  "the lock threads' rseq registration")                                               \
	X(A, FS_RESULT, r_rseq_reg_kind, "rseq_registration.kind", FT_STR, "", FR_META, FN_WITH, \
	  "none, legacy, v2 or mixed")                                                         \
	X(A, FS_RESULT, r_rseq_reg_threads, "rseq_registration.threads", FT_NUM, "", FR_COUNT, \
	  FN_OPT, "threads registered")                                                        \
	X(A, FS_RESULT, r_rseq_reg_lock, "rseq_registration.lock_threads", FT_NUM, "",         \
	  FR_COUNT, FN_OPT, "lock threads")                                                    \
	X(A, FS_RESULT, r_rseq_reg_reason, "rseq_registration.reason", FT_STR | FT_NULL, "",   \
	  FR_META, FN_OPT, "why not registered")                                               \
	X(A, FS_RESULT, r_ext_nsec, "slice_ext_nsec_in_force", FT_NUM, "ns", FR_META, FN_OPT,  \
	  "the extension length the run had (interleaved suites)")                             \
	X(A, FS_RESULT, r_ext_host, "slice_ext_host_ns", FT_NUM, "ns", FR_META, FN_OPT,        \
	  "that length in host-equivalent ns (in force / meta.timescale.slowdown)")            \
	X(A, FS_RESULT, r_ext_clamped, "slice_ext_clamped", FT_STR, "", FR_META, FN_OPT,       \
	  "a scaled length the kernel's range clamped (run --timescale)")                      \
	X(A, FS_RESULT, r_fmem, "fault_mem", FT_OBJ, "", FR_META, FN_OPT,                      \
	  "the faulting section's memory (fault_pages > 0; faultcs.c)")                        \
	X(A, FS_RESULT, r_fmem_mem, "fault_mem.mem", FT_STR, "", FR_META, FN_WITH,             \
	  "private, shared, shared-remove or huge")                                           \
	X(A, FS_RESULT, r_fmem_pages, "fault_mem.pages", FT_NUM, "", FR_COUNT, FN_WITH,        \
	  "pages touched per section")                                                         \
	X(A, FS_RESULT, r_fmem_backing, "fault_mem.backing", FT_STR, "", FR_META, FN_WITH,     \
	  "the page size backing it, or none")                                                 \
	X(A, FS_RESULT, r_fmem_advice, "fault_mem.advice", FT_STR, "", FR_META, FN_WITH,       \
	  "the madvise(2) that drops the pages after each section")                            \
	X(A, FS_RESULT, r_fmem_reason, "fault_mem.reason", FT_STR, "", FR_META, FN_OPT,        \
	  "why the region is not what was asked")                                              \
	X(A, FS_RESULT, r_interleave, "interleave", FT_OBJ | FT_OPEN, "", FR_META, FN_OPT,     \
	  "its place in an interleaved suite")                                                 \
	X(A, FS_RESULT, r_left_behind, "left_behind", FT_INT, "", FR_COUNT, FN_OPT,            \
	  "processes the run left behind, killed (its reason says so)")                        \
	X(A, FS_RESULT, r_preload_lib, "preload_library", FT_STR, "", FR_META, FN_OPT,         \
	  "the preload library a program ran under")                                           \
	X(A, FS_RESULT, r_histograms, "histograms", FT_OBJ, "", FR_META, FN_OPT,               \
	  "sparse histograms (dropped by keep: summary)")                                      \
	X(A, FS_RESULT, r_histogram, "histograms.*", FT_LIST, "ns", FR_LATENCY, FN_OPT,        \
	  "hold_ns, acquire_ns, victim_ns or extension_ns")                                    \
	X(A, FS_RESULT, r_bucket, "histograms.*[]", FT_LIST, "ns", FR_LATENCY, FN_OPT,         \
	  "[lo_ns, width_ns, count], non-empty buckets only")                                  \
	X(A, FS_RESULT, r_bucket_v, "histograms.*[][]", FT_NUM, "", FR_COUNT, FN_OPT,          \
	  "lo_ns, width_ns or count")                                                          \
	X(A, FS_RESULT, r_reps, "repetitions", FT_LIST, "", FR_META, FN_OK,                    \
	  "one entry per measured window")                                                     \
	X(A, FS_RESULT, r_rep, "repetitions[]", FT_OBJ, "", FR_META, FN_WITH, "one window")    \
	X(A, FS_RESULT, r_summary, "summary", FT_OBJ, "", FR_META, FN_OK,                      \
	  "the repetitions summarised")                                                        \
	X(A, FS_RESULT, r_file, "_file", FT_STR, "", FR_META, FN_OPT,                          \
	  "the file it came from (added by readers, never written)")                           \
	X(A, FS_RESULT, r_index, "_index", FT_INT, "", FR_META, FN_OPT,                        \
	  "its index there (added by readers)")                                                \
	X(A, FS_RESULT, r_meta, "_meta", FT_OBJ | FT_OPEN, "", FR_META, FN_OPT,                \
	  "its document's meta (added by readers)")

#define SB_FLD_SUMMARY(X, A)                                                                   \
	SB_FLD_STATS(X, A, FS_RESULT, s_ops, "summary.ops_per_sec", "ops/s", FR_THROUGHPUT,    \
		     FN_RATE, "critical sections (a program: its metric) per second")            \
	X(A, FS_RESULT, s_jain, "summary.fairness_jain", FT_NUM, "", FR_SHARE, FN_LOOP,        \
	  "Jain's index over the threads' ops, mean over the repetitions")                     \
	X(A, FS_RESULT, s_jain_min, "summary.fairness_jain_min", FT_NUM, "", FR_SHARE, FN_OPT, \
	  "its lowest repetition")                                                             \
	SB_FLD_PCT(X, A, FS_RESULT, s_hold, "summary.hold_ns", FR_LATENCY, FN_LOOP, FN_WITH,   \
		   "sampled hold times, all repetitions")                                       \
	SB_FLD_PCT(X, A, FS_RESULT, s_acq, "summary.acquire_ns", FR_LATENCY, FN_LOOP, FN_WITH, \
		   "sampled acquire latencies, all repetitions")                                \
	SB_FLD_PCT(X, A, FS_RESULT, s_victim, "summary.victim", FR_LATENCY, FN_OPT, FN_WITH,   \
		   "the victim thread's wakeup latency")                                        \
	X(A, FS_RESULT, s_counters, "summary.counters", FT_OBJ, "", FR_COST, FN_OPT,           \
	  "per-operation costs")                                                               \
	X(A, FS_RESULT, s_cycles_op, "summary.counters.cycles_per_op", FT_NUM | FT_NULL,       \
	  "cycles/op", FR_COST, FN_OPT, "PMU cycles per operation (null: no PMU)")             \
	X(A, FS_RESULT, s_instr_op, "summary.counters.instructions_per_op", FT_NUM | FT_NULL,  \
	  "instructions/op", FR_COST, FN_OPT, "instructions per operation")                    \
	X(A, FS_RESULT, s_tsc_op, "summary.counters.tsc_cycles_per_op", FT_NUM | FT_NULL,      \
	  "cycles/op", FR_COST, FN_OPT, "TSC cycles of the threads' CPU time per operation")   \
	X(A, FS_RESULT, s_tsc_ghz, "summary.counters.tsc_ghz", FT_NUM, "GHz", FR_META, FN_OPT, \
	  "TSC rate")                                                                          \
	X(A, FS_RESULT, s_ctxsw_op, "summary.counters.context_switches_per_op",                \
	  FT_NUM | FT_NULL, "1/op", FR_COST, FN_OPT, "context switches per operation")         \
	X(A, FS_RESULT, s_ctxsw_src, "summary.counters.context_switches_source", FT_STR, "",   \
	  FR_META, FN_OPT, "perf context-switches or getrusage")                               \
	X(A, FS_RESULT, s_preempt, "summary.counters.preemptions", FT_NUM, "", FR_COUNT,       \
	  FN_OPT, "involuntary context switches")                                              \
	X(A, FS_RESULT, s_preempt_s, "summary.counters.preemptions_per_sec", FT_NUM, "1/s",    \
	  FR_COST, FN_OPT, "preemptions per second")                                           \
	X(A, FS_RESULT, s_preempt_k, "summary.counters.preemptions_per_1000_ops", FT_NUM,      \
	  "1/1000 ops", FR_COST, FN_OPT, "preemptions per 1000 operations")                    \
	X(A, FS_RESULT, s_switch, "summary.counters.sched_switch_preempted", FT_NUM | FT_NULL, \
	  "", FR_COUNT, FN_OPT, "sched_switch events with the thread preempted")               \
	X(A, FS_RESULT, s_cpu_share, "summary.counters.cpu_share", FT_NUM, "", FR_SHARE,       \
	  FN_OPT, "CPU time / wall time")                                                      \
	X(A, FS_RESULT, s_long, "summary.counters.long_holds", FT_OBJ, "", FR_COUNT, FN_OPT,   \
	  "holds far above the median")                                                        \
	X(A, FS_RESULT, s_long_thr, "summary.counters.long_holds.threshold_ns", FT_NUM, "ns",  \
	  FR_LATENCY, FN_WITH, "what counts as long")                                          \
	X(A, FS_RESULT, s_long_n, "summary.counters.long_holds.sampled", FT_NUM, "", FR_COUNT, \
	  FN_WITH, "sampled holds above it")                                                   \
	X(A, FS_RESULT, s_long_frac, "summary.counters.long_holds.fraction", FT_NUM, "",       \
	  FR_SHARE, FN_WITH, "their share of the samples")                                     \
	X(A, FS_RESULT, s_grants_k_c, "summary.counters.grants_per_1000_ops", FT_NUM,          \
	  "1/1000 ops", FR_COUNT, FN_OPT, "slice grants per 1000 operations")                  \
	X(A, FS_RESULT, s_deferred, "summary.counters.deferred_fraction", FT_NUM, "", FR_SHARE, \
	  FN_OPT, "grants / (grants + preemptions)")                                           \
	SB_FLD_RSEQ(X, A, FS_RESULT, s_rseq, "summary.rseq_stats")                             \
	SB_FLD_FAULTS(X, A, FS_RESULT, s_faults, "summary.faults")                             \
	X(A, FS_RESULT, s_cal, "summary.calibration", FT_OBJ, "", FR_META, FN_OPT,             \
	  "the busy-loop checks of the repetitions")                                           \
	X(A, FS_RESULT, s_cal_checked, "summary.calibration.checked", FT_NUM, "", FR_COUNT,    \
	  FN_OPT, "repetitions checked")                                                       \
	X(A, FS_RESULT, s_cal_tol, "summary.calibration.tolerance", FT_NUM, "", FR_SHARE,      \
	  FN_OPT, "the accepted ratio")                                                        \
	X(A, FS_RESULT, s_cal_drifted, "summary.calibration.drifted_repetitions", FT_LIST, "", \
	  FR_META, FN_OPT, "the repetitions that drifted")                                     \
	X(A, FS_RESULT, s_cal_drifted_i, "summary.calibration.drifted_repetitions[]", FT_INT,  \
	  "", FR_META, FN_OPT, "a repetition's index")                                         \
	X(A, FS_RESULT, s_cal_recal, "summary.calibration.recalibrated_after", FT_LIST, "",    \
	  FR_META, FN_OPT, "the repetitions after which the loop was recalibrated")            \
	X(A, FS_RESULT, s_cal_recal_i, "summary.calibration.recalibrated_after[]", FT_INT, "", \
	  FR_META, FN_OPT, "a repetition's index")                                             \
	X(A, FS_RESULT, s_auto, "summary.repetitions_auto", FT_OBJ | FT_OPEN, "", FR_META,     \
	  FN_OPT, "the ci_target_pct stopping rule")                                           \
	X(A, FS_RESULT, s_auto_n, "summary.repetitions_auto.n", FT_NUM, "", FR_COUNT, FN_WITH, \
	  "repetitions run")                                                                   \
	X(A, FS_RESULT, s_auto_min, "summary.repetitions_auto.min", FT_NUM, "", FR_COUNT,      \
	  FN_WITH, "the fewest allowed")                                                       \
	X(A, FS_RESULT, s_auto_max, "summary.repetitions_auto.max", FT_NUM, "", FR_COUNT,      \
	  FN_WITH, "the most allowed")                                                         \
	X(A, FS_RESULT, s_holder, "summary.holder_trace", FT_OBJ | FT_OPEN, "", FR_META,       \
	  FN_OPT, "why holders were preempted (holdtrace.c)")                                  \
	X(A, FS_RESULT, s_holder_status, "summary.holder_trace.status", FT_STR, "", FR_META,   \
	  FN_WITH, "ok, skipped or unsupported")                                               \
	X(A, FS_RESULT, s_holder_reason, "summary.holder_trace.reason", FT_STR, "", FR_META,   \
	  FN_OPT, "why not traced")                                                            \
	X(A, FS_RESULT, s_slice, "summary.slice", FT_OBJ, "", FR_COUNT, FN_OPT,                \
	  "the loop's own slice-extension counts (a requesting policy)")                       \
	X(A, FS_RESULT, s_slice_req, "summary.slice.requests", FT_NUM, "", FR_COUNT, FN_WITH,  \
	  "requests made")                                                                     \
	X(A, FS_RESULT, s_slice_grants, "summary.slice.grants", FT_NUM, "", FR_COUNT, FN_WITH, \
	  "grants seen at the clear")                                                          \
	X(A, FS_RESULT, s_slice_yields, "summary.slice.yields", FT_NUM, "", FR_COUNT, FN_WITH, \
	  "rseq_slice_yield calls")                                                            \
	X(A, FS_RESULT, s_grants_k, "summary.slice.grants_per_1000_ops", FT_NUM,               \
	  "1/1000 ops", FR_COUNT, FN_WITH, "grants per 1000 operations")                       \
	X(A, FS_RESULT, s_yields_k, "summary.slice.yields_per_1000_ops", FT_NUM,               \
	  "1/1000 ops", FR_COUNT, FN_WITH, "yields per 1000 operations")                       \
	SB_FLD_PCT(X, A, FS_RESULT, s_ext, "summary.slice.extension_ns", FR_LATENCY, FN_OPT,   \
		   FN_OPT, "how long each grant lasted (slicedur.h)")                           \
	X(A, FS_RESULT, s_ext_status, "summary.slice.extension_ns.status", FT_STR, "", FR_META, \
	  FN_WITH, "ok, unsupported or skipped")                                               \
	X(A, FS_RESULT, s_ext_reason, "summary.slice.extension_ns.reason", FT_STR, "", FR_META, \
	  FN_OPT, "why not measured")                                                          \
	X(A, FS_RESULT, s_ext_method, "summary.slice.extension_ns.method", FT_STR, "", FR_META, \
	  FN_OPT, "how it was measured")                                                       \
	X(A, FS_RESULT, s_ext_hmean, "summary.slice.extension_ns.harmonic_mean", FT_NUM, "ns", \
	  FR_LATENCY, FN_OPT, "the kernel's statistic: expired grants left out")               \
	SB_FLD_ARMS(X, A, FS_RESULT, s_ext, "summary.slice.extension_ns")                      \
	X(A, FS_RESULT, s_metric_name, "summary.metric_name", FT_STR, "", FR_META, FN_OPT,     \
	  "a program's metric, whose rate ops_per_sec is")                                     \
	X(A, FS_RESULT, s_preload, "summary.preload", FT_OBJ, "", FR_COUNT, FN_OPT,            \
	  "the preload library's counts, all repetitions")                                     \
	X(A, FS_RESULT, s_pl_locks, "summary.preload.locks", FT_INT, "", FR_COUNT, FN_WITH,    \
	  "lock acquisitions")                                                                 \
	X(A, FS_RESULT, s_pl_requests, "summary.preload.requests", FT_INT, "", FR_COUNT,       \
	  FN_WITH, "slice requests")                                                           \
	X(A, FS_RESULT, s_pl_grants, "summary.preload.grants", FT_INT, "", FR_COUNT, FN_WITH,  \
	  "grants")                                                                            \
	X(A, FS_RESULT, s_pl_yields, "summary.preload.yields", FT_INT, "", FR_COUNT, FN_WITH,  \
	  "yields")                                                                            \
	SB_FLD_STATS(X, A, FS_RESULT, s_pl_gps, "summary.preload.grants_per_s", "1/s",         \
		     FR_COUNT, FN_WITH, "grants per second")                                    \
	X(A, FS_RESULT, s_prim, "summary.primitives", FT_OBJ, "", FR_COST, FN_OPT,             \
	  "the primitives workload's measurements")                                            \
	X(A, FS_RESULT, s_prim_nth, "summary.primitives.nthreads_contended", FT_NUM, "",       \
	  FR_META, FN_OPT, "threads of the contended measurements")                            \
	X(A, FS_RESULT, s_prim_ratio, "summary.primitives.gettid_per_xadd", FT_NUM, "",        \
	  FR_SHARE, FN_OPT, "a syscall's cost in atomic adds")                                 \
	X(A, FS_RESULT, s_prim_one, "summary.primitives.*", FT_OBJ, "", FR_COST, FN_OPT,       \
	  "one primitive")                                                                     \
	X(A, FS_RESULT, s_prim_status, "summary.primitives.*.status", FT_STR, "", FR_META,     \
	  FN_OPT, "ok or unsupported")                                                         \
	X(A, FS_RESULT, s_prim_reason, "summary.primitives.*.reason", FT_STR, "", FR_META,     \
	  FN_OPT, "why it did not run")                                                        \
	SB_FLD_STATS(X, A, FS_RESULT, s_prim_ns, "summary.primitives.*.ns_per_op", "ns/op",    \
		     FR_COST, FN_OPT, "ns per call")                                            \
	SB_FLD_STATS(X, A, FS_RESULT, s_prim_tsc, "summary.primitives.*.tsc_cycles_per_op",    \
		     "cycles/op", FR_COST, FN_OPT, "TSC cycles per call")

#define SB_FLD_REP(X, A)                                                                       \
	X(A, FS_REP, ops_per_sec, "ops_per_sec", FT_NUM, "ops/s", FR_THROUGHPUT, FN_RATE,       \
	  "critical sections (a program: its metric) per second")                              \
	X(A, FS_REP, ops, "ops", FT_NUM, "", FR_COUNT, FN_LOOP, "critical sections completed") \
	X(A, FS_REP, wall_s, "wall_s", FT_NUM, "s", FR_META, FN_OPT, "the window's length")    \
	X(A, FS_REP, window_start, "window_start_ns", FT_NUM, "ns", FR_META, FN_OPT,           \
	  "when the window opened (interleaved suites)")                                       \
	X(A, FS_REP, jain, "fairness_jain", FT_NUM, "", FR_SHARE, FN_LOOP,                     \
	  "Jain's index over the threads' ops")                                                \
	X(A, FS_REP, exclusion_ok, "exclusion_ok", FT_BOOL, "", FR_META, FN_LOOP,              \
	  "the lock's exact count held")                                                       \
	SB_FLD_PCT(X, A, FS_REP, hold, "hold_ns", FR_LATENCY, FN_LOOP, FN_WITH,                \
		   "sampled hold times")                                                        \
	SB_FLD_PCT(X, A, FS_REP, acq, "acquire_ns", FR_LATENCY, FN_LOOP, FN_WITH,              \
		   "sampled acquire latencies")                                                 \
	SB_FLD_PCT(X, A, FS_REP, victim, "victim", FR_LATENCY, FN_OPT, FN_WITH,                \
		   "the victim thread's wakeup latency")                                        \
	X(A, FS_REP, rusage, "rusage", FT_OBJ, "", FR_COUNT, FN_OPT, "getrusage of the lock threads") \
	X(A, FS_REP, nvcsw, "rusage.nvcsw", FT_NUM, "", FR_COUNT, FN_WITH, "voluntary switches") \
	X(A, FS_REP, nivcsw, "rusage.nivcsw", FT_NUM, "", FR_COUNT, FN_WITH,                   \
	  "involuntary switches (preemptions)")                                                \
	X(A, FS_REP, tsc_cycles, "tsc_cycles", FT_NUM, "cycles", FR_COST, FN_OPT,              \
	  "TSC cycles of the threads' CPU time")                                               \
	X(A, FS_REP, cpu_ns, "cpu_ns", FT_NUM, "ns", FR_COST, FN_OPT, "the threads' CPU time") \
	X(A, FS_REP, counters, "counters", FT_OBJ, "", FR_COUNT, FN_OPT,                       \
	  "perf events by name (counters.c)")                                                  \
	SB_FLD_COUNTER(X, A, FS_REP, ctxsw, "counters.context-switches",                       \
		       "the context-switches software event")                                   \
	SB_FLD_COUNTER(X, A, FS_REP, counter, "counters.*", "any other event")                 \
	SB_FLD_RSEQ(X, A, FS_REP, rseq, "rseq_stats")                                          \
	X(A, FS_REP, cal, "calibration", FT_OBJ, "", FR_META, FN_OPT,                          \
	  "the busy loop's check (drift.c)")                                                   \
	X(A, FS_REP, cal_tol, "calibration.tolerance", FT_NUM, "", FR_SHARE, FN_WITH,          \
	  "the accepted ratio (> 1)")                                                          \
	X(A, FS_REP, cal_rate, "calibration.iters_per_ns", FT_NUM, "1/ns", FR_META, FN_OPT,    \
	  "the loop's calibrated rate")                                                        \
	X(A, FS_REP, cal_checked, "calibration.checked", FT_BOOL, "", FR_META, FN_OPT,         \
	  "a side was checked")                                                                \
	X(A, FS_REP, cal_drifted, "calibration.drifted", FT_BOOL, "", FR_META, FN_OPT,         \
	  "the hold or the think drifted")                                                     \
	SB_FLD_CALSIDE(X, A, FS_REP, cal_hold, "calibration.hold", "the hold against cs_ns")   \
	SB_FLD_CALSIDE(X, A, FS_REP, cal_think, "calibration.think",                           \
		       "the think against think_ns")                                            \
	X(A, FS_REP, cal_probe, "calibration.probe_iters_per_ns", FT_NUM, "1/ns", FR_META,     \
	  FN_OPT, "the loop's rate measured again")                                            \
	X(A, FS_REP, cal_probe_ratio, "calibration.probe_ratio", FT_NUM, "", FR_SHARE, FN_OPT, \
	  "calibrated rate / rate now")                                                        \
	X(A, FS_REP, cal_recal, "calibration.recalibrated", FT_BOOL, "", FR_META, FN_OPT,      \
	  "the next repetitions use the new rate")                                             \
	X(A, FS_REP, cal_reason, "calibration.reason", FT_STR, "", FR_META, FN_OPT,            \
	  "why it was or was not recalibrated")                                                \
	X(A, FS_REP, strace, "slice_trace", FT_OBJ, "", FR_COUNT, FN_OPT,                      \
	  "the slice timer's events in this window")                                           \
	X(A, FS_REP, strace_count, "slice_trace.count", FT_NUM, "", FR_COUNT, FN_OPT,          \
	  "arms cancelled (timed)")                                                            \
	SB_FLD_ARMS(X, A, FS_REP, strace, "slice_trace")                                       \
	X(A, FS_REP, threads, "threads", FT_LIST, "", FR_COUNT, FN_OPT,                        \
	  "per lock thread (dropped by keep: summary)")                                        \
	X(A, FS_REP, th, "threads[]", FT_OBJ, "", FR_COUNT, FN_WITH, "one lock thread")        \
	X(A, FS_REP, th_index, "threads[].index", FT_NUM, "", FR_META, FN_OPT, "its number")   \
	X(A, FS_REP, th_cpu, "threads[].cpu", FT_NUM, "", FR_META, FN_OPT, "its PU (-1 unpinned)") \
	X(A, FS_REP, th_ops, "threads[].ops", FT_NUM, "", FR_COUNT, FN_WITH, "its critical sections") \
	X(A, FS_REP, th_nvcsw, "threads[].nvcsw", FT_NUM, "", FR_COUNT, FN_OPT, "voluntary switches") \
	X(A, FS_REP, th_nivcsw, "threads[].nivcsw", FT_NUM, "", FR_COUNT, FN_OPT, "preemptions") \
	X(A, FS_REP, th_cpu_ns, "threads[].cpu_ns", FT_NUM, "ns", FR_COST, FN_OPT, "its CPU time") \
	X(A, FS_REP, th_share, "threads[].cpu_share", FT_NUM, "", FR_SHARE, FN_OPT,            \
	  "CPU time / wall time")                                                              \
	X(A, FS_REP, noise, "noise", FT_LIST, "", FR_COUNT, FN_OPT, "per noise thread")        \
	X(A, FS_REP, nz, "noise[]", FT_OBJ, "", FR_COUNT, FN_WITH, "one noise thread")         \
	X(A, FS_REP, nz_index, "noise[].index", FT_NUM, "", FR_META, FN_OPT, "its number")     \
	X(A, FS_REP, nz_cpu, "noise[].cpu", FT_NUM, "", FR_META, FN_OPT, "its PU")             \
	X(A, FS_REP, nz_share, "noise[].cpu_share", FT_NUM, "", FR_SHARE, FN_OPT,              \
	  "CPU time / wall time")                                                              \
	X(A, FS_REP, nz_nivcsw, "noise[].nivcsw", FT_NUM, "", FR_COUNT, FN_OPT, "preemptions") \
	SB_FLD_FAULTS(X, A, FS_REP, faults, "faults")                                          \
	X(A, FS_REP, faults_threads, "faults.threads", FT_LIST, "", FR_COUNT, FN_OPT,          \
	  "minor faults per thread")                                                           \
	X(A, FS_REP, faults_thread, "faults.threads[]", FT_NUM, "", FR_COUNT, FN_OPT,          \
	  "a thread's minor faults")                                                           \
	X(A, FS_REP, metric, "metric", FT_NUM, "", FR_COUNT, FN_OPT,                           \
	  "a program's own metric (summary.metric_name)")                                      \
	X(A, FS_REP, htr, "holder_trace", FT_OBJ, "", FR_COUNT, FN_OPT,                        \
	  "the window's switch-outs of lock threads (holder_trace_us > 0; holdtrace.c)")       \
	X(A, FS_REP, htr_outs, "holder_trace.switch_outs", FT_NUM, "", FR_COUNT, FN_WITH,      \
	  "times a lock thread left its CPU")                                                  \
	X(A, FS_REP, htr_slept, "holder_trace.slept", FT_NUM, "", FR_COUNT, FN_WITH,           \
	  "... blocked (not runnable)")                                                        \
	X(A, FS_REP, htr_runnable, "holder_trace.runnable", FT_NUM, "", FR_COUNT, FN_WITH,     \
	  "... preempted while runnable")                                                      \
	X(A, FS_REP, htr_holder, "holder_trace.holder", FT_OBJ, "", FR_COUNT, FN_WITH,         \
	  "runnable switch-outs inside a logged hold")                                           \
	X(A, FS_REP, htr_h_pre, "holder_trace.holder.preempted", FT_NUM, "", FR_COUNT,         \
	  FN_WITH, "holders preempted")                                                        \
	X(A, FS_REP, htr_h_fault, "holder_trace.holder.in_fault", FT_NUM, "", FR_COUNT,        \
	  FN_WITH, "... while in a page fault")                                                \
	X(A, FS_REP, htr_h_user, "holder_trace.holder.in_user", FT_NUM, "", FR_COUNT,          \
	  FN_WITH, "... while in user space")                                                  \
	X(A, FS_REP, htr_h_off, "holder_trace.holder.off_cpu_ns", FT_NUM, "ns", FR_LATENCY,    \
	  FN_WITH, "time holders spent off their CPU")                                         \
	X(A, FS_REP, htr_waiter, "holder_trace.waiter", FT_NUM, "", FR_COUNT, FN_WITH,         \
	  "... outside a hold, off for the threshold or more")                                 \
	X(A, FS_REP, htr_short, "holder_trace.short", FT_NUM, "", FR_COUNT, FN_WITH,           \
	  "... outside a hold, back within the threshold")                                     \
	X(A, FS_REP, htr_long, "holder_trace.long_holds", FT_NUM, "", FR_COUNT, FN_WITH,       \
	  "long holds logged")                                                                 \
	X(A, FS_REP, htr_dropped, "holder_trace.dropped_holds", FT_NUM, "", FR_COUNT, FN_WITH, \
	  "long holds the full log dropped")                                                   \
	X(A, FS_REP, htr_lost, "holder_trace.lost_events", FT_NUM, "", FR_COUNT, FN_WITH,      \
	  "trace events the ring buffer lost")                                                 \
	X(A, FS_REP, htr_grants, "holder_trace.slice_grants", FT_NUM, "", FR_COUNT, FN_WITH,   \
	  "slice grants in the window")                                                        \
	X(A, FS_REP, metric_found, "metric_found", FT_NUM, "", FR_COUNT, FN_OPT,               \
	  "how many values the metric was read from")                                          \
	X(A, FS_REP, left_behind, "left_behind", FT_INT, "", FR_COUNT, FN_OPT,                 \
	  "processes the program left behind, killed")                                         \
	X(A, FS_REP, exit_status, "exit_status", FT_NUM, "", FR_META, FN_OPT,                  \
	  "the program's exit status")                                                         \
	X(A, FS_REP, preload, "preload", FT_OBJ | FT_OPEN, "", FR_COUNT, FN_OPT,               \
	  "the preload library's own report (its schema field names it)")                      \
	X(A, FS_REP, pl_status, "preload.status", FT_STR, "", FR_META, FN_OPT, "ok or why not") \
	X(A, FS_REP, pl_locks, "preload.locks", FT_NUM, "", FR_COUNT, FN_OPT, "acquisitions")  \
	X(A, FS_REP, pl_requests, "preload.requests", FT_NUM, "", FR_COUNT, FN_OPT, "requests") \
	X(A, FS_REP, pl_grants, "preload.grants", FT_NUM, "", FR_COUNT, FN_OPT, "grants")      \
	X(A, FS_REP, pl_yields, "preload.yields", FT_NUM, "", FR_COUNT, FN_OPT, "yields")      \
	X(A, FS_REP, prim, "primitives", FT_OBJ, "", FR_COST, FN_OPT,                          \
	  "the primitives workload's measurements")                                            \
	X(A, FS_REP, prim_nth, "primitives.nthreads_contended", FT_NUM, "", FR_META, FN_OPT,   \
	  "threads of the contended measurements")                                             \
	X(A, FS_REP, prim_ratio, "primitives.gettid_per_xadd", FT_NUM, "", FR_SHARE, FN_OPT,   \
	  "a syscall's cost in atomic adds")                                                   \
	X(A, FS_REP, prim_one, "primitives.*", FT_OBJ, "", FR_COST, FN_OPT, "one primitive")   \
	X(A, FS_REP, prim_status, "primitives.*.status", FT_STR, "", FR_META, FN_WITH,         \
	  "ok or unsupported")                                                                 \
	X(A, FS_REP, prim_reason, "primitives.*.reason", FT_STR, "", FR_META, FN_OPT,          \
	  "why it did not run")                                                                \
	X(A, FS_REP, prim_ns, "primitives.*.ns_per_op", FT_NUM, "ns/op", FR_COST, FN_OPT,      \
	  "ns per call")                                                                       \
	X(A, FS_REP, prim_tsc, "primitives.*.tsc_cycles_per_op", FT_NUM, "cycles/op", FR_COST, \
	  FN_OPT, "TSC cycles per call")

struct fld {
	const char *path; /* relative to its scope */
	unsigned char scope, role, need;
	unsigned type;
	const char *unit, *help;
};

#define SB_FLD_DECL(A, sc, id, ...) extern const char fld_##id[];
SB_FIELDS(SB_FLD_DECL, 0)
#undef SB_FLD_DECL

extern const struct fld fld_table[];
extern const size_t fld_count;

/* "results[].repetitions[]." and the like: what goes before a scope's
 * paths in the document. */
const char *fld_scope_prefix(enum fld_scope sc);
/* The row whose name is name (a fld_<id>), NULL for none. */
const struct fld *fld_of(const char *name);
/* A name's last key: "ops" for a thread's "threads[].ops", to read it
 * inside the object that holds it. */
const char *fld_key(const char *name);
/* name below parent: "tsc_cycles_per_op.mean" for a primitive's mean
 * (fld_s_prim_tsc_mean) inside one primitive (fld_s_prim_one), to read it
 * inside the object parent names; name itself when it is not below. */
const char *fld_rel(const char *name, const char *parent);
/* "a number or null": the types of a type mask, for messages and docs. */
void fld_type_text(unsigned type, char *buf, size_t len);
const char *fld_role_name(unsigned role);
const char *fld_need_text(unsigned need);

#endif
