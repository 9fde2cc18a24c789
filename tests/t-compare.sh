#!/usr/bin/env bash
# tier: quick san
# t-compare.sh - `compare` on synthetic results with a known difference
# (tests/fixtures/base.json: two spin-tas points, 5 repetitions, ~0.5%
# noise), on identical files, and on each kind of bad input.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

base=tests/fixtures/base.json
scale() { # scale OUT JQ-EXPR-ON-A-REPETITION
	jq ".results |= map(if .status == \"ok\" then .repetitions |= map($2) else . end)" \
		"$base" >"$1"
}
scale "$TMP/up.json" '.ops_per_sec *= 1.2'
scale "$TMP/down.json" '.ops_per_sec *= 0.8'
scale "$TMP/slowhold.json" '.hold_ns.p99 *= 1.2'
scale "$TMP/small.json" '.ops_per_sec *= 1.01'

verdicts() { # verdicts FILE... -> the verdict column of the json output
	"$SB" compare "$@" --format json 2>/dev/null | jq -r '[.rows[].verdict] | unique | join(",")'
}
check "compare: +20% with low noise is improved" test "$(verdicts "$base" "$TMP/up.json")" = improved
check "compare: -20% is regressed" test "$(verdicts "$base" "$TMP/down.json")" = regressed
check "compare: +20% p99 hold (lower is better) is regressed" \
	test "$(verdicts "$base" "$TMP/slowhold.json" --metric p99_hold)" = regressed
check "compare: identical files are inconclusive" test "$(verdicts "$base" "$base")" = inconclusive
check "compare: +1% is inside the 5% noise band" test "$(verdicts "$base" "$TMP/small.json")" = inconclusive
check "compare: --threshold 0.5 makes +1% significant" \
	test "$(verdicts "$base" "$TMP/small.json" --threshold 0.5)" = improved
r=$("$SB" compare "$base" "$TMP/up.json" --format json 2>/dev/null)
check "compare: ratio 1.2 with a CI around it, no delta beside it" jqe \
	'.rows[0] | (.ratio - 1.2 | fabs) < 1e-6 and .ratio_ci95[0] < 1.2 and .ratio_ci95[1] > 1.2
	 and (has("delta_pct") | not) and .mw_exact and (.mw_p - 2/252 | fabs) < 1e-9' <<<"$r"
check "compare: the JSON leads with a summary per metric ($(jq -c '.summary' <<<"$r"))" jqe \
	'.summary == [{metric: "ops_per_sec", group: .rows[0].group, family: "report", level: 0.025,
	  rows: 2, improved: 2, regressed: 0, equivalent: 0, cannot_tell: 0,
	  mde_min: ([.rows[].mde.ratio] | min), mde_max: ([.rows[].mde.ratio] | max),
	  time_to_goal: {mde: 1.25, seconds: null, points_without: 2}}]' <<<"$r"
"$SB" compare "$base" "$TMP/up.json" >"$TMP/brief" 2>/dev/null
check "compare: the default text opens with the summary line" \
	grep -qx 'ops_per_sec: 2 improved, 0 regressed, 0 equivalent, 0 cannot tell (MDE x[0-9.]*-x[0-9.]*)' "$TMP/brief"
check "compare: ... and is at most 100 columns wide ($(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$TMP/brief"))" \
	test "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/brief")" -le 100
check "compare: the unsupported point is listed as not compared" \
	jqe '.not_compared | length == 1' <<<"$r"

"$SB" compare "$base" "$TMP/down.json" >/dev/null 2>&1
check "compare: a regression without --fail-on-regression exits 0" test $? -eq 0
"$SB" compare "$base" "$TMP/down.json" --fail-on-regression >/dev/null 2>&1
check "compare: --fail-on-regression exits 1 on a regression" test $? -eq 1
"$SB" compare "$base" "$TMP/up.json" --fail-on-regression >/dev/null 2>&1
check "compare: --fail-on-regression exits 0 on an improvement" test $? -eq 0

for f in text markdown html; do
	"$SB" compare "$base" "$TMP/up.json" --format "$f" --out "$TMP/out.$f" 2>/dev/null
	check "compare: --format $f --out writes the table" grep -q "improved" "$TMP/out.$f"
done
check "compare: no temp file left beside --out" test -z "$(find "$TMP" -name '*.tmp.*')"

# Meta differences are warned about on stderr and in the header.
jq '.meta.virtualization.kind = "none" | .meta.vm = {"accel": "tcg"} | .meta.hz = 1000' \
	"$TMP/up.json" >"$TMP/tcg.json"
