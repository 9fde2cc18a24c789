#!/usr/bin/env bash
# tier: quick san
# t-power.sh - what compare says a row could have seen, on constructed
# results: the MDE column and JSON field, equivalence and underpowered
# readings, a collapse (0-op windows) as its own verdict, a config that
# declares one arm twice under two labels, and the false-positive rate
# compare reports over such pairs, grants per 1000 acquisitions, and the
# scheduler rounds an oversubscribed window held.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

base=tests/fixtures/base.json
# B: the same windows, +-30% alternating: far too noisy for a 5% verdict.
jq '.results |= map(if .status == "ok" then .repetitions |= (to_entries
	| map(.value.ops_per_sec *= (if .key % 2 == 0 then 1.3 else 0.7 end)) | map(.value)) else . end)' \
	"$base" >"$TMP/noisy.json"
r=$("$SB" compare "$base" "$TMP/noisy.json" --format json 2>/dev/null)
check "power: a noisy row is underpowered and says what it could detect ($(jq -r '.rows[0].reading' <<<"$r"))" \
	jqe '.rows[0] | .verdict == "inconclusive" and
	       (.reading | test("^underpowered: could detect >= x[0-9.]+ [(]x[0-9.]+ tested alone[)]$"))
	       and .mde.ratio > 1.3 and .mde.power == 0.8 and .mde.alpha == 0.05 / 2 and
	       .mde.unadjusted.alpha == 0.05 and .mde.unadjusted.ratio < .mde.ratio and
	       .family == {kind: "report", tests: 2, level: 0.025}' <<<"$r"
# The log MDE, (t(1-a/2) + t(0.8)) se, and the log width of the 95% CI,
# 2 t(0.975) se, rest on the same se: the MDE's log is between half and
# 1.5 times the CI's log width (a bracket, not the formula again; the
# unit test checks the value).
check "power: the row's mde is of the order of its interval's width" \
	jqe '.rows[0] | (.mde.ratio | log) as $l | (.ratio_ci95[1] / .ratio_ci95[0] | log) as $w
	       | $l > 0.5 * $w and $l < 1.5 * $w' <<<"$r"
check "power: identical files are equivalent within the noise band" \
	test "$("$SB" compare "$base" "$base" --format json 2>/dev/null | jq -r '[.rows[].reading] | unique | join(",")')" \
	= "equivalent within +-5%"
check "power: --equivalence sets the TOST margin" \
	jqe '.equivalence_pct == 0.1 and .rows[0].tost.margin_pct == 0.1' \
	<<<"$("$SB" compare "$base" "$base" --equivalence 0.1 --format json 2>/dev/null)"
"$SB" compare "$base" "$base" --equivalence 0 >/dev/null 2>"$TMP/e"
check "power: --equivalence 0 is refused with the value" \
	grep -q 'equivalence "0": not a percentage' "$TMP/e"
"$SB" compare "$base" "$TMP/noisy.json" --detail >"$TMP/o" 2>/dev/null
check "power: the text table has grants and MDE columns" grep -Eq '  grants/1k ops A/B  +MDE  +verdict' "$TMP/o"
check "power: the text row shows the MDE and the reading as its verdict" \
	grep -Eq '  x[0-9.]+  +underpowered: could detect >= x[0-9.]+' "$TMP/o"

# A collapse: B ran 0 ops in 3 of its 5 windows at the 1x point.
jq '.results[0].repetitions |= (to_entries | map(if .key % 2 == 0 then .value.ops_per_sec = 0 | .value.ops = 0
	else .value.ops_per_sec = 50 end) | map(.value))' "$base" >"$TMP/collapse.json"
r=$("$SB" compare "$base" "$TMP/collapse.json" --format json 2>/dev/null)
check "power: 0 ops in 3 of 5 windows is collapsed, not inconclusive ($(jq -r '.rows[0].reading' <<<"$r"))" \
	jqe '.rows[0] | .verdict == "collapsed" and .reading == "collapsed: 0 ops in 3 of 5 windows of B, regressed (Mann-Whitney)"
	       and .collapse == {"a": 0, "a_n": 5, "b": 3, "b_n": 5, "verdict": "regressed"}
	       and (.flags | map(test("no log test")) | any | not)' <<<"$r"
"$SB" compare "$base" "$TMP/collapse.json" --fail-on-regression >/dev/null 2>&1
check "power: --fail-on-regression fails on a collapse that regressed" test $? -eq 1

# One arm declared twice under two labels runs twice; under one label once.
cat >"$TMP/twin.json" <<'J'
{"name": "twin", "defaults": {"duration_s": 0.01, "warmup_s": 0, "repetitions": 2, "threads": 1},
 "runs": [{"label": "aa", "workload": "spin-tas"}, {"label": "aa2", "workload": "spin-tas"},
          {"label": "aa", "workload": "spin-tas"}]}
