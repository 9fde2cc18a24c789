#!/usr/bin/env bash
# tier: quick san
# t-aa.sh - compare's A/A checks of the dry controls, on constructed
# results: a control that matches its real workload at one thread per PU
# is valid, one 3x off is invalid (warned, and marked on every verdict that
# rests on it), a noisy one is inconclusive, a short check of a point that
# longer A/A arms check again is superseded, and points with noise, a
# victim or more threads than PUs are not used.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

base=tests/fixtures/base.json
# real (tas+cs) and dry (tas+cs+dry) at 1x and at 2x; DRY scales the dry
# control's repetitions at 1x, NOISE the real one's spread.
mk() { # mk OUT DRY-FACTOR [SPREAD]
	jq --argjson f "$2" --argjson s "${3:-0}" '
	  (.results[0] | .params += {lock: "tas", dry: false}) as $t
	  | .results = [
	    ($t | .workload = "spin-tas" | .params.policy = "none"),
	    ($t | .workload = "slice-spin" | .params.policy = "cs"
	        | .summary.slice = {requests: 0, grants: 0, yields: 0, grants_per_1000_ops: 0, yields_per_1000_ops: 0}
	        | .repetitions |= (to_entries | map(.value.ops_per_sec *= (1 + $s * (if .key % 2 == 0 then 1 else -1 end))) | map(.value))),
	    ($t | .workload = "slice-dry" | .params.policy = "cs" | .params.dry = true
	        | .repetitions |= map(.ops_per_sec *= $f)),
	    ($t | .workload = "slice-dry" | .params.policy = "cs" | .params.dry = true
	        | .params.noise = 2),
	    ($t | .workload = "slice-dry" | .params.policy = "cs" | .params.dry = true
	        | .params.threads = "2x" | .nthreads = 4)
	  ]' "$base" >"$1"
}
# jq -e reads empty input as success (jq 1.6): a compare that refuses
# its input prints null here, which every check below fails on.
aa() { "$SB" compare --within "$1" --baseline slice-dry --format json 2>/dev/null || echo null; }

mk "$TMP/good.json" 1.01
r=$(aa "$TMP/good.json")
check "aa: one check, from the quiet 1x point only (noise and 2x points left out)" \
	jqe '.aa_checks | length == 1 and .[0].nthreads == 2' <<<"$r"
check "aa: a control within 1% of its real workload is valid (ratio $(jq '.aa_checks[0].ratio' <<<"$r"))" \
	jqe '.aa_checks[0] | .verdict == "valid" and .control == "slice-dry" and .real == "slice-spin"
	       and (.ratio - 1/1.01 | fabs) < 1e-3 and .grants == 0' <<<"$r"
check "aa: the check names its point (threads $(jq -c '.aa_checks[0].point.threads' <<<"$r"), no noise key)" \
	jqe '.aa_checks[0].point | .threads == "1x" and (has("noise") | not)' <<<"$r"
check "aa: the verdict against the control carries the check" \
	jqe '[.rows[] | select(.b.workload == "slice-spin") | .control_aa.verdict] | . == ["valid"]' <<<"$r"

mk "$TMP/bad.json" 3
r=$(aa "$TMP/bad.json")
check "aa: a control 3x faster than its real workload is invalid" \
	jqe '.aa_checks[0] | .verdict == "invalid" and (.ratio - 1/3 | fabs) < 1e-3' <<<"$r"
check "aa: an invalid control is warned about, with the ratio" \
	jqe '.warnings | map(test("the control slice-dry is invalid: .* slice-spin / slice-dry = 0.333")) | any' <<<"$r"
check "aa: every row against it is marked invalid" \
	jqe '[.rows[] | .control_aa.verdict] | unique == ["invalid"]' <<<"$r"
"$SB" compare --within "$TMP/bad.json" --baseline slice-dry --detail >"$TMP/o" 2>/dev/null
check "aa: the text report lists the check, with its label, beside the verdicts" \
	grep -q 'slice-dry at 2 threads \[1x\]: slice-spin / slice-dry = 0.333 \[.*\], grants 0: invalid' "$TMP/o"
"$SB" compare --within "$TMP/bad.json" --baseline slice-dry -f markdown >"$TMP/o.md" 2>/dev/null
check "aa: the markdown report too" grep -q '^- slice-dry at 2 threads \[1x\]: .*: invalid$' "$TMP/o.md"
check "aa: the check names the label it was run under" jqe '.aa_checks[0].label == "1x"' <<<"$r"