"$SB" compare "$base" "$TMP/tcg.json" --detail >"$TMP/o" 2>"$TMP/e"
check "compare: accelerator difference warned on stderr" grep -q 'WARNING: VM accelerator differs' "$TMP/e"
check "compare: ... naming the hypervisor's guest as one, not as bare metal ($(grep -m1 'VM accelerator' "$TMP/e"))" \
	grep -q 'VM accelerator differs: A "virtualized (.*)" vs B "VM (tcg)"' "$TMP/e"
"$SB" compare "$base" "$TMP/tcg.json" >"$TMP/o" 2>"$TMP/e"
check "compare: the default text says the warnings once, on stderr ($(grep -c WARNING "$TMP/o") in the text, $(grep -c WARNING "$TMP/e") on stderr)" \
	test "$(grep -c WARNING "$TMP/o")" -eq 0 -a "$(grep -c WARNING "$TMP/e")" -ge 2
"$SB" compare "$base" "$TMP/tcg.json" --detail >"$TMP/o" 2>"$TMP/e"
check "compare: HZ difference in the table header" grep -q 'WARNING: HZ differs' "$TMP/o"

# Two VM results whose calibration floors differ: the probe whose p99 moved
# and the reference throughput are named with both values and the factor; a
# small move (one boot to the next) is not warned about.
cal='.meta.vm = {"accel": "tcg", "calibration": {"victim_us": {
	"idle-fifo": {"p50": 60, "p99": 163, "max": 3400},
	"loaded-fifo": {"p50": 80, "p99": 344, "max": 5400}},
	"reference": {"workload": "spin-tas", "ops_per_sec": 449000}}}'
jq "$cal" "$base" >"$TMP/calA.json"
jq "$cal"' | .meta.vm.calibration.victim_us["loaded-fifo"].p99 = 2300
	| .meta.vm.calibration.reference.ops_per_sec = 246000' "$base" >"$TMP/calB.json"
jq "$cal"' | .meta.vm.calibration.victim_us["loaded-fifo"].p99 = 400
	| .meta.vm.calibration.victim_us["idle-fifo"].p99 = 120
	| .meta.vm.calibration.reference.ops_per_sec = 430000' "$base" >"$TMP/calC.json"
jq "$cal"' | .meta.vm.calibration = {"unavailable": "the guest sent no calibration.json"}' \
	"$base" >"$TMP/calD.json"
cw() { "$SB" compare "$@" --format json 2>/dev/null | jq -r '.warnings[]'; }
w=$(cw "$TMP/calA.json" "$TMP/calB.json")
check "compare: a moved loaded-fifo floor is warned with both p99s and the factor" \
	grep -q 'guest timing floor differs: loaded-fifo victim p99 A 344.0 us vs B 2300.0 us (6.69x)' <<<"$w"
check "compare: the unchanged idle-fifo floor is not warned" \
	test "$(grep -c 'idle-fifo' <<<"$w")" -eq 0
check "compare: a reference throughput 0.55x is warned" \
	grep -q 'guest reference workload differs: spin-tas A 449000 ops/s vs B 246000 ops/s (0.55x)' <<<"$w"
check "compare: floors within 1.5x / 50 us and reference within 20% give no floor warning" \
	test -z "$(cw "$TMP/calA.json" "$TMP/calC.json" | grep 'guest ')"
check "compare: a calibration on one side only is warned with the other side's reason" \
	grep -q 'only A carries a calibration (B: the guest sent no calibration.json)' \
	<<<"$(cw "$TMP/calA.json" "$TMP/calD.json")"
"$SB" compare "$TMP/calA.json" "$TMP/calB.json" >/dev/null 2>"$TMP/e"
check "compare: the floor warning is on stderr too" grep -q 'WARNING: guest timing floor differs' "$TMP/e"

# --within: every workload against the baseline workload in one file.
jq '.results += [.results[0] | .workload = "futex" | del(.params.backoff_max)
	| .repetitions |= map(.ops_per_sec *= 1.23)]' "$base" >"$TMP/within.json"
w=$("$SB" compare --within "$TMP/within.json" --baseline spin-tas --format json 2>/dev/null)
check "compare: --within pairs futex with spin-tas at the same run keys (+23%)" jqe \
	'.rows | length == 1 and .[0].b.workload == "futex" and .[0].verdict == "improved"
	 and (.[0].ratio - 1.23 | fabs) < 1e-6' <<<"$w"