J
n=$("$SB" run --config "$TMP/twin.json" --dry-run 2>&1 | grep -c spin-tas)
check "power: the same arm under two labels runs twice, a repeat under one label once (got $n)" test "$n" -eq 2

# True A/A in a result: base's 1x point again as label aa2, with windows
# shuffled by 1% (no difference but noise): one pair, not significant.
jq '.results += [.results[0] | .label = "aa2" | .repetitions |= (to_entries
	| map(.value.ops_per_sec *= (if .key % 2 == 0 then 1.01 else 0.99 end)) | map(.value))]' \
	"$base" >"$TMP/aa.json"
r=$("$SB" compare --within "$TMP/aa.json" --baseline spin-tas --format json 2>/dev/null)
check "power: compare reports the false-positive rate over the true A/A pairs" \
	jqe '.true_aa[0] | .pairs == 1 and .positives == 0 and .rate == 0 and .list[0].a_label == "1x"
	       and .list[0].b_label == "aa2"' <<<"$r"
"$SB" compare --within "$TMP/aa.json" --baseline spin-tas --detail >"$TMP/o" 2>/dev/null
check "power: the text report states the rate" \
	grep -q 'true A/A (the same arm under two labels): 0 of 1 pairs significant at 0.05, false-positive rate 0' "$TMP/o"
# Interleaved: copies in two interleaved points ran apart and are no pair;
# in one point they took turns and are.
for pts in "0 1" "3 3"; do
	read -r pa pb <<<"$pts"
	jq --argjson a "$pa" --argjson b "$pb" '.results[0].interleave = {"seed": 1, "point": $a}
		| .results[-1].interleave = {"seed": 1, "point": $b}' "$TMP/aa.json" >"$TMP/aai.json"
	n=$("$SB" compare --within "$TMP/aai.json" --baseline spin-tas --format json 2>/dev/null |
		jq '[.true_aa[]?.pairs] | add // 0')
	check "power: interleaved points $pa and $pb: $n true A/A pairs" test "$n" -eq "$([ "$pa" = "$pb" ] && echo 1 || echo 0)"
done

# A point run under two labels (a study's 1x sweep and its longer A/A
# arms): each arm meets the control of its own label.  The aa control runs
# at half speed, so pairing aa's futex with 1x's control would read 1.2.
jq '.results[0] as $b | .results = [$b,
	($b | .workload = "futex" | .id = 10 | .repetitions |= map(.ops_per_sec *= 1.2)),
	($b | .label = "aa" | .id = 11 | .repetitions |= map(.ops_per_sec *= 0.5)),
	($b | .workload = "futex" | .label = "aa" | .id = 12 | .repetitions |= map(.ops_per_sec *= 1.2))]' \
	"$base" >"$TMP/labels.json"
r=$("$SB" compare --within "$TMP/labels.json" --baseline spin-tas --format json 2>/dev/null || echo null)
check "power: two labels at one point: each arm against its own label's control ($(jq -c '[.rows[] | [.b.label, .ratio]]' <<<"$r"))" \
	jqe '[.rows[] | [.a.label, .b.label, .ratio]] == [["1x", "1x", 1.2], ["aa", "aa", 2.4]]' <<<"$r"
"$SB" compare --within "$TMP/labels.json" --baseline spin-tas --detail >"$TMP/o" 2>/dev/null
check "power: the text rows name the label beside the point" \
	eval 'grep -q "threads=1x \[1x\]" "$TMP/o" && grep -q "threads=1x \[aa\]" "$TMP/o"'

# Grants per 1000 acquisitions beside every row whose result counts them.
jq '.results[0].summary.slice = {"requests": 240000, "grants": 12, "yields": 12, "grants_per_1000_ops": 0.05, "yields_per_1000_ops": 0.05}' "$TMP/noisy.json" >"$TMP/g.json"
# null when compare refuses: jq -e takes empty input as success (jq 1.6)
r=$("$SB" compare "$base" "$TMP/g.json" --format json 2>/dev/null || echo null)
check "power: a row carries grants per 1000 acquisitions where the result counts them" \
	jqe '.rows[0].b.grants_per_1000_ops == 0.05 and (.rows[0].a | has("grants_per_1000_ops") | not)
	       and (.rows[1].b | has("grants_per_1000_ops") | not)' <<<"$r"