# Two quiet points, at cs_ns 100 (valid, as good.json) and 5000 (the dry
# control 3x faster: invalid): each contended row carries the check of
# its own critical section, not the file's first.
jq '.results += [.results[] | select(.workload == "slice-dry" and .params.threads == "2x")
		| .workload = "slice-spin" | .params.dry = false]
	| .results += [.results[] | select(.workload == "slice-spin" or .workload == "slice-dry")
	| select(.params.noise != 2) | .params.cs_ns = 5000
	| if .workload == "slice-dry" and .params.threads == "1x" then .repetitions |= map(.ops_per_sec *= 3) else . end]' \
	"$TMP/good.json" >"$TMP/two.json"
r=$(aa "$TMP/two.json")
check "aa: two quiet points, two checks ($(jq -c '[.aa_checks[] | [.point.cs_ns, .verdict]]' <<<"$r"))" \
	jqe '[.aa_checks[] | [.point.cs_ns, .verdict]] == [[null, "valid"], [5000, "invalid"]]' <<<"$r"
check "aa: each 2x row carries the check at its own critical section ($(jq -c '[.rows[] | select(.point | test("threads=2x")) | [.point, .control_aa.verdict]]' <<<"$r"))" \
	jqe '[.rows[] | select(.point | test("threads=2x")) | [(.point | test("cs_ns=5000")), .control_aa.verdict]]
	       | sort == [[false, "valid"], [true, "invalid"]]' <<<"$r"

# The same quiet point checked twice: the sweep's 1x point (5 windows,
# the control 3x off) and A/A arms (label aa, 1 s windows, 10 each, the
# control matching): the longer check is the point's, the shorter is kept
# and marked superseded, and no warning comes of it.  aa-twin copies of
# both arms (1.5x the aa arms' speed) pair with each other, not with aa's
# real arm.
jq '(.results[] | select(.workload == "slice-dry" and .params.threads == "1x" and .params.noise != 2)
	| .repetitions) |= map(.ops_per_sec *= 3)
    | .results += [.results[] | select((.workload == "slice-spin" or .workload == "slice-dry")
	and .params.threads == "1x" and .params.noise != 2)
	| .label = "aa" | .params.duration_s = 1 | .params.repetitions = 10
	| .repetitions = (.repetitions + .repetitions)
	| if .workload == "slice-dry" then .repetitions |= map(.ops_per_sec /= 3) else . end]
    | .results += [.results[] | select(.label == "aa") | .label = "aa-twin"
	| .repetitions |= map(.ops_per_sec *= 1.5)]' "$TMP/good.json" >"$TMP/sup.json"
r=$(aa "$TMP/sup.json")
check "aa: the sweep's short check is superseded by the aa arms' ($(jq -c '[.aa_checks[] | [.label, .verdict, .superseded_by]]' <<<"$r"))" \
	jqe '[.aa_checks[] | [.label, .verdict, .superseded_by]]
	       == [["1x", "invalid", "aa"], ["aa", "valid", null], ["aa-twin", "valid", null]]' <<<"$r"
check "aa: an aa-twin control pairs with the aa-twin real arm (ratio $(jq '.aa_checks[2].ratio' <<<"$r"))" \
	jqe '.aa_checks[2] | (.ratio - 1/1.01 | fabs) < 1e-3 and .n_real == 10' <<<"$r"
check "aa: a superseded invalid check warns of nothing" \
	jqe '.warnings | map(test("is invalid")) | any | not' <<<"$r"
"$SB" compare --within "$TMP/sup.json" --baseline slice-dry --detail >"$TMP/o" 2>/dev/null
check "aa: the text counts the point's checks and the superseded one apart" \
	grep -q 'TOST): 2 valid, 0 invalid, 0 inconclusive; 1 more superseded by a longer check of the same point$' "$TMP/o"
check "aa: the text marks the superseded check" \
	grep -q 'slice-dry at 2 threads \[1x\]: .*: invalid; superseded by \[aa\]$' "$TMP/o"

# Copies of one design that took turns in one interleaved point (aa and
# aa-twin, each stopped by its own check) never supersede each other; a
# shorter twin from another point does.
jq '(.results[] | select(.label == "aa-twin") | .repetitions) |= .[0:5] | (.results[] | select(.label == "aa-twin") | .params.repetitions) = 5
    | (.results[] | select(.label == "aa" or .label == "aa-twin") | .interleave) = {seed: 1, point: 3}' \
	"$TMP/sup.json" >"$TMP/same.json"
check "aa: a twin check with fewer windows from the same interleaved point is not superseded ($(aa "$TMP/same.json" | jq -c '[.aa_checks[] | [.label, .n_real, .superseded_by]]'))" \
	jqe '[.aa_checks[] | select(.label == "aa-twin") | .superseded_by] == [null]' <<<"$(aa "$TMP/same.json")"