# Two states: 3 of mcs's 5 windows run x300 faster than the other two and
# than all of spin-tas's, as a queue lock in and out of a convoy; the row
# carries the shares with Fisher's exact p (3 of 5 against 0 of 5: 2 x
# C(5,3) / C(10,3) = 1/6) and the share the design could see move.  A
# clean x300 shift splits neither side: no states.
jq '.results += [(.results[0] | .workload = "mcs" | del(.params.backoff_max)
	| .repetitions |= (to_entries | map(if .key >= 2 then .value.ops_per_sec *= 300 else . end
		| .value))),
	(.results[0] | .workload = "ticket" | del(.params.backoff_max)
	| .repetitions |= map(.ops_per_sec *= 300))]
	| .results |= map(.repetitions |= (to_entries | map(.value.window_start_ns = .key * 1e9 | .value)))' \
	"$base" >"$TMP/states.json"
w=$("$SB" compare --within "$TMP/states.json" --baseline spin-tas --format json 2>/dev/null)
check "compare: a row in two states carries each side's share and Fisher's p ($(jq -c '.rows[] | select(.b.workload == "mcs") | .states' <<<"$w"))" \
	jqe '.rows[] | select(.b.workload == "mcs") | .states | .a == 0 and .b == 3 and .a_n == 5
	 and .b_n == 5 and (.fisher_p - 1/6 | fabs) < 1e-9 and .gap > 100 and .verdict == "not significant"
	 and .mde_share.share > 0.5' <<<"$w"
check "compare: a row in two states has no time to a ratio's MDE of x1.25" \
	jqe '(.rows[] | select(.b.workload == "mcs") | .mde.goal == null)
	 and (.rows[] | select(.b.workload == "ticket") | .mde.goal.reps > 0)' <<<"$w"
check "compare: the two-state row says so in its reading" \
	jqe '.rows[] | select(.b.workload == "mcs") | .reading | test("two states x[0-9.]+ apart: above .* in 3 of 5 windows \\(b\\) vs 0 of 5 \\(a\\), Fisher p 0.17")' <<<"$w"
# Beside a slice arm's ratio, the extension in force over the control's
# median hold: 296 ns over spin-tas's 148 is 2; an arm without grants
# (mcs) has none.
jq '.results += [.results[0] | .workload = "tas+cs" | del(.params.backoff_max)
	| .summary.slice = {requests: 100, grants: 5, yields: 5, grants_per_1000_ops: 5,
		yields_per_1000_ops: 5} | .slice_ext_nsec_in_force = 296]' \
	"$TMP/states.json" >"$TMP/ext.json"
w2=$("$SB" compare --within "$TMP/ext.json" --baseline spin-tas --format json 2>/dev/null)
check "compare: a slice arm's row has its extension over the control's median hold" \
	jqe '(.rows[] | select(.b.workload == "tas+cs") | .b.extension_over_hold == 2)
	 and (.rows[] | select(.b.workload == "mcs") | .b.extension_over_hold == null)' <<<"$w2"
check "compare: a x300 shift of every window is not two states" \
	jqe '.rows[] | select(.b.workload == "ticket") | .states == null and .verdict == "improved"' <<<"$w"

# --noise: the same --within comparison on independent runs.  Runs that
# agree (+23%, +22%, +24%) leave "improved"; runs that scatter (+23%,
# -10%, +60%: each tight within itself) void it, and the row says why.
within_run() { # within_run OUT FACTOR
	jq --argjson f "$2" '.results += [.results[0] | .workload = "futex" | del(.params.backoff_max)
		| .repetitions |= map(.ops_per_sec *= $f)]' "$base" >"$1"
}
within_run "$TMP/n2.json" 1.22
within_run "$TMP/n3.json" 1.24
within_run "$TMP/s2.json" 0.90
within_run "$TMP/s3.json" 1.60
w=$("$SB" compare --within "$TMP/within.json" --baseline spin-tas --noise "$TMP/n2.json" \
	--noise "$TMP/n3.json" --format json 2>/dev/null)
check "compare: --noise with agreeing runs keeps improved, 3 runs, CV about 0.8%" jqe \
	'.rows[0] | .verdict == "improved" and .run_to_run.runs == 3
	 and (.run_to_run.cv_pct - 0.81 | fabs) < 0.05 and (.run_to_run.ratios | length == 3)' <<<"$w"
