#!/usr/bin/env bash
# bench.sh - what the harness itself costs: instrumentation overhead, the
# harness against a bare loop and the hardware floor, parity with
# `perf bench futex lock-pi`, scale in threads, and the suites' wall times.
#   selfbench/bench.sh [--mode full|smoke] [--out-dir DIR] [--out FILE] [--runs N]
#   selfbench/bench.sh --table RESULT.json     (the table of an earlier run)
#   selfbench/bench.sh --spread RESULT.json... (harness/bare across runs)
# Writes DIR/<utc>-<host>.json ({"schema": "slicebench/1", "kind": "bench"})
# and prints the table.  --runs N (make bench BENCH_RUNS=N) runs the whole
# bench N separate times, one document each, then writes
# DIR/<utc>-<host>-spread.json ("kind": "bench-spread") and prints each
# run's harness/bare ratio and their spread.  `make bench` runs it; `make
# check` runs the smoke mode, which only keeps this script from rotting:
# its numbers mean nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
SB=$BUILD/slicebench
BIN=$BUILD/selfbench
mode=full outdir=results/bench out=""

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }

# The markdown table of a bench result: ratios with their 95% intervals.
table() { # table RESULT.json
	jq -r '
	def f(d): if . == null then "-" else (. * pow(10; d) | round / pow(10; d) | tostring) end;
	def ci: "[\(.ci95_lo | f(3)), \(.ci95_hi | f(3))]";
	def yn: if . == null then "" elif . then "yes" else "NO" end;
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
		"| harness vs bare loop, per on-CPU s | \(.workload) (\(.ns_per_op.harness | f(2)) vs \(.ns_per_op.bare | f(2)) ns/op; wall ratio \(.harness_vs_bare_wall.gmean | f(3)); CPU share \(.cpu_share.harness | f(2)) vs \(.cpu_share.bare | f(2))) | \(.harness_vs_bare.gmean | f(3)) | \(.harness_vs_bare | ci) | 0.97..1.03 | \(.met | yn) |"
	 elif .section == "placement_cost" then
		"| placement cost, 1 thread, per on-CPU s | \(.lock)+\(.placement)\(if .arm == "dry" then "+dry" else "" end) / \(.lock)+\(.against) (\(.ns_per_op.arm | f(2)) vs \(.ns_per_op.against | f(2)) ns/op, \(.cost_ns_per_op | f(2)) ns) | \(.ratio.gmean | f(3)) | \(.ratio | ci) | | |"
	 elif .section == "floor" then
		"| floor | lock xadd / line round trip / gettid | \(.xadd_ns | f(1)) / \(.line_roundtrip_ns | f(1)) / \(.gettid_ns | f(1)) ns | | | |",
		(.locks | to_entries[] | "| floor | \(.key) acquire+release, x xadd (harness, bare) | \(.value.harness_per_xadd | f(2)), \(.value.bare_per_xadd | f(2)) | | | |")
	 elif .section == "parity" then
		"| parity with perf lock-pi, \(.threads) thread(s) | \(.variant): futex-pi cs_ns=\(.slicebench_cs_ns) (hold mean \(.slicebench_detail | map(.hold_mean_ns) | add / length / 1000 | f(1)) us), perf \(.perf_ns_per_op / 1000 | f(1)) us/op, usleep(1)=\(.usleep1.mean_ns / 1000 | f(1)) us at slack \(.usleep1.timer_slack_ns) ns | \(.slicebench_vs_perf.median | f(3)) | \(.slicebench_vs_perf | ci) | \(if .target.min then "0.9..1.1" else "explained" end) | \(.met | yn) |"
	 elif .section == "switch_cost" then
		"| sched_switch program, ns per switch (median [p10, p90] of \(.reps) paired reps) | loaded - unloaded / watched - unloaded (unloaded \(.unloaded.median_ns | f(0)) ns) | \(.loaded_minus_unloaded.median_ns | f(0)) / \(.watched_minus_unloaded.median_ns | f(0)) | [\(.loaded_minus_unloaded.p10_ns | f(0)), \(.loaded_minus_unloaded.p90_ns | f(0))] / [\(.watched_minus_unloaded.p10_ns | f(0)), \(.watched_minus_unloaded.p90_ns | f(0))] | | |"
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
	  | {schema: "slicebench/1", kind: "bench-spread",
	     meta: {utc: $utc, runs: $files, machine: ($docs[0].meta.bench.machine // null),
	            loadavg: [$docs[] | (.results[] | select(.section == "machine_load") | .loadavg) // null],
	            other_share: [$docs[] | (.results[] | select(.section == "machine_load") | .other_share) // null]},
	     results: [$docs[0].results[] | select(.section == "harness_vs_bare") | .workload] | unique
	      | map(. as $w | [$docs[] | (.results[] | select(.section == "harness_vs_bare" and .workload == $w))
	                       // {status: "missing"}] as $r
	        | ($r | map(.harness_vs_bare.gmean // null)) as $g
	        | {section: "harness_vs_bare_spread", workload: $w,
	           runs: [$r[] | {status, gmean: (.harness_vs_bare.gmean // null),
	                  ci95_lo: (.harness_vs_bare.ci95_lo // null), ci95_hi: (.harness_vs_bare.ci95_hi // null)}],
	           min: ($g | min), max: ($g | max),
	           spread: (if any($g[]; . == null) then null else ($g | max) - ($g | min) end),
	           target: {each_run_gmean_min: 0.97, each_run_gmean_max: 1.03},
	           met: all($g[]; . != null and . >= 0.97 and . <= 1.03)})}' "$@"
}
spread_table() { # spread_table SPREAD.json
	jq -r 'def f: if . == null then "-" else (. * 1000 | round / 1000 | tostring) end;
	  (.meta.runs | length) as $n
	  | "| workload | \([range($n) | "run \(. + 1)"] | join(" | ")) | spread | every run in 0.97..1.03 |",
	    "|---|\([range($n) | "---"] | join("|"))|---|---|",
	    (.results[] | "| \(.workload) | \([.runs[] | "\(.gmean | f) [\(.ci95_lo | f), \(.ci95_hi | f)]"] | join(" | ")) | \(.spread | f) | \(if .met then "yes" else "NO" end) |"),
	    "load average (1 5 15 min) at each run'"'"'s end: \(.meta.loadavg | map(split(" ") | .[0:3] | join(" ")) | join("; "))"' "$1"
}
runs=1
while [ $# -gt 0 ]; do
	case "$1" in
	--mode) mode=${2:-}; shift 2 ;;
	--out-dir) outdir=${2:-}; shift 2 ;;
	--out) out=${2:-}; shift 2 ;;
	--runs) runs=${2:-}; shift 2 ;;
	--table) table "${2:?--table needs a file}"; exit 0 ;;
	--spread)
		shift
		[ $# -gt 0 ] || { echo "bench.sh: --spread needs result files" >&2; exit 2; }
		W=$(mktemp)
		spread_doc "$@" >"$W" && spread_table "$W"
		rm -f "$W"
		exit 0
		;;
	-h | --help) usage; exit 0 ;;
	*) echo "bench.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
case "$mode" in
full)
	# 7 alternating pairs: the t interval on 6 degrees of freedom is
	# 2.45 sigma/sqrt(7), tight enough to resolve 2% on this noisy VM.
	pairs=7 dur=1 warm=0.2 perf_s=1 sb_s=1
	parity=(shipped matched-1 matched slack1 nohalt)
	ovh_wl=(spin-tas futex adaptive slice-spin)
	hvb_wl=(spin-tas futex adaptive)
	# Sections 2 and 2b: 15 rotating rounds of 0.25 s windows.
	pr_rounds=15 pr_dur=0.25 pr_warm=0.05
	pc_locks=(tas adaptive mcs) placements=(cs pre rearm)
	scale_n=(1 2 8 32 128 512)
	;;
smoke)
	pairs=2 dur=0.05 warm=0.02 perf_s=1 sb_s=0.3
	parity=(matched)
	ovh_wl=(spin-tas slice-spin)
	hvb_wl=(spin-tas)
	pr_rounds=2 pr_dur=0.05 pr_warm=0.02
	pc_locks=(tas) placements=(pre)
	scale_n=(1 2 8)
	;;
*) echo "bench.sh: --mode must be full or smoke" >&2; exit 2 ;;
esac
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench.sh: --runs must be a positive integer, not '$runs'" >&2; exit 2; }
# N separate runs: each a bench of its own (its own processes, its own
# document), one after the other, then their spread.
if [ "$runs" -gt 1 ]; then
	[ -z "$out" ] || { echo "bench.sh: --out names one document; with --runs use --out-dir" >&2; exit 2; }
	stem=$outdir/$(date -u +%Y%m%dT%H%M%SZ)-$(uname -n)
	files=()
	for ((r = 1; r <= runs; r++)); do
		printf 'bench: run %d of %d\n' "$r" "$runs" >&2
		"$0" --mode "$mode" --out "$stem-run$r.json" --runs 1
		files+=("$stem-run$r.json")
	done
	spread_doc "${files[@]}" >"$stem-spread.json.tmp"
	mv "$stem-spread.json.tmp" "$stem-spread.json"
	spread_table "$stem-spread.json"
	echo "bench: $stem-spread.json" >&2
	exit 0
fi
for b in "$SB" "$BIN/bare" "$BIN/sleepcost" "$BIN/switchcost" "$BIN/ratio" "$BIN/writecost"; do
	[ -x "$b" ] || { echo "bench.sh: $b missing: run 'make bench'" >&2; exit 2; }
done

# The machine is shared: how much CPU others took while we ran explains
# much of the noise (a busy critical section loses its CPU, a sleep does not).
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { print ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat; }
own_s() { # own_s TIMES_OUTPUT: CPU seconds of our children (`times` line 2)
	awk 'NR == 2 { split($1, u, /[ms]/); split($2, y, /[ms]/); print u[1] * 60 + u[2] + y[1] * 60 + y[2] }' "$1"
}
bench_t0=$(date +%s.%N) busy0=$(cpu_s)

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
RES=$W/results.jsonl # one result object per line, assembled at the end
: >"$RES"
add() { jq -c . >>"$RES"; }
note() { [ "$mode" = smoke ] || printf 'bench: %s\n' "$*" >&2; }
now() { date +%s.%N; }

# One `slicebench run` of a single-run config; prints the result object.
sbrun() { # sbrun RUN_OBJECT_JSON
	jq -n --argjson r "$1" '{name: "bench", runs: [$r]}' >"$W/c.json"
	rm -f "$W/o.json"
	"$SB" run -c "$W/c.json" -o "$W/o.json" -q
	jq -c '.results[0]' "$W/o.json"
}
ops() { jq '.summary.ops_per_sec.median // 0'; }
ratio() { # ratio A_JSON_ARRAY B_JSON_ARRAY -> {n, median, gmean, ci95_lo, ci95_hi, ...}
	# A zero (a window without one operation) leaves the ratio null and
	# the target unmet, rather than ending the bench.
	jq -n --argjson a "$1" --argjson b "$2" '{a: $a, b: $b}' | "$BIN/ratio" || echo null
}

# --- 1. Instrumentation overhead: sampled / every against bare -------------
# 1 thread: uncontended, the shortest operation, where per-op timing code
# weighs most.  The harness's default cs_ns and think_ns (100/200 ns), so
# this is the default run with and without its instrumentation.
base=$(jq -nc --argjson d "$dur" --argjson w "$warm" \
	'{threads: 1, repetitions: 1, duration_s: $d, warmup_s: $w}')
for wl in "${ovh_wl[@]}"; do
	note "overhead: $wl"
	declare -A v=([bare]="[]" [sampled]="[]" [every]="[]")
	status=ok reason=null
	for ((i = 0; i < pairs; i++)); do
		# ABAB: the order flips every round so drift hits both sides.
		if ((i % 2)); then order=(every sampled bare); else order=(bare sampled every); fi
		for k in "${order[@]}"; do
			case $k in
			bare) extra='{loop: "bare", events: []}' ;;
			sampled) extra='{loop: "sampled"}' ;;
			every) extra='{loop: "every"}' ;;
			esac
			r=$(sbrun "$(jq -nc --argjson b "$base" --arg w "$wl" "\$b + {workload: \$w} + $extra")")
			st=$(jq -r .status <<<"$r")
			if [ "$st" != ok ]; then
				status=$st reason=$(jq -c .reason <<<"$r")
				break 2
			fi
			v[$k]=$(jq -c --argjson x "$(ops <<<"$r")" '. + [$x]' <<<"${v[$k]}")
		done
	done
	if [ "$status" = ok ]; then
		rs=$(ratio "${v[sampled]}" "${v[bare]}")
		re=$(ratio "${v[every]}" "${v[bare]}")
		jq -n --arg w "$wl" --argjson b "${v[bare]}" --argjson s "${v[sampled]}" \
			--argjson e "${v[every]}" --argjson rs "$rs" --argjson re "$re" --argjson p "$base" \
			'{section: "overhead", workload: $w, status: "ok", params: $p, threads: 1,
			  ops_per_sec: {bare: $b, sampled: $s, every: $e},
			  sampled_vs_bare: $rs, every_vs_bare: $re,
			  target: {ratio: "sampled_vs_bare", min: 0.98},
			  met: ($rs.median >= 0.98)}' | add
	else
		jq -n --arg w "$wl" --arg s "$status" --argjson why "$reason" \
			'{section: "overhead", workload: $w, status: $s, reason: $why}' | add
	fi
	unset v
