#!/usr/bin/env bash
# t-interference.sh - the victim probe against cyclictest under the same
# load, the abusers stay bounded, and slice_ext_nsec is restored after a
# run, also after a failed one.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# --- victim probe vs rt-tests' cyclictest, same CPU-hog load, interval, CPU
# The load: one cpu-hog per PU.  cyclictest runs on CPU 0 while a load-only
# run is going; then the harness runs the same load with its own probe on
# CPU 0 (the victim goes to the first lock thread's PU).
cat >"$TMP/load.json" <<'JSON'
{"runs": [{"workload": "cpu-hog", "threads": "1x", "pin": "compact", "repetitions": 1,
           "duration_s": 5, "warmup_s": 0.2, "events": []}]}
JSON
cat >"$TMP/probe.json" <<'JSON'
{"runs": [{"workload": "cpu-hog", "threads": "1x", "pin": "compact", "repetitions": 1,
           "duration_s": 4, "warmup_s": 0.2, "events": [], "victim": {"interval_us": 1000}}]}
JSON
if ! command -v cyclictest >/dev/null; then
	notok "interference: cyclictest agreement: cyclictest is not installed (rt-tests, from scripts/install-deps.sh check)"
else
	# The two tools run one after the other, so foreign load on this shared
	# machine can hit one and not the other: a pair that disagrees is
	# measured once more, and both pairs are printed.  The same holds for
	# the maxima (below): one 10 ms stall of the host in either window
	# sends its pair to a second measurement.
	agree() { awk -v a="$v99" -v b="$c99" 'BEGIN { d = a - b; if (d < 0) d = -d; m = 0.25 * b; if (m < 20) m = 20; exit !(d <= m) }'; }
	bounded() {
		awk -v a="$vmax" -v b="$cmax" -v pa="$v99" -v pb="$c99" \
			'BEGIN { exit !(a >= pa && b >= pb && a <= 10000 && b <= 10000) }'
	}
	for attempt in 1 2; do
		rm -f "$TMP/load-out.json" "$TMP/probe-out.json"
		"$SB" run -c "$TMP/load.json" -o "$TMP/load-out.json" -q &
		load=$!
		sleep 0.5
		cyclictest -t1 -a0 -i1000 -D4 -q -h 20000 --json="$TMP/cyc.json" >/dev/null 2>&1
		wait "$load"
		"$SB" run -c "$TMP/probe.json" -o "$TMP/probe-out.json" -q
		# rt-tests 2.4 writes "cmdline:" with a stray colon; take keys by name.
		c99=$(jq '.thread["0"].histogram | to_entries | map([(.key | tonumber), .value]) | sort_by(.[0])
			| (map(.[1]) | add) as $tot
			| reduce .[] as $e ({n: 0, p: null}; .n += $e[1] | if .p == null and .n >= 0.99 * $tot then .p = $e[0] else . end)
			| .p' "$TMP/cyc.json")
		cmax=$(jq '.thread["0"].max' "$TMP/cyc.json")
		v99=$(jq '.results[0].summary.victim.p99 / 1000 | floor' "$TMP/probe-out.json")
		vmax=$(jq '.results[0].summary.victim.max / 1000 | floor' "$TMP/probe-out.json")
		agree && bounded && break
		[ "$attempt" = 1 ] && echo "# pair 1: cyclictest p99 ${c99} us max ${cmax} us, probe p99 ${v99} us max ${vmax} us; measuring again"
	done
	echo "# cyclictest p99 ${c99} us max ${cmax} us; victim probe p99 ${v99} us max ${vmax} us"
	# p99 is a dense statistic: within 25% or 20 us.  The max is one
	# sample of a heavy tail: whether a tick-long stall (4 ms at HZ=250)
	# lands in a 4 s window is chance, and maxima from 240 to 4209 us were
	# seen from either tool under this load.  So each tool's max must lie
	# between its own p99 and 10 ms (2.5 ticks: past that the probe, not
	# the scheduler, would be wrong); the pair is printed above.
	check "interference: probe p99 ${v99} us agrees with cyclictest ${c99} us (25% or 20 us)" agree
	check "interference: probe max ${vmax} us and cyclictest max ${cmax} us both in [p99, 10 ms]" bounded
fi

# --- the probe's result shape, from ci.json's victim run
"$SB" run -c configs/ci.json -o "$TMP/ci.json" -q
check "interference: ci.json's victim run has percentiles and a histogram" \
	jq -e '[.results[] | select(.label == "victim" and .status == "ok")][0]
	       | (.summary.victim | .count > 0 and .min <= .p50 and .p50 <= .p99 and .p99 <= .p99_99 and .p99_99 <= .max)
	         and (.histograms.victim_ns | length > 0) and (.repetitions[0].victim.count > 0)' "$TMP/ci.json"

# --- abusers and hogs end with the run and record CPU shares
cat >"$TMP/abuse.json" <<'JSON'
{"defaults": {"repetitions": 1, "duration_s": 0.5, "warmup_s": 0.1, "events": [], "timeout_s": 20},
 "runs": [{"workload": ["slice-hog", "slice-noyield", "cpu-hog"], "threads": "1x", "noise": 2}]}
JSON
start=$(date +%s)
"$SB" run -c "$TMP/abuse.json" -o "$TMP/abuse-out.json" -q
took=$(($(date +%s) - start))
check "interference: three abuse runs of 0.6 s each finished in ${took} s (< 20 s)" test "$took" -lt 20
check "interference: cpu-hog and its noise neighbours have CPU shares" \
	jq -e '.results[] | select(.workload == "cpu-hog") | .repetitions[0]
	       | (.threads | all(.cpu_share > 0)) and (.noise | length == 2 and all(.cpu_share > 0))' "$TMP/abuse-out.json"
if jq -e '.meta.slice_extension.available' "$TMP/abuse-out.json" >/dev/null; then
	check "interference: abusers ran and the kernel's enforcement is counted" \
		jq -e '.results[] | select(.workload | startswith("slice-")) | .status == "ok" and .summary.slice.requests > 0' "$TMP/abuse-out.json"
else
	check "interference: abusers unsupported with the kernel's reason here" \
		jq -e 'all(.results[] | select(.workload | startswith("slice-")); .status == "unsupported" and (.reason | length > 0))' "$TMP/abuse-out.json"
fi

# --- slice_ext_nsec: set per run, restored after, also after a failure
mkdir -p "$TMP/debugfs/rseq"
echo 5000 >"$TMP/debugfs/rseq/slice_ext_nsec"
cat >"$TMP/sweep.json" <<'JSON'
{"defaults": {"repetitions": 1, "duration_s": 0.1, "warmup_s": 0, "events": []},
 "runs": [{"workload": "cpu-hog", "slice_ext_nsec": [20000, 50000]},
          {"workload": "spin-tas", "slice_ext_nsec": 30000, "threads": 64, "pin": "oversubscribe:1"}]}
JSON
SLICEBENCH_DEBUGFS="$TMP/debugfs" "$SB" run -c "$TMP/sweep.json" -o "$TMP/sweep-out.json" -q
check "interference: each run ran with its slice_ext_nsec (20000, 50000)" \
	jq -e '[.results[0:2][] | .slice_ext_nsec_in_force] == [20000, 50000]' "$TMP/sweep-out.json"
check "interference: the failing run (64 threads on too few PUs) failed with its reason" \
	jq -e '.results[2] | .status == "failed" and .slice_ext_nsec_in_force == 30000 and (.reason | test("needs 64 PUs"))' "$TMP/sweep-out.json"
check "interference: slice_ext_nsec restored to 5000 afterwards" \
	test "$(cat "$TMP/debugfs/rseq/slice_ext_nsec")" = 5000
rm -rf "$TMP/debugfs"
mkdir -p "$TMP/empty"
SLICEBENCH_DEBUGFS="$TMP/empty" "$SB" run -c "$TMP/sweep.json" -o "$TMP/nodbg.json" -q
check "interference: without the debugfs file the sweep is unsupported with the reason" \
	jq -e 'all(.results[]; .status == "unsupported" and (.reason | test("rseq/slice_ext_nsec")))' "$TMP/nodbg.json"
