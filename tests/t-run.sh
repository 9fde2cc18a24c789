#!/usr/bin/env bash
# tier: quick
# t-run.sh - a full `run` of configs/ci.json: the result has the schema's
# keys, every lock workload ran with exact mutual exclusion, and the slice
# workloads say why they cannot run where the kernel lacks the feature.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

out="$TMP/ci.json"
if ! "$SB" run --config configs/ci.json --out "$out" --quiet 2>"$TMP/err"; then
	notok "run: ci.json failed: $(cat "$TMP/err")"
	exit 1
fi
ok "run: ci.json completed"
q() { jq -e "$1" "${@:2}" "$out" >/dev/null; }

check "run: schema is slicebench/1" q '.schema == "slicebench/1"'
for k in suite_version git_revision utc host kernel.release cmdline kconfig preemption.model \
	hz slice_extension.available topology.pus topology.cores topology.packages \
	topology.cpu_model virtualization.hypervisor glibc compiler; do
	check "run: meta.$k present" q ".meta.$k != null"
done
check "run: config is embedded" q '.config.name == "ci"'
check "run: the nine lock workloads and the eight placements present" \
	q '[.results[].workload] | unique | length == 17'
check "run: every result has workload, params, status, reason" \
	q 'all(.results[]; has("workload") and has("params") and has("status") and has("reason"))'
check "run: ok results have per-repetition ops/s and per-thread ops summing up" \
	q 'all(.results[] | select(.status == "ok") | .repetitions[];
	       .ops_per_sec > 0 and .ops == ([.threads[].ops] | add) and .exclusion_ok)'
check "run: ok results have the summary statistics" \
	q 'all(.results[] | select(.status == "ok") | .summary;
	       (.ops_per_sec | has("mean") and has("stddev") and has("median") and has("min")
	        and has("max") and has("ci95_lo") and has("ci95_hi"))
	       and .fairness_jain > 0 and .fairness_jain <= 1.000001
	       and (.hold_ns | has("p50") and has("p90") and has("p99") and has("p99_9") and has("max"))
	       and .acquire_ns.count > 0)'
check "run: percentiles are ordered" \
	q 'all(.results[] | select(.status == "ok") | .summary.hold_ns;
	       .min <= .p50 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .p99_9 and .p99_9 <= .max)'
check "run: sparse histograms with [lo, width, count]" \
	q 'all(.results[] | select(.status == "ok") | .histograms.hold_ns[]; length == 3 and .[2] > 0)'
# A slice run: one whose requests go to the kernel (policy not none, not dry).
slice='(.params.policy != "none" and (.params.dry | not))'
check "run: every non-slice workload is ok" \
	q "all(.results[] | select($slice | not); .status == \"ok\")"
# shellcheck disable=SC2016 # $m is jq's variable
check "run: oversubscribed runs use 2 threads per PU" \
	q 'all(.results[] | select(.params.pin == "oversubscribe:2");
	       .nthreads == 2 * $m.topology.pus)' --argjson m "$(jq .meta "$out")"
if jq -e '.meta.slice_extension.available' "$out" >/dev/null; then
	check "run: slice workloads ok with grants counted" \
		q "all(.results[] | select($slice); .status == \"ok\" and .summary.slice.requests > 0)"
else
	check "run: slice workloads unsupported with the kernel's reason" \
		q "all(.results[] | select($slice);
		       .status == \"unsupported\" and (.reason | test(\"PR_RSEQ_SLICE_EXTENSION|AT_RSEQ_FEATURE_SIZE\")))"
fi
check "run: no temp file left beside the result" test -z "$(find "$TMP" -name '.*.tmp.*')"
mode=$(stat -c %a "$out")
check "run: result file is world-readable like any other output (mode $mode)" test "$mode" = 644

# keep: "summary" drops what grows with the thread count: the file is as
# large at 64 threads as at 4, and the summary compare reads is intact.
for n in 4 64; do
	printf '{"name": "keep", "runs": [{"workload": "futex", "threads": %d, "repetitions": 2,
	  "duration_s": 0.05, "warmup_s": 0, "keep": "summary"}]}' "$n" >"$TMP/keep.json"
	"$SB" run -c "$TMP/keep.json" -o "$TMP/keep-$n.json" -q || notok "run: keep summary at $n threads"
done
s4=$(stat -c %s "$TMP/keep-4.json") s64=$(stat -c %s "$TMP/keep-64.json")
check "run: keep summary: $s64 bytes at 64 threads vs $s4 at 4 (within 10%)" \
	test $((s64 * 10)) -le $((s4 * 11))
check "run: keep summary: no per-thread arrays or buckets, summary and repetitions kept" \
	jq -e '.results[0] | .status == "ok" and (has("histograms") | not)
	       and all(.repetitions[]; (has("threads") | not) and .ops_per_sec > 0
	               and all(.counters // {} | .[]; has("per_thread") | not))
	       and .summary.ops_per_sec.median > 0 and .summary.hold_ns.p99 > 0' "$TMP/keep-64.json"