"$SB" compare "$base" "$TMP/g.json" --detail >"$TMP/o" 2>/dev/null
check "power: the text row shows them as A/B" grep -Eq 'threads=1x .* 5/5 +-/0.05 +x' "$TMP/o"
# Below the grant floor (default 0.1 per 1000) the row says the extension
# is too rare to move its ratio, and what a grant would have to be worth:
# 5% * 1000 / 0.05 = 1000 acquisitions' time.
check "power: 0.05 grants/1k ops is too rare, with each grant's needed worth ($(jq -r '.rows[0].reading' <<<"$r"))" \
	jqe '.rows[0] | (.reading | test("; the extension is too rare here to move this ratio \\(0.05 grants/1k ops < 0.1: each would have to save 1000 acquisitions. time to move it 5%\\)$"))
	       and .mechanism == {"grants_per_1000_ops": 0.05, "floor": 0.1, "acquisitions_per_grant_for_band": 1000, "too_rare": true}' <<<"$r"
# Against a dry control a row that moved beyond the band was moved by the
# mechanism however rare its grants (the arms differ only in whether the
# kernel reads the request): it says what each grant stood for, and is
# not "too rare".  The committed sized contention run: tas+rearm improves
# on tas+rearm+dry at 4 threads with under 0.01 grants per 1000.
rw=$("$SB" compare --within results/reference/contention-primary-vm-lazy.json.gz --baseline tas+rearm+dry \
	-f json 2>/dev/null || echo null)
check "power: rare grants that moved a ratio against its dry control say what each stood for" \
	jqe '[.rows[] | select(.b.workload == "tas+rearm" and .point == "threads=4")][0] |
	       .verdict == "improved" and .mechanism.too_rare == false and .mechanism.acquisitions_per_grant_moved > 0
	       and (.reading | test("rare grants moved it against its dry control .* each stood for about [0-9]+ acquisitions. time\\)$"))' <<<"$rw"
check "power: a row that did not move still says the extension is too rare" \
	jqe '[.rows[] | select(.b.workload == "tas+rearm" and .point == "threads=2")][0] |
	       .verdict == "inconclusive" and .mechanism.too_rare == true and (.reading | test("too rare here"))' <<<"$rw"
check "power: a row without grant counts says nothing of the mechanism" \
	jqe '.rows[1] | has("mechanism") | not' <<<"$r"
r=$("$SB" compare "$base" "$TMP/g.json" --grant-floor 0.01 --format json 2>/dev/null || echo null)
check "power: at or above --grant-floor the row says nothing of the mechanism" \
	jqe '.rows[0] | (has("mechanism") | not) and (.reading | test("too rare") | not)' <<<"$r"
jq '.results[0].summary.slice.grants_per_1000_ops = 0' "$TMP/g.json" >"$TMP/g0.json"
r=$("$SB" compare "$base" "$TMP/g0.json" --format json 2>/dev/null || echo null)
check "power: 0 grants reads never granted" \
	jqe '.rows[0] | (.reading | endswith("; the extension was never granted here (0 grants/1k ops)"))
	       and .mechanism.acquisitions_per_grant_for_band == null' <<<"$r"
# Where both sides traced their holders (holder_trace_us > 0): how often a
# holder was switched out holding, per second of the windows, each side,
# and the grants that deferred one.  A: 1 preemption per repetition of
# wall_s 0.5 (2/s); B: 1 in the first only, 3 grants per repetition (6/s).
# The window's object as holdtrace.c writes it, its counts set below.
ht='{"switch_outs": 4, "slept": 1, "runnable": 3, "holder": {"preempted": 1, "in_fault": 0, "in_user": 1,
	"off_cpu_ns": 40000}, "waiter": 2, "short": 0, "long_holds": 5, "dropped_holds": 0, "lost_events": 0,
	"slice_grants": 0}'
jq --argjson h "$ht" '.results[0].repetitions |= map(.wall_s = 0.5 | .holder_trace = $h)' "$base" >"$TMP/ha.json"
jq --argjson h "$ht" '.results[0].repetitions |= (to_entries | map(.key as $k | .value.wall_s = 0.5 | .value.holder_trace =
	($h | .holder.preempted = (if $k == 0 then 1 else 0 end) | .slice_grants = 3)) | map(.value))' \
	"$TMP/noisy.json" >"$TMP/hb.json"
r=$("$SB" compare "$TMP/ha.json" "$TMP/hb.json" --format json 2>/dev/null || echo null)
n=$(jq '.results[0].repetitions | length' "$TMP/noisy.json")
check "power: holder preemptions and grants per second beside the reading ($(jq -r '.rows[0].reading' <<<"$r"))" \
	jqe --argjson n "$n" '.rows[0] | .a.holder == {"preempted_per_s": 2, "grants_per_s": 0, "seconds": ($n * 0.5), "windows": $n}
	       and (.b.holder.preempted_per_s * $n * 0.5 | round) == 1 and .b.holder.grants_per_s == 6
	       and (.reading | test("; holders switched out holding 2/s \\(a\\) vs [0-9.e+-]+/s \\(b\\), 6 grants/s deferred one \\(b\\)$"))' <<<"$r"
