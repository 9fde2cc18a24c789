# shellcheck shell=bash
# report.sh - the bench's tables: one run's (--table), and the
# harness/bare ratios of separate runs side by side (--spread).
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# The markdown table of a bench result: ratios with their 95% intervals.
table() { # table RESULT.json
	jq -r '
	def f(d): if . == null then "-" else (. * pow(10; d) | round / pow(10; d) | tostring) end;
	def ci: "[\(.ci95_lo | f(3)), \(.ci95_hi | f(3))]";
	def yn: if . == null then "" elif . then "yes" else "NO" end;
	# The rounds dropped (rounds.sh) and why: each empty window, arm and CPU time.
	def dropped: if (.dropped.rounds // 0) == 0 then "" else
		"; \(.dropped.rounds) round(s) dropped, \(.dropped.left_out) left out (\(.dropped.windows
		 | map(.empty[] | "\(.arm) \(.ops) ops in \(.cpu_s * 1000 | f(2)) ms") | join(", ")))" end;
	"| section | measure | value | 95% CI | target | met |",
	"|---|---|---|---|---|---|",
	(.results[] |
	 if .status != "ok" and .section != "suite" then
		"| \(.section) | \(.workload // .variant // .name // "\(.lock)+\(.placement // "?") (\(.arm))") | \(.status) | | | \(.reason) |"
	 elif .section == "overhead" then
		"| overhead, 1 thread | \(.workload) sampled / bare | \(.sampled_vs_bare.median | f(3)) | \(.sampled_vs_bare | ci) | >= 0.98 | \(.met | yn) |",
		"| overhead, 1 thread | \(.workload) every / bare | \(.every_vs_bare.median | f(3)) | \(.every_vs_bare | ci) | | |"
	 elif .section == "slice_trace" then
		"| grant-duration tracing | slice-test ops/s, slice_trace 1 / 0 | \(.traced_vs_untraced.median | f(3)) | \(.traced_vs_untraced | ci) | | |"
	 elif .section == "harness_vs_bare" then
		"| harness vs bare loop, per on-CPU s | \(.workload) (\(.ns_per_op.harness | f(2)) vs \(.ns_per_op.bare | f(2)) ns/op; wall ratio \(.harness_vs_bare_wall.gmean | f(3)); CPU share \(.cpu_share.harness | f(2)) vs \(.cpu_share.bare | f(2))\(dropped)) | \(.harness_vs_bare.gmean | f(3)) | \(.harness_vs_bare | ci) | 0.97..1.03 | \(.met | yn) |"
	 elif .section == "placement_cost" then
		"| placement cost, 1 thread, per on-CPU s | \(.lock)+\(.placement)\(if .arm == "dry" then "+dry" else "" end) / \(.lock)+\(.against) (\(.ns_per_op.arm | f(2)) vs \(.ns_per_op.against | f(2)) ns/op, \(.cost_ns_per_op | f(2)) ns\(dropped)) | \(.ratio.gmean | f(3)) | \(.ratio | ci) | | |"
	 elif .section == "floor" then
		"| floor | lock xadd / line round trip / gettid | \(.xadd_ns | f(1)) / \(.line_roundtrip_ns | f(1)) / \(.gettid_ns | f(1)) ns | | | |",
		(.locks | to_entries[] | "| floor | \(.key) acquire+release, x xadd (harness, bare) | \(.value.harness_per_xadd | f(2)), \(.value.bare_per_xadd | f(2)) | | | |")
	 elif .section == "parity" then
		"| parity with perf lock-pi, \(.threads) thread(s) | \(.variant): futex-pi cs_ns=\(.slicebench_cs_ns) (hold mean \(.slicebench_detail | map(.hold_mean_ns) | add / length / 1000 | f(1)) us), perf \(.perf_ns_per_op / 1000 | f(1)) us/op, usleep(1)=\(.usleep1.mean_ns / 1000 | f(1)) us at slack \(.usleep1.timer_slack_ns) ns | \(.slicebench_vs_perf.median | f(3)) | \(.slicebench_vs_perf | ci) | \(if .target.min then "0.9..1.1" else "explained" end) | \(.met | yn) |"
	 elif .section == "switch_cost" then
		"| sched_switch program, ns per switch (median [p10, p90] of \(.reps) paired reps) | loaded - unloaded / watched - unloaded (unloaded \(.unloaded.median_ns | f(0)) ns) | \(.loaded_minus_unloaded.median_ns | f(0)) / \(.watched_minus_unloaded.median_ns | f(0)) | [\(.loaded_minus_unloaded.p10_ns | f(0)), \(.loaded_minus_unloaded.p90_ns | f(0))] / [\(.watched_minus_unloaded.p10_ns | f(0)), \(.watched_minus_unloaded.p90_ns | f(0))] | | |"
	 elif .section == "probe" then
		"| victim probe vs cyclictest, CPU-hog load, 1 ms | p99 / max us (probe, cyclictest) | \(.probe_us.p99) / \(.probe_us.max), \(.cyclictest_us.p99) / \(.cyclictest_us.max) | | \(.target) | \(.met | yn) |"
	 elif .section == "drift" then
		"| calibration check, loop at twice its rate | repetition 0 hold / think / probe ratio (try \(.tries)) | \(.hold_ratio | f(3)) / \(.think_ratio | f(3)) / \(.probe_ratio | f(3)) | | \(.target) | \(.met | yn) |"
	 elif .section == "machine_load" then
		"| machine | CPU taken by other processes during the bench (share of \(.cpus) PUs) | \(.other_share | f(3)) | | | loadavg \(.loadavg | split(" ") | .[0:3] | join(" ")) |"
	 elif .section == "scale" then
		"| scale, futex on all PUs | \(.threads) threads: setup+teardown s, peak RSS MiB, JSON KiB (keep summary), write ms | \(.setup_teardown_s | f(3)), \(.max_rss_kib / 1024 | f(1)), \(.json_bytes / 1024 | f(1)) (\((.json_bytes_keep_summary // 0) / 1024 | f(1))), \(.write_s * 1000 | f(2)) | | \(if .target then "<= 1 s, <= 64 MiB" else "" end) | \(.met | yn) |"
	 elif .section == "scale_fit" then
		"| scale | JSON bytes per thread (linear fit, r2) | \(.bytes_per_thread | f(0)) (+\(.intercept_bytes | f(0))), r2 \(.r2 | f(4)) | | r2 >= 0.99 | \(.met | yn) |"
	 elif .status == "ok" or .status == "failed" then
		"| suite | \(.name) | \(.wall_s | f(2)) s | | <= \(.target.max_s) s | \(if .status == "failed" then "NO: \(.reason)" else (.met | yn) end) |"
	 else
		"| suite | \(.name) | \(.value // .status) | | | \(.reason) |"
	 end)' "$1"
}
# The harness/bare ratios of separate bench runs and their spread: the
# document (stdout) of `--spread`.  The target is on the spread: every
# run's ratio (geometric mean of its rounds) of every workload within
# 0.97..1.03, as an A/A comparison of two arms running the same loop.
spread_doc() { # spread_doc RESULT.json...
	jq -s --arg utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		--argjson files "$(printf '%s\n' "$@" | jq -R . | jq -sc .)" '
	  . as $docs
	  | [$docs[] | .meta.bench.machine // null | del(.alignment.loops?)] as $mach
	  | {schema: "slicebench/1", kind: "bench-spread",
	     meta: {utc: $utc, runs: $files, run_utc: [$docs[] | .meta.utc // null],
	            machine: ($docs[0].meta.bench.machine // null),
	            one_machine: ($mach | unique | length == 1),
	            kernel: [$docs[] | .meta.kernel.release // null] | unique,
	            loadavg: [$docs[] | (.results[] | select(.section == "machine_load") | .loadavg) // null],
	            other_share: [$docs[] | (.results[] | select(.section == "machine_load") | .other_share) // null]},
	     results: [$docs[0].results[] | select(.section == "harness_vs_bare") | .workload] | unique
	      | map(. as $w | [$docs[] | (.results[] | select(.section == "harness_vs_bare" and .workload == $w))
	                       // {status: "missing"}] as $r
	        | ($r | map(.harness_vs_bare.gmean // null)) as $g
	        | {section: "harness_vs_bare_spread", workload: $w,
	           runs: [$r[] | {status, reason, gmean: (.harness_vs_bare.gmean // null),
	                  ci95_lo: (.harness_vs_bare.ci95_lo // null), ci95_hi: (.harness_vs_bare.ci95_hi // null),
	                  rounds: (.rounds // null)}],
	           min: ($g | min), max: ($g | max),
	           spread: (if any($g[]; . == null) then null else ($g | max) - ($g | min) end),
	           target: {each_run_gmean_min: 0.97, each_run_gmean_max: 1.03},
	           met: all($g[]; . != null and . >= 0.97 and . <= 1.03)})}' "$@"
}
# The spread as markdown for docs/harness-cost.md: the machine named above the table,
# each run's ratio [95% CI] with the rounds it dropped, the verdict, and the
# load the runs shared the machine with below it.
spread_table() { # spread_table SPREAD.json
	jq -r 'def f: if . == null then "-" else (. * 1000 | round / 1000 | tostring) end;
	  def pct: if . == null then "-" else "\(. * 100 | round)%" end;
	  (.meta.runs | length) as $n | .meta.machine as $m
	  | "Machine: \($m.cpu_model // "unknown CPU") (family \($m.cpu_family // "-") model \($m.cpu_model_number // "-") stepping \($m.stepping // "-")), microcode \($m.microcode // "none: \($m.microcode_reason // "not recorded")"); \($m.compiler // "compiler not recorded"); kernel \(.meta.kernel | join(", ")); runs at \(.meta.run_utc | join(", "))\(if .meta.one_machine then "" else "; NOT ONE MACHINE: the runs name different CPUs, compilers or alignments" end).",
	    "",
	    "| workload | \([range($n) | "run \(. + 1)"] | join(" | ")) | spread | every run in 0.97..1.03 |",
	    "|---|\([range($n) | "---"] | join("|"))|---|---|",
	    (.results[] | "| \(.workload) | \([.runs[] | if .gmean == null then "\(.status): no ratio"
	       else "\(.gmean | f) [\(.ci95_lo | f), \(.ci95_hi | f)]\(if (.rounds.dropped // 0) > 0
	       then ", \(.rounds.dropped) dropped, \(.rounds.kept) of \(.rounds.planned) kept" else "" end)" end]
	       | join(" | ")) | \(.spread | f) | \(if .met then "yes" else "NO" end) |"),
	    "",
	    "CPU other processes took at each run (share of all PUs, /proc/stat): \(.meta.other_share | map(pct) | join(", ")); load average (1 5 15 min) at each run'"'"'s end: \(.meta.loadavg | map(if . == null then "-" else split(" ") | .[0:3] | join(" ") end) | join("; "))."' "$1"
}
