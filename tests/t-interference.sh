#!/usr/bin/env bash
# tier: quick
# alone: a victim probe's latency and wall-clock bounds
# t-interference.sh - the victim probe's result shape, the abusers stay
# bounded, and slice_ext_nsec is restored after a
# run, also after a failed one.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# The probe against rt-tests' cyclictest under the same load is a
# benchmark (`make bench`, harness/selfbench/bench/probe.sh): the two run one after
# the other and foreign load can hit one and not the other.

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
# Interleaved, a point's arms share its slice_ext_nsec, set by interleave.c.
jq '. + {"interleave": true, "seed": 1}' "$TMP/sweep.json" >"$TMP/isweep.json"
SLICEBENCH_DEBUGFS="$TMP/debugfs" "$SB" run -c "$TMP/isweep.json" -o "$TMP/isweep-out.json" -q
check "interference: interleaved, each point ran with its slice_ext_nsec ($(jq -c '[.results[] | .slice_ext_nsec_in_force]' "$TMP/isweep-out.json" 2>/dev/null))" \
	jq -e '[.results[] | select(.workload == "cpu-hog") | .slice_ext_nsec_in_force] | sort == [20000, 50000]' "$TMP/isweep-out.json"
check "interference: ... and slice_ext_nsec is restored to 5000 after them" \
	test "$(cat "$TMP/debugfs/rseq/slice_ext_nsec")" = 5000
rm -rf "$TMP/debugfs"
mkdir -p "$TMP/empty"
SLICEBENCH_DEBUGFS="$TMP/empty" "$SB" run -c "$TMP/sweep.json" -o "$TMP/nodbg.json" -q
check "interference: without the debugfs file the sweep is unsupported with the reason" \
	jq -e 'all(.results[]; .status == "unsupported" and (.reason | test("rseq/slice_ext_nsec")))' "$TMP/nodbg.json"