done

# --- Paired rounds: the method of sections 2 and 2b ------------------------
# The machine is shared, and load comes in bursts longer than a window.
# So the arms of one comparison run in rounds of short windows, one window
# per arm and round, the order rotating each round (every arm takes every
# position equally often), and each ratio is taken within a round: a burst
# that hits a round hits its arms alike, or shows as that round's outlier.
# Each window also reports ops per on-CPU second of the lock thread (its
# own CPU clock): the loop's speed while it ran, which does not move when
# another process takes the CPU from it.  That is the ratio the targets
# are checked on; the wall ratio stands beside it, with each arm's CPU share
# (a harness that took CPU from its own lock thread would show there).
# One harness window: {wall, cpu, share} or {status, reason}.
sb_window() { # sb_window RUN_OBJECT_JSON
	sbrun "$1" | jq -c 'if .status != "ok" then {status, reason} else .repetitions[0] |
		{wall: .ops_per_sec, cpu: (if .threads[0].cpu_ns > 0 then .ops / (.threads[0].cpu_ns / 1e9)
		 else 0 end), share: .threads[0].cpu_share} end'
}
bare_window() { # bare_window WORKLOAD
	"$BIN/bare" "$1" "$pr_dur" "$pr_warm" "$cpu0" |
		jq -c '{wall: .ops_per_sec, cpu: .ops_per_cpu_s, share: (.cpu_s / .wall_s)}'
}
# rounds N ARM... : each ARM is "bare:WORKLOAD" or a run object.  Prints one
# JSON array per arm ([window, ...], round order), or the first failure.
rounds() {
	local n=$1 i j k arm w
	shift
	local -a arms=("$@") series=()
	k=${#arms[@]}
	for ((j = 0; j < k; j++)); do series[j]="[]"; done
	for ((i = 0; i < n; i++)); do
		for ((j = 0; j < k; j++)); do
			arm=${arms[(i + j) % k]}
			if [[ $arm == bare:* ]]; then w=$(bare_window "${arm#bare:}"); else w=$(sb_window "$arm"); fi
			if [ "$(jq -r '.status // "ok"' <<<"$w")" != ok ]; then
				echo "$w"
				return 0
			fi
			series[(i + j) % k]=$(jq -c --argjson w "$w" '. + [$w]' <<<"${series[(i + j) % k]}")
		done
	done
	printf '%s\n' "${series[@]}"
}
# pair_ratio A_SERIES B_SERIES FIELD: ratio.c over the rounds' A/B of FIELD.
pair_ratio() {
	ratio "$(jq -c --arg f "$3" 'map(.[$f])' <<<"$1")" "$(jq -c --arg f "$3" 'map(.[$f])' <<<"$2")"
}
# --- 1b. The grant-duration tracing: slice_trace 1 against 0 -------------
# The slice_test shape (one requester, a 2 us on / 50 us off noise thread on
# its PU), where grants are densest per second.  Only a kernel with the
# extension and tracefs can trace: elsewhere the reason is recorded.
st=$(jq -nc --argjson d "$dur" --argjson w "$warm" \
	'{workload: "slice-test", threads: 1, pin: "cpus:0", cs_ns: 2000, think_ns: 0, noise: 1,
	  noise_busy_ns: 2000, noise_sleep_ns: 50000, repetitions: 1, duration_s: $d,
	  warmup_s: $w, events: []}')
note "slice_trace cost"
declare -A v=([0]="[]" [1]="[]")
status=ok reason=null
for ((i = 0; i < pairs; i++)); do
	for k in $( ((i % 2)) && echo "1 0" || echo "0 1"); do
		r=$(sbrun "$(jq -nc --argjson b "$st" --argjson k "$k" '$b + {slice_trace: $k}')")
		ext=$(jq -c '.summary.slice.extension_ns // {}' <<<"$r")
		if [ "$(jq -r .status <<<"$r")" != ok ]; then
			status=$(jq -r .status <<<"$r") reason=$(jq -c .reason <<<"$r")
			break 2
		elif [ "$k" = 1 ] && [ "$(jq -r .status <<<"$ext")" != ok ]; then
			status=unsupported reason=$(jq -c .reason <<<"$ext")
			break 2
		fi
		v[$k]=$(jq -c --argjson x "$(ops <<<"$r")" '. + [$x]' <<<"${v[$k]}")
	done
done
if [ "$status" = ok ]; then
	jq -n --argjson on "${v[1]}" --argjson off "${v[0]}" --argjson r "$(ratio "${v[1]}" "${v[0]}")" \
		--argjson p "$st" '{section: "slice_trace", status: "ok", params: $p,
		  ops_per_sec: {traced: $on, untraced: $off}, traced_vs_untraced: $r}' | add