jq '(.results[] | select(.label == "aa-twin") | .interleave.point) = 4' "$TMP/same.json" >"$TMP/apart.json"
check "aa: ... from another interleaved point it is superseded by aa" \
	jqe '[.aa_checks[] | select(.label == "aa-twin") | .superseded_by] == ["aa"]' <<<"$(aa "$TMP/apart.json")"

# Rows read the check that stands for their point, never a superseded one.
check "aa: rows under the sweep's label carry the aa arms' check, not their own superseded one ($(jq -c '[.rows[].control_aa | select(.) | .label] | unique' <<<"$r"))" \
	jqe '[.rows[].control_aa | select(.) | .label] | . != [] and all(. != "1x")' <<<"$r"

mk "$TMP/noisy.json" 1.0 0.2
check "aa: a +-20% spread cannot show equivalence within 5%: inconclusive" \
	test "$(aa "$TMP/noisy.json" | jq -r '.aa_checks[0].verdict')" = inconclusive
check "aa: a file without dry controls has no checks" \
	test "$("$SB" compare --within "$base" --baseline spin-tas --format json 2>/dev/null |
		jq '.aa_checks | length')" = 0

# Arms that stopped on their check (check_margin_pct) carry it; compare
# reads the verdict at the level of one look and against the check's margin.
seq() { # seq IN OUT LEVEL MARGIN-PCT
	jq --argjson l "$3" --argjson m "$4" '(.results[] | select((.workload == "slice-spin" or .workload == "slice-dry")
		and .params.threads == "1x" and .params.noise != 2) | .interleave)
		|= {seed: 1, point: 0, check: {level: $l, n: 5, looks: [5, 10, 20, 40], margin_pct: $m,
		    stopped_by: "maximum"}}' "$1" >"$2"
}
# Taken by rounds, the good control's windows differ by exactly 1%: a
# spread of 1% on the real arm makes the rounds' ratios differ.
mk "$TMP/good1.json" 1.01 0.01
seq "$TMP/good1.json" "$TMP/seq.json" 1e-12 5
r=$(aa "$TMP/seq.json")
check "aa: the good control with 1% spread, read at a look's level of 1e-12, is inconclusive (TOST p $(jq '.aa_checks[0].tost_p' <<<"$r"))" \
	jqe '.aa_checks[0] | .verdict == "inconclusive" and .sequential.level == 1e-12 and .sequential.looks == 4
	       and .sequential.stopped_by == "maximum"' <<<"$r"
"$SB" compare --within "$TMP/seq.json" --baseline slice-dry --detail >"$TMP/o" 2>/dev/null
check "aa: the text says how the arms stopped" \
	grep -q 'slice-dry at 2 threads.*inconclusive (could detect >= x.*); the arms stopped at repetitions_max after 5 windows a side (4 looks at 1e-12 each, margin +-5%)$' "$TMP/o"
seq "$TMP/noisy.json" "$TMP/seqn.json" 0.05 50
r=$(aa "$TMP/seqn.json")
check "aa: a +-20% spread is equivalent within the check's stated +-50% (band $(jq '.aa_checks[0].band_pct' <<<"$r")%)" \
	jqe '.aa_checks[0] | .verdict == "valid" and .band_pct == 50' <<<"$r"
check "aa: ... unless compare is given its own margin (--equivalence 5)" \
	test "$("$SB" compare --within "$TMP/seqn.json" --baseline slice-dry --equivalence 5 --format json 2>/dev/null |
		jq -r '.aa_checks[0].verdict')" = inconclusive

# Collapses are data: a real window with no operation stays in the check.
jq '(.results[] | select(.workload == "slice-spin") | .repetitions[1].ops_per_sec) = 0' \
	"$TMP/good.json" >"$TMP/collapsed.json"
r=$(aa "$TMP/collapsed.json")
check "aa: one real window with no operation: kept, and the control is no longer valid ($(jq -c '.aa_checks[0] | {verdict, n_real, collapsed}' <<<"$r"))" \
	jqe '.aa_checks[0] | .verdict != "valid" and .collapsed.real == 1 and
	       .n_real == .n_dry and .n_real >= 2' <<<"$r"
"$SB" compare --within "$TMP/collapsed.json" --baseline slice-dry --detail >"$TMP/o" 2>/dev/null
check "aa: ... and the text says so" grep -q 'windows with no operation, kept at the floor: 1 real, 0 dry' "$TMP/o"