check "power: a row whose results traced no holder says nothing of them" \
	jqe '.rows[1] | (.a | has("holder") | not) and (.reading | test("holders switched") | not)' <<<"$r"
# Scheduler rounds per window: the lock threads' switches (rusage) per
# thread, median over the windows; flagged under 10 where the threads
# outnumber the PUs ("Nx", or a number over a cpus: list).  B switches
# four times as often as A, so A is the short side.
rounds() { # rounds THREADS PIN NTHREADS SWITCHES-PER-WINDOW -> $TMP/rd.json
	jq --arg t "$1" --arg p "$2" --argjson n "$3" --argjson s "$4" '.results[0] |= (
		.params.threads = (if $t | test("x$") then $t else ($t | tonumber) end) | .params.pin = $p
		| .nthreads = $n | .repetitions |= map(.rusage = {"nvcsw": 1, "nivcsw": ($s - 1)}))' \
		"$base" >"$TMP/rd.json"
}
for c in "4x compact 8 24 flag-A" "4x compact 8 96 none" "1x compact 2 2 none" "16 cpus:0-1 16 40 flag-A" \
	"16 cpus:0,2-3 16 40 flag-A" "16 cpus:0-3 16 200 none" "16 compact 16 16 none"; do
	read -r t p n sw want <<<"$c"
	rounds "$t" "$p" "$n" "$sw"
	cp "$TMP/rd.json" "$TMP/rd-a.json"
	rounds "$t" "$p" "$n" $((sw * 4))
	r=$("$SB" compare "$TMP/rd-a.json" "$TMP/rd.json" --format json 2>/dev/null)
	got=$(jq -r '.rows[0] | (.flags | map(select(test("scheduler rounds"))) | .[0]) // "none"' <<<"$r")
	pass=no
	case $want in
	none) [ "$got" != none ] || pass=yes ;;
	flag-A)
		if jqe --argjson w "$(awk -v s="$sw" -v n="$n" 'BEGIN { print s / n }')" \
			'.rows[0] | .a.rounds_per_window == $w and .b.rounds_per_window == 4 * $w' <<<"$r" &&
			grep -qE "^windows of [0-9.]+ scheduler rounds \(A, [0-9.]+ threads per PU\), under 10: " <<<"$got"; then
			pass=yes
		fi ;;
	esac
	check "power: threads $t on $p, $n threads, $sw switches a window: $got" test "$pass" = yes
done

"$SB" compare "$base" "$TMP/g.json" --grant-floor -1 >/dev/null 2>"$TMP/e"
rc=$?
check "power: --grant-floor -1 is refused with the value, exit 2 (rc=$rc)" \
	eval 'test "$rc" -eq 2 && grep -q "grant-floor \"-1\": not a rate" "$TMP/e"'

# The mechanism beside the ratio, on the guest's Rostedt result: the model
# of how often a holder is preempted inside its section per 1000
# acquisitions (1000 x involuntary switches per second x hold median / n,
# the median over the windows), and how the kernel's grants ended.
g=$(ref_json rostedt-2023-vm)
r=$("$SB" compare --within "$g" --baseline slice-dry --format json 2>/dev/null)
want=$(jq '[.results[] | select(.workload == "slice-spin" and .label == "poc" and .params.noise == 0) | .nthreads as $n |
	.repetitions[] | 1000 * (.rusage.nivcsw / .wall_s) * (.hold_ns.p50 / 1e9) / $n] | sort |
	if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end' "$g")
check "power: the model of how often the extension could fire, per 1000 acquisitions ($want)" \
	jqe --argjson w "$want" '[.rows[] | select(.b.workload == "slice-spin" and (.point | test("noise=0")) and .b.label == "poc")][0].b |
	  (.can_fire_per_1000 - $w | fabs) < 1e-9 * $w' <<<"$r"
check "power: ... and how the kernel's grants ended, from its rseq/stats ($(jq -c '[.rows[] | select(.b.workload == "slice-spin")][0].b.grants_ended' <<<"$r"))" \
	jqe --argjson s "$(jq '[.results[] | select(.workload == "slice-spin" and .label == "poc" and .params.noise == 0)][0].summary.rseq_stats' "$g")" \
	'[.rows[] | select(.b.workload == "slice-spin" and (.point | test("noise=0")) and .b.label == "poc")][0].b.grants_ended ==
	 {granted: $s.sgrant, yielded: $s.syield, revoked: $s.srevok, expired: $s.sexpir}' <<<"$r"
"$SB" compare --within "$g" --baseline slice-dry >"$TMP/o" 2>/dev/null
check "power: the text shows the model beside the grants and the grants' ends" \
	grep -qE '^    kernel grants: [0-9]+, [0-9]+ ended in a yield, [0-9]+ revoked \([0-9]+ as the timer expired\)$' "$TMP/o"