else
	jq -n --arg s "$status" --argjson why "$reason" \
		'{section: "slice_trace", workload: "slice-test", status: $s, reason: $why}' | add
fi
unset v

# --- 2. Harness against a bare loop, and the hardware floor ---------------
# Same work: 1 thread on the first PU of "compact", cs_ns 0, think_ns 0, one
# shared line written per critical section; the harness as users run it
# (sampled loop, default events).  The bare program runs the same loop
# function, compiled from the same header on the same 64-byte boundary
# (selfbench/bare.c): an A/A comparison of the harness around that loop,
# whose target is a ratio within 0.97..1.03.
cpu0=$("$SB" info --json | jq '.topology.allowed_cpus | if type == "array" then .[0]
	else (tostring | capture("^(?<n>[0-9]+)").n | tonumber) end')
# The run object is selfbench/configs/hvb.json, which loopsame.sh runs
# under callgrind too: the harness loop it names is the one bare.c runs.
hb=$(jq -c --argjson d "$pr_dur" --argjson w "$pr_warm" '. + {duration_s: $d, warmup_s: $w}' \
	selfbench/configs/hvb.json)
harness_vs_bare() { # harness_vs_bare WORKLOAD: one result line
	local wl=$1 out h b
	out=$(rounds "$pr_rounds" "$(jq -c --arg w "$wl" '. + {workload: $w}' <<<"$hb")" "bare:$wl")
	if [ "$(wc -l <<<"$out")" -lt 2 ]; then
		jq -c --arg w "$wl" --argjson p "$hb" '{section: "harness_vs_bare", workload: $w,
			status, reason, params: $p}' <<<"$out"
		return 0
	fi
	h=$(sed -n 1p <<<"$out") b=$(sed -n 2p <<<"$out")
	jq -n --arg w "$wl" --argjson h "$h" --argjson b "$b" --argjson p "$hb" \
		--argjson rc "$(pair_ratio "$h" "$b" cpu)" --argjson rw "$(pair_ratio "$h" "$b" wall)" \
		'def med: sort | if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		 {section: "harness_vs_bare", workload: $w, status: "ok", params: $p, threads: 1,
		  method: "rotating rounds of one window per arm; ratio per round; t interval on log ratios",
		  windows: {harness: $h, bare: $b},
		  ops_per_sec: {harness: ($h | map(.wall)), bare: ($b | map(.wall))},
		  ops_per_cpu_s: {harness: ($h | map(.cpu)), bare: ($b | map(.cpu))},
		  cpu_share: {harness: ($h | map(.share) | med), bare: ($b | map(.share) | med)},
		  harness_vs_bare: $rc, harness_vs_bare_wall: $rw,
		  ns_per_op: {harness: (1e9 / ($h | map(.cpu) | med)), bare: (1e9 / ($b | map(.cpu) | med))},
		  target: {ratio: "harness_vs_bare.gmean (per on-CPU second)", min: 0.97, max: 1.03},
		  met: ($rc.gmean >= 0.97 and $rc.gmean <= 1.03)}'
}
floor_locks="{}"
for wl in "${hvb_wl[@]}"; do
	note "harness vs bare: $wl"
	harness_vs_bare "$wl" | add
	floor_locks=$(jq -c --arg w "$wl" --slurpfile l <(tail -n1 "$RES") \
		'if $l[0].status == "ok" then . + {($w): $l[0].ns_per_op} else . end' <<<"$floor_locks")