w=$("$SB" compare --within "$TMP/within.json" --baseline spin-tas --noise "$TMP/s2.json" \
	--noise "$TMP/s3.json" --format json 2>/dev/null)
check "compare: --noise with scattered runs makes improved inconclusive, and says why" jqe \
	'.rows[0] | .verdict == "inconclusive" and .verdict_within_run == "improved"
	 and (.why | test("run-to-run noise \\(3 runs")) and .run_to_run.wider
	 and .run_to_run.ratio_ci95[0] < 1' <<<"$w"
check "compare: the text report lists the changed verdict under the run-to-run line" \
	bash -c '"$SB" compare --within "$1" --baseline spin-tas --noise "$2" --noise "$3" --detail 2>/dev/null |
		grep -A1 "^Run-to-run noise: 3 independent runs, 1 of 1 rows matched" |
		grep -q "futex vs spin-tas at .*: improved within the run, within run-to-run noise"' \
	_ "$TMP/within.json" "$TMP/s2.json" "$TMP/s3.json"

# A directory of results is read whole.
mkdir -p "$TMP/dir"
cp "$TMP/up.json" "$TMP/dir/a.json"
check "compare: a directory as B" test "$(verdicts "$base" "$TMP/dir")" = improved

bad() { # bad NAME REGEX ARGS...
	local name=$1 want=$2
	shift 2
	"$SB" compare "$@" >/dev/null 2>"$TMP/err"
	local rc=$?
	if [ "$rc" -eq 2 ] && grep -Eq -- "$want" "$TMP/err"; then
		ok "compare: $name -> exit 2, \"$(head -1 "$TMP/err")\""
	else
		notok "compare: $name: rc=$rc msg=\"$(cat "$TMP/err")\" (wanted /$want/)"
	fi
}
printf '{"schema": "slicebench/1",\n  "meta": {,\n' >"$TMP/syntax.json"
bad "not JSON names line:col" "$TMP/syntax.json:2:[0-9]+: " "$TMP/syntax.json" "$base"
jq '.schema = "slicebench/2"' "$base" >"$TMP/v2.json"
bad "schema slicebench/2" 'schema: "slicebench/2" is not supported' "$base" "$TMP/v2.json"
jq '.results[1].params = 7' "$base" >"$TMP/params.json"
bad "results[1].params not an object" 'results\[1\]\.params: must be an object' "$base" "$TMP/params.json"
jq '.results |= map(.params.cs_ns = 999)' "$base" >"$TMP/other.json"
bad "no overlapping runs" 'no overlapping runs' "$base" "$TMP/other.json"
bad "missing file" "$TMP/nope.json: No such file" "$base" "$TMP/nope.json"
bad "unknown option" 'unrecognized option' "$base" "$base" --frobnicate
bad "unknown metric" 'unknown metric "p42"' "$base" "$base" --metric p42
bad "one file" 'need a baseline and at least one file' "$base"
bad "--within without --baseline" 'needs --baseline' --within "$base"
bad "--within unknown baseline" 'no results of baseline workload "mcs" \(present: spin-tas, slice-spin\)' \
	--within "$base" --baseline mcs
bad "--noise without --within" '--noise goes with --within' "$base" "$base" --noise "$base"
bad "--noise file missing" "--noise: .*$TMP/nope.json: No such file" --within "$TMP/within.json" \
	--baseline spin-tas --noise "$TMP/nope.json"
bad "bad threshold" 'threshold "x"' "$base" "$base" --threshold x
mkdir -p "$TMP/empty"
bad "empty directory" 'holds no \*\.json result file' "$base" "$TMP/empty"

# No hidden key leaks into the JSON: a note added after the rows are
# decided (fewer than 4 repetitions a side) once re-created the " seen"
# set of add_str after finish had removed it.
jq '.results |= map(if .status == "ok" then (.repetitions |= .[:3]) | .params.repetitions = 3 else . end)' \
	"$base" >"$TMP/three.json"
"$SB" compare "$base" "$TMP/three.json" --format json >"$TMP/three.cmp" 2>/dev/null
check "compare: the 3-repetition note is there" grep -q 'fewer than 4 repetitions' "$TMP/three.cmp"
check "compare: no JSON key starts or ends with a space: $(jq -c '[paths | .[] | strings | select(test("^ | $"))] | unique' "$TMP/three.cmp")" \
	test "$(jq '[paths | .[] | strings | select(test("^ | $"))] | length' "$TMP/three.cmp")" -eq 0