done

# --- 2b. What each placement's stores cost, per lock ----------------------
# Each placement (cs, pre, rearm) as its dry control (the requests go to an
# area the kernel never reads) against the same lock with no request, in
# the same rounds as section 2: 1 thread, nothing to wait for, so this is
# the cost of the request and clear stores and their checks in the loop,
# nothing else.  It does not measure a grant, rseq_slice_yield(), waiters
# carrying the request (pre) or re-arming per failed attempt (rearm): those
# need contention and a kernel that grants.  The real placement against its
# dry control runs where the kernel has the extension; elsewhere its row
# says why not, with the harness's own reason.
placement_cost() { # placement_cost LOCK: result lines
	local lk=$1 pl out base real st i j
	local -a series
	local -a arms=("$(jq -c --arg l "$lk" '. + {lock: $l, policy: "none"}' <<<"$hb")")
	local -a names=(none)
	for pl in "${placements[@]}"; do
		arms+=("$(jq -c --arg l "$lk" --arg p "$pl" '. + {lock: $l, policy: $p, dry: true}' <<<"$hb")")
		names+=("$pl+dry")
		real=$(jq -c --arg l "$lk" --arg p "$pl" '. + {lock: $l, policy: $p, dry: false}' <<<"$hb")
		# One short probe: does this kernel run the real placement?
		st=$(sb_window "$(jq -c '. + {duration_s: 0.02, warmup_s: 0}' <<<"$real")")
		if [ "$(jq -r '.status // "ok"' <<<"$st")" = ok ]; then
			arms+=("$real")
			names+=("$pl")
		else
			jq -c --arg l "$lk" --arg p "$pl" '{section: "placement_cost", lock: $l,
				placement: $p, arm: "real", status, reason}' <<<"$st"
		fi
	done
	out=$(rounds "$pr_rounds" "${arms[@]}")
	if [ "$(wc -l <<<"$out")" -lt "${#arms[@]}" ]; then
		jq -c --arg l "$lk" '{section: "placement_cost", lock: $l, arm: "dry", status, reason}' <<<"$out"
		return 0
	fi
	mapfile -t series <<<"$out"
	base=${series[0]}
	for ((i = 1; i < ${#arms[@]}; i++)); do
		local nm=${names[i]} vs=$base vsname=none
		# A real placement is compared with its own dry control.
		if [[ $nm != *+dry ]]; then
			for ((j = 1; j < i; j++)); do
				[ "${names[j]}" = "$nm+dry" ] && vs=${series[j]} vsname=${names[j]}
			done
		fi
		jq -n --arg l "$lk" --arg a "$nm" --arg vsn "$vsname" --argjson s "${series[i]}" \
			--argjson v "$vs" --argjson p "$hb" \
			--argjson rc "$(pair_ratio "${series[i]}" "$vs" cpu)" \
			--argjson rw "$(pair_ratio "${series[i]}" "$vs" wall)" \
			'def med: sort | if length % 2 == 1 then .[length / 2 | floor]
				else (.[length / 2 - 1] + .[length / 2]) / 2 end;
			 ($s | map(.cpu) | med) as $x | ($v | map(.cpu) | med) as $y
			 | {section: "placement_cost", lock: $l, placement: ($a | sub("\\+dry$"; "")),
			    arm: (if ($a | endswith("+dry")) then "dry" else "real" end), against: $vsn,
			    status: "ok", params: $p, threads: 1,
			    ops_per_cpu_s: {arm: ($s | map(.cpu)), against: ($v | map(.cpu))},
			    ratio: $rc, ratio_wall: $rw,
			    ns_per_op: {arm: (1e9 / $x), against: (1e9 / $y)},
			    cost_ns_per_op: (1e9 / $x - 1e9 / $y)}'
	done
}
for lk in "${pc_locks[@]}"; do
	note "placement cost: $lk"
	placement_cost "$lk" | add
done

note "floor: primitives"
iters=$([ "$mode" = smoke ] && echo 1000 || echo 200000)
p=$(sbrun "$(jq -nc --argjson n "$iters" '{workload: "primitives", threads: "1x",
	repetitions: 3, duration_s: 0.1, warmup_s: 0, iterations: $n}')")
jq -n --argjson p "$p" --argjson l "$floor_locks" \
	'$p.summary.primitives as $s
	 | ($s.xadd.ns_per_op.median) as $x
	 | ($s.line_roundtrip.ns_per_op.median // null) as $rt
	 | {section: "floor", status: "ok",
	    xadd_ns: $x, line_roundtrip_ns: $rt, gettid_ns: $s.gettid.ns_per_op.median,
	    line_roundtrip_status: ($s.line_roundtrip.status // "ok"),
	    locks: ($l | map_values(. + {harness_per_xadd: (.harness / $x), bare_per_xadd: (.bare / $x)}))}' | add

# --- 3. Parity with perf bench futex lock-pi ------------------------------
# perf 6.1's worker: FUTEX_LOCK_PI syscall, usleep(1), FUTEX_UNLOCK_PI
# syscall, ops++.  usleep(1) under SCHED_OTHER's default 50 us timer slack
# sleeps ~60 us, which is what perf really measures.  sleepcost times that
# sleep here; futex-pi with cs_ns = that time is the matched run, and the
# same again with a 1 ns slack (inherited by perf through exec) shows the
# slack is the cause.  perf 6.1 pins worker i to CPU i (checked in
# /proc/PID/task/*/status): that is "compact".
nthr=$("$SB" info --json | jq '.topology.pus')
# `--help` exits 129: keep its text, not its status.
phelp=$(perf bench futex lock-pi --help 2>&1 || true)
if [[ $phelp == *--runtime* ]]; then
	popts=$(grep -o -- '--[a-z-]*' <<<"$phelp" | sort -u | jq -R . | jq -sc .)
	for variant in "${parity[@]}"; do
		note "parity: $variant"
		n=$nthr slack=-1
		case $variant in
		matched-1) n=1 ;;
		slack1) slack=1 ;;
		esac
		sl=$("$BIN/sleepcost" --slack "$slack" --iters "$([ "$mode" = smoke ] && echo 200 || echo 5000)")
		cs=0
		[ "$variant" = shipped ] || cs=$(jq '.mean_ns | round' <<<"$sl")
		pr=(perf bench futex lock-pi -t "$n" -r "$perf_s")
		[ "$slack" -lt 0 ] || pr=("$BIN/sleepcost" --slack "$slack" --exec "${pr[@]}")
		pf="[]" sbv="[]" det="[]" idlers=()
		# nohalt: one SCHED_IDLE spinner per PU keeps the PUs from halting
		# (any woken thread preempts it at once).  In a VM an idle vCPU
		# halts, and waking it again is the hypervisor's business: this
		# variant shows what of the 2-thread gap that costs.
		if [ "$variant" = nohalt ]; then
			for c in $(seq 0 $((nthr - 1))); do
				taskset -c "$(( $(cut -d- -f1 <<<"$cpu0") + c ))" chrt -i 0 \
					sh -c 'while :; do :; done' &
				idlers+=($!)
			done
		fi
		for ((i = 0; i < pairs; i++)); do
			for k in $( ((i % 2)) && echo "sb perf" || echo "perf sb"); do
				if [ "$k" = perf ]; then
					x=$("${pr[@]}" | awk '/\[thread/ { gsub(/\[|\]/, ""); s += $(NF-1) } END { print s + 0 }')
					pf=$(jq -c --argjson x "$x" '. + [$x]' <<<"$pf")
				else
					r=$(sbrun "$(jq -nc --argjson n "$n" --argjson cs "$cs" --argjson d "$sb_s" \
						'{workload: "futex-pi", threads: $n, pin: "compact", cs_ns: $cs, think_ns: 0,
						  repetitions: 1, duration_s: $d, warmup_s: 0.1}')")
					sbv=$(jq -c --argjson x "$(ops <<<"$r")" '. + [$x]' <<<"$sbv")
					# What the busy critical section really took, and why.
					det=$(jq -c --argjson r "$r" '. + [$r.summary | {hold_mean_ns: .hold_ns.mean,
						hold_p50_ns: .hold_ns.p50, preemptions_per_1000_ops: .counters.preemptions_per_1000_ops,
						context_switches_per_op: .counters.context_switches_per_op}]' <<<"$det")
				fi
			done
		done
		[ ${#idlers[@]} -eq 0 ] || { kill "${idlers[@]}"; wait "${idlers[@]}" 2>/dev/null || true; }
		r=$(ratio "$sbv" "$pf")
		jq -n --arg v "$variant" --argjson n "$n" --argjson cs "$cs" --argjson sl "$sl" \
			--argjson pf "$pf" --argjson sb "$sbv" --argjson r "$r" --argjson o "$popts" \
			--arg cmd "${pr[*]}" --argjson d "$perf_s" --argjson det "$det" \
			'{section: "parity", variant: $v, status: "ok", threads: $n, runtime_s: $d,
			  pin: "compact (perf 6.1 pins worker i to CPU i)", perf_command: $cmd,
			  perf_options: $o, usleep1: $sl, slicebench_cs_ns: $cs,
			  ops_per_sec: {perf: $pf, slicebench: $sb}, slicebench_detail: $det,
			  perf_ns_per_op: (1e9 / ($pf | sort | .[length / 2 | floor])),
			  slicebench_vs_perf: $r,
			  target: (if $v == "shipped" then {explained_by: "usleep1"} else {min: 0.9, max: 1.1} end),
			  met: (if $v == "shipped" then null else ($r.median >= 0.9 and $r.median <= 1.1) end)}' | add
	done
else
	jq -n '{section: "parity", variant: "shipped", status: "unsupported",
		reason: "perf bench futex lock-pi not available (Debian linux-perf)"}' | add
fi

# --- 3b. The flexguard lock's sched_switch program, per switch -----------
# Two threads on one PU hand a futex back and forth, one switch per
# handoff, with the program unloaded, loaded, and loaded with both threads
# watched and critical (switchcost.c).  Needs what the program needs (root,
# or CAP_BPF + CAP_PERFMON); elsewhere the row is "unsupported" with why.
note "switch cost of the sched_switch program"
sc_args=()
[ "$mode" = smoke ] && sc_args=(--rounds 200 --reps 2)
sc=$("$BIN/switchcost" "${sc_args[@]}") || true
jq -c '{section: "switch_cost"} + .' <<<"$sc" | add

# --- 4. Scale of the harness in threads, on all PUs -----------------------
# futex: waiters sleep, so leaving the loop after STOP costs one wake per
# thread, not a spinner's wait for a preempted holder.  Wall from outside
# minus the planned warm-up + window = setup + teardown (exec, topology,
# calibration, fork, threads, join, summary, write).
sd=0.1
for n in "${scale_n[@]}"; do
	note "scale: $n threads"
	jq -n --argjson n "$n" --argjson d "$sd" '{name: "bench-scale", runs: [{workload: "futex",
		threads: $n, pin: "compact", repetitions: 1, duration_s: $d, warmup_s: 0}]}' >"$W/s.json"
	rm -f "$W/s-out.json"
	t0=$(now)
	/usr/bin/time -f '%e %M' -o "$W/time.txt" "$SB" run -c "$W/s.json" -o "$W/s-out.json" -q
	t1=$(now)
	read -r _ rss <"$W/time.txt"
	wc=$("$BIN/writecost" "$W/s-out.json" "$W" 5)
	# The same point with keep: "summary": what the size is without the
	# per-thread arrays and histogram buckets.
	jq '.runs[0].keep = "summary"' "$W/s.json" >"$W/s-sum.json"
	rm -f "$W/s-sum-out.json"
	"$SB" run -c "$W/s-sum.json" -o "$W/s-sum-out.json" -q
	jq -n --argjson n "$n" --argjson d "$sd" --argjson wall "$(jq -n "$t1 - $t0")" \
		--argjson rss "$rss" --argjson bytes "$(stat -c %s "$W/s-out.json")" --argjson wc "$wc" \
		--argjson sbytes "$(stat -c %s "$W/s-sum-out.json")" \
		--argjson st "$(jq -c '.results[0] | {status, reason}' "$W/s-out.json")" \
		'{section: "scale", workload: "futex", threads: $n, status: $st.status, reason: $st.reason,
		  planned_s: $d, wall_s: $wall, setup_teardown_s: ($wall - $d), max_rss_kib: $rss,
		  json_bytes: $bytes, json_bytes_keep_summary: $sbytes, write_s: $wc.median_s,
		  target: (if $n == 512 then {max_rss_kib: 65536, max_setup_teardown_s: 1} else null end),
		  met: (if $n == 512 then ($rss <= 65536 and ($wall - $d) <= 1) else null end)}' | add
done
# JSON size against threads: least squares, and how far from a line it is.
# Failed points (no result document to size) are left out of the fit.
jq -s '[.[] | select(.section == "scale" and .status == "ok")] as $s
	| ($s | length) as $k | ($s | map(.threads) | add / $k) as $mx
	| ($s | map(.json_bytes) | add / $k) as $my
	| ($s | map((.threads - $mx) * (.json_bytes - $my)) | add) as $sxy
	| ($s | map((.threads - $mx) * (.threads - $mx)) | add) as $sxx
	| ($s | map((.json_bytes - $my) * (.json_bytes - $my)) | add) as $syy
	| {section: "scale_fit", status: "ok", threads: ($s | map(.threads)),
	   bytes_per_thread: ($sxy / $sxx), intercept_bytes: ($my - $sxy / $sxx * $mx),
	   r2: (if $syy > 0 then ($sxy * $sxy / ($sxx * $syy)) else 1 end),
	   target: {min_r2: 0.99}, met: ((if $syy > 0 then ($sxy * $sxy / ($sxx * $syy)) else 1 end) >= 0.99)}' \
	"$RES" | add

# --- 5. Suite costs -------------------------------------------------------
suite_time() { # suite_time NAME TARGET_S COMMAND...
	local name=$1 target=$2 t0 t1 rc=0
	shift 2
	note "suite: $name"
	t0=$(now)
	"$@" >"$W/suite.log" 2>&1 || rc=$?
	t1=$(now)
	jq -n --arg n "$name" --argjson t "$target" --argjson w "$(jq -n "$t1 - $t0")" --argjson rc "$rc" \
		--arg cmd "$*" --arg log "$(tail -n 3 "$W/suite.log")" \
		'{section: "suite", name: $n, command: $cmd, status: (if $rc == 0 then "ok" else "failed" end),
		  reason: (if $rc == 0 then null else "exit \($rc): \($log)" end),
		  wall_s: $w, target: {max_s: $t}, met: ($rc == 0 and $w <= $t)}' | add
}
skip() { # skip NAME REASON
	jq -n --arg n "$1" --arg r "$2" '{section: "suite", name: $n, status: "skipped", reason: $r}' | add
}
if [ "$mode" = smoke ]; then
	skip "configs/ci.json" "smoke mode"
	skip "configs/quick.json" "smoke mode"
	skip "vm boot to first result" "smoke mode"
else
	suite_time "configs/ci.json" 15 "$SB" run -c configs/ci.json -o "$W/ci.json" -q
	suite_time "configs/quick.json" 60 "$SB" run -c configs/quick.json -o "$W/quick.json" -q
	if [ ! -x scripts/vm.sh ]; then
		skip "vm boot to first result" "scripts/vm.sh missing"
	elif ! kp=$(kernel/build.sh --print-path 2>/dev/null); then
		skip "vm boot to first result" "no cached guest kernel (kernel/build.sh not run)"
	else
		# One 0.05 s run: the wall is boot + the first result + its transfer.
		# Without the guest's timing-floor calibration (~8 s of probes run
		# before the suite), which is not the first result.
		suite_time "vm boot to first result" 15 scripts/vm.sh --config selfbench/configs/first.json \
			--out "$W/vm.json" --kernel "$kp" --no-selftest --no-calibration --timeout 120
	fi
fi
if kernel/build.sh --print-path >/dev/null 2>&1; then
	suite_time "cached kernel build (kernel/build.sh --print-path)" 2 kernel/build.sh --print-path
else
	skip "cached kernel build (kernel/build.sh --print-path)" "no cached guest kernel"
fi
# The cold build is not repeated (15 min); its figure is kernel/README.md's.
# shellcheck disable=SC2016 # the backquotes are literal markdown
cold=$(grep -m1 -F 'cold `build.sh`' kernel/README.md | awk -F'|' '{ gsub(/^ +| +$/, "", $3); print $3 }' || true)
jq -n --arg c "${cold:-not recorded}" '{section: "suite", name: "cold kernel build",
	status: "reported", reason: "from kernel/README.md, not rebuilt", value: $c}' | add

# --- The document and the table -------------------------------------------
[ -n "$out" ] || out="$outdir/$(date -u +%Y%m%dT%H%M%SZ)-$(uname -n).json"
mkdir -p "$(dirname "$out")"
"$SB" info --json >"$W/meta.json"
# What can make two machines disagree about the same loops: the CPU and its
# microcode (a VM's /proc/cpuinfo may have no microcode line), the
# compiler that built both programs (the .comment GCC and clang leave in
# the binary), and where the loop functions sit (selfbench/loopsame.sh).
cpuinfo() { awk -F': *' -v k="$1" '$1 ~ "^" k "[ \t]*$" { print $2; exit }' /proc/cpuinfo; }
machine=$(jq -n --arg model "$(cpuinfo 'model name')" --arg fam "$(cpuinfo 'cpu family')" \
	--arg mod "$(cpuinfo model)" --arg step "$(cpuinfo stepping)" --arg mc "$(cpuinfo microcode)" \
	--arg cc "$(readelf -p .comment "$SB" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] *//p' | sort -u | paste -sd';' -)" \
	--argjson loops "$(BUILD=$BUILD selfbench/loopsame.sh "${hvb_wl[@]}" | jq -s 'map(del(.callgrind))')" \
	'{cpu_model: $model, cpu_family: $fam, cpu_model_number: $mod, stepping: $step,
	  microcode: (if $mc == "" then null else $mc end),
	  microcode_reason: (if $mc == "" then "no microcode line in /proc/cpuinfo (a virtual machine shows none)" else null end),
	  compiler: $cc,
	  alignment: {loop_function_bytes: 64, how: "__attribute__((aligned(WL_LOOP_ALIGN))) on each loop function (harness/loop.h); loops inside it at the compiler default, the same flags for both programs",
	              loops: $loops}}')
times >"$W/times.txt" # here, not in a subshell: the subshell has no children
jq -n --argjson w "$(jq -n "$(date +%s.%N) - $bench_t0")" --argjson b "$(jq -n "$(cpu_s) - $busy0")" \
	--argjson o "$(own_s "$W/times.txt")" --argjson c "$(getconf _NPROCESSORS_ONLN)" --arg la "$(cat /proc/loadavg)" \
	'{section: "machine_load", status: "ok", wall_s: $w, cpus: $c, busy_cpu_s: $b, bench_cpu_s: $o,
	  other_cpu_s: ([$b - $o, 0] | max), other_share: ([$b - $o, 0] | max / ($w * $c)), loadavg: $la}' | add
jq -n --slurpfile m "$W/meta.json" --slurpfile r <(jq -s . "$RES") --arg mode "$mode" --argjson mach "$machine" \
	--arg utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	'{schema: "slicebench/1", kind: "bench",
	  meta: ($m[0] + {utc: $utc, bench: {mode: $mode, command: "make bench BENCH_MODE=\($mode)", machine: $mach}}),
	  results: $r[0]}' >"$out.tmp"
mv "$out.tmp" "$out"
table "$out"
echo "bench: $out" >&2
