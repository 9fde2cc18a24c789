#!/usr/bin/env bash
# tier: quick
# t-answer.sh - a study's question (configs/questions/NAME.json) on a
# constructed result: the answer figure holds one row per declared pair
# and nothing else, a ratio beyond the axis is clipped and annotated, a
# collapse is marked, the verdict table states each row's MDE, the
# repetitions x1.25 and the published effect would need, and answer.json
# holds the same rows; a contrast against a
# published number ("reference") gets its t interval and above/below
# verdicts; and a bad question file is refused with its key, exit 2 and no
# report.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v gnuplot >/dev/null; then
	notok "answer: all: gnuplot is not installed (gnuplot-nox, from scripts/install-deps.sh check)"
	exit 0
fi
# Three thread counts; at each, tas+cs against its dry control tas+cs+dry,
# and spin-tas (policy none), which the question leaves out.  tas+cs is
# x1.1 at 1 thread, x10 at 2 (beyond the axis) and has two windows
# without an operation at 4 (a collapse); at 1 thread its windows
# alternate +-15%, so the design needs more than its 5 repetitions.  A
# window starts every 2 s.
jq '.results[0] as $r | .results = [
	(1, 2, 4) as $t |
	($r | .params.threads = $t | .nthreads = $t | .params.lock = "tas") as $p |
	($p | .workload = "spin-tas" | .params.policy = "none" | .params.dry = false),
	($p | .workload = "tas+cs+dry" | .params.policy = "cs" | .params.dry = true),
	($p | .workload = "tas+cs" | .params.policy = "cs" | .params.dry = false |
	 .repetitions |= (to_entries | map(.value.ops_per_sec *=
		(if $t == 1 then 1.1 * (if .key % 2 == 0 then 1.15 else 0.87 end) elif $t == 2 then 10 elif .key < 2 then 0 else 1 end)) |
		map(.value)))] |
	.results |= map(.repetitions |= (to_entries | map(.value.window_start_ns = .key * 2e9) | map(.value)))' \
	tests/fixtures/base.json >"$TMP/res.json"
cat >"$TMP/q.json" <<'Q'
{ "question": "Does the request change throughput beyond its stores?",
  "contrasts": [ { "name": "each placement vs its dry control",
    "treatment": { "dry": false }, "control": { "dry": true },
    "where": { "policy": ["cs"] }, "published": 1.23 } ] }
Q
out="$TMP/report"
"$SB" plot "$TMP/res.json" --question "$TMP/q.json" --out "$out" 2>"$TMP/err"
rc=$?
check "answer: plot with a question exits 0 (rc=$rc)" test "$rc" -eq 0
check "answer: answer.png and .svg rendered" test -s "$out/answer.png" -a -s "$out/answer.svg"
rows=$(grep -vc '^#\|^$' "$out/answer.dat")
check "answer: one row per pair, spin-tas left out ($rows of 3)" test "$rows" -eq 3
check "answer: every row is tas+cs against its control" \
	test "$(grep -c '^# .* | tas+cs$' "$out/answer.dat")" -eq 3
check "answer: the first figure of index.html is the answer" \
	test "$(grep -o 'src="[a-z_-]*\.png"' "$out/index.html" | head -1)" = 'src="answer.png"'
check "answer: the verdict table comes before the first figure" \
	awk '/id="question"/ {q = NR} /<img / && !i {i = NR} END {exit !(q && i && q < i)}' "$out/index.html"
# Columns: ratio lo hi y verdict mdelo mdehi where note.
x10=$(awk '/threads=2 \| tas\+cs$/ {getline; print}' "$out/answer.dat")
check "answer: x10 is drawn at the 4x edge, annotated with its value ($x10)" \
	awk -v l="$x10" 'BEGIN {split(l, f, " "); exit !(f[1] == 4 && f[8] == 2 && f[9] ~ /^x10(\.0)?$/ && f[5] == "improved")}'
col=$(awk '/threads=4 \| tas\+cs$/ {getline; print $5}' "$out/answer.dat")
check "answer: the 0-op windows are marked as a collapse ($col)" test "$col" = collapsed
one=$(awk '/threads=1 \| tas\+cs$/ {getline; print}' "$out/answer.dat")
check "answer: the noisy x1.1 is on the axis, inconclusive, with its MDE band around 1 ($one)" \
	awk -v l="$one" 'BEGIN {split(l, f, " "); exit !(f[1] > 1.05 && f[1] < 1.2 && f[8] == 0 && f[5] == "-" &&
		f[6] < 1 && f[7] > 1 && f[6] * f[7] > 0.999 && f[6] * f[7] < 1.001)}'
check "answer: the verdict table says the collapse" grep -q 'collapsed: 0 ops in 2 of 5 windows of B' "$out/index.html"
# answer.json: the same rows for scripts, each with the repetitions an MDE
# of x1.25 needs; the noisy 1-thread row (alternating +-15%) needs more
# than its 5, and the contrast states its time to x1.25.
aj=$out/answer.json
check "answer: answer.json has one row per pair" \
	test "$(jq '.contrasts[0].rows | length' "$aj" 2>/dev/null)" = 3
need=$(jq '.contrasts[0].rows[] | select(.point == "threads=1") | .mde_goal.reps' "$aj" 2>/dev/null)
check "answer: the noisy row needs more than its 5 windows for x1.25 ($need)" \
	jq -e --argjson n "${need:-0}" -n '$n > 5' >/dev/null
check "answer: the contrast's time to x1.25 is stated" \
	jq -e '.contrasts[0].time_to_goal | .mde == 1.25 and (.seconds | type) == "number"' "$aj" >/dev/null
check "answer: the table's row says the repetitions to x1.25" grep -q "<td>$need (" "$out/index.html"

# A verdict that rests on a dry control has that control's A/A check beside
# it: the committed time-scaled contention sweep, whose label aa holds the
# checks, answered by its question.
"$SB" plot results/reference/contention-ts.json.gz --question configs/questions/contention.json \
	--out "$TMP/cts" >/dev/null 2>&1
naa=$(jq '[.contrasts[].rows[] | select(.control_aa)] | length' "$TMP/cts/answer.json" 2>/dev/null)
nrows=$(jq '[.contrasts[].rows[]] | length' "$TMP/cts/answer.json" 2>/dev/null)
check "answer: every row against a dry control carries its A/A check ($naa of $nrows)" \
	test "${naa:-0}" -gt 0 -a "${naa:-0}" = "${nrows:-x}"
check "answer: the verdict table says the control's A/A check" \
	grep -q "the control's A/A check: \(valid\|invalid\|inconclusive\)" "$TMP/cts/index.html"

# The question pairs its arms under one label, so its control's name does
# not say dry; its rows read rare grants against a dry control as compare
# --within does.  The committed sized contention run: tas+rearm over its dry
# control at 4 threads moved with under 0.1 grants per 1000.
"$SB" plot results/reference/contention-primary-vm-lazy.json.gz \
	--question configs/questions/contention-primary.json --out "$TMP/cpq" >/dev/null 2>&1
rd=$(jq -r '[.contrasts[].rows[] | select(.treatment == "tas+rearm" and .point == "threads=4")][0].reading' \
	"$TMP/cpq/answer.json" 2>/dev/null)
wr=$("$SB" compare --within results/reference/contention-primary-vm-lazy.json.gz --baseline tas+rearm+dry \
	-f json 2>/dev/null | jq -r '[.rows[] | select(.b.workload == "tas+rearm" and .point == "threads=4")][0].reading')
check "answer: a question's row against a dry control reads rare grants as compare --within does ($rd)" \
	test -n "$rd" -a "$rd" = "$wr" -a -n "$(grep -F 'rare grants moved it against its dry control' <<<"$rd")"

# Pairs stay within their lock and placement: two locks, two placements
# each, every control at its own speed (tas+cs+dry 1, tas+pre+dry 2,
# adaptive+cs+dry 4, adaptive+pre+dry 8) and every treatment at 1.5 times
# its own control.  Before, the point key left out lock and policy (compare
# pairs by name) and the where's policy was stripped, so each treatment met
# the first control of its thread count: x0.19 to x12.
jq '.results[0] as $r | .results = [
	($r | .params.threads = 2 | .nthreads = 2) as $p |
	(["tas", 1], ["adaptive", 4]) as [$l, $f] | (["cs", 1], ["pre", 2]) as [$pol, $g] |
	($p | .params.lock = $l | .params.policy = $pol) as $q |
	($q | .workload = "\($l)+\($pol)+dry" | .params.dry = true |
	 .repetitions |= map(.ops_per_sec *= $f * $g)),
	($q | .workload = "\($l)+\($pol)" | .params.dry = false |
	 .repetitions |= map(.ops_per_sec *= 1.5 * $f * $g))]' tests/fixtures/base.json >"$TMP/locks.json"
cat >"$TMP/q2.json" <<'Q'
{ "question": "Within each lock and placement?",
  "contrasts": [ { "name": "each placement vs its dry control",
    "treatment": { "dry": false }, "control": { "dry": true },
    "where": { "policy": ["cs", "pre"] } } ] }
Q
"$SB" plot "$TMP/locks.json" --question "$TMP/q2.json" --out "$TMP/locks" 2>"$TMP/locks.err"
ratios=$(awk '/^# / {n = $NF; next} NF {printf "%s=%.2f ", n, $1}' "$TMP/locks/answer.dat")
check "answer: each treatment is paired with its own lock's and placement's control, all x1.5 ($ratios)" \
	test "$(awk '/^# / {next} NF && ($1 < 1.49 || $1 > 1.51) {bad++} NF {n++} END {print n + 0, bad + 0}' \
		"$TMP/locks/answer.dat")" = "4 0"
# The same pairs through compare (one label on both sides): the MDE and
# the repetitions the published x1.23 needs, n (ln mde / ln 1.23)^2.
jq '.results |= map(select(.workload == "tas+cs+dry") | .workload = "x")' "$TMP/res.json" >"$TMP/ctl.json"
jq '.results |= map(select(.workload == "tas+cs") | .workload = "x")' "$TMP/res.json" >"$TMP/trt.json"
"$SB" compare "$TMP/ctl.json" "$TMP/trt.json" -f json -o "$TMP/cmp.json" 2>/dev/null
mde=$(jq -r '.rows[] | select(.point | test("threads=1( |$)")) | .mde.ratio' "$TMP/cmp.json")
need=$(jq -r '.rows[] | select(.point | test("threads=1( |$)")) |
	5 * pow(((.mde.ratio | log) / (1.23 | log)); 2) | ceil' "$TMP/cmp.json")
got=$(grep -o 'threads=1</td>.*' "$out/index.html" | sed -n 's|.*<td>x\([0-9.]*\)</td><td>[0-9]* ([0-9]* s)</td><td>\([0-9]*\) (has 5).*|\1 \2|p')
check "answer: the table's MDE and reps for x1.23 are compare's (x$mde, $need reps; table: $got)" \
	awk -v g="$got" -v m="$mde" -v n="$need" 'BEGIN {split(g, f, " ");
		exit !(n > 5 && f[2] == n && f[1] / m > 0.995 && f[1] / m < 1.005)}'

# A contrast against a published number ("reference", harness/report/qref.h):
# gettid/xadd at three thread counts against 7.8: twice it, tight (above);
# around it, +-30% (inconclusive, its interval holding 1); 1/200 of it
# (below, beyond the widest axis: drawn at its edge with its value).
jq '.results[0] as $r | .results = [
	[1, [2, 2.02, 1.98, 2.04, 1.96]], [2, [1.3, 0.75, 1.1, 0.9, 1]], [4, [0.005, 0.005, 0.005, 0.005, 0.005]] |
	.[0] as $t | .[1] as $k |
	$r | .workload = "primitives" | .params.threads = $t | .nthreads = $t |
	.repetitions = [range(0; 5) as $i | .repetitions[$i] + {primitives: {gettid_per_xadd: (7.8 * $k[$i])}}]]' \
	tests/fixtures/base.json >"$TMP/prim.json"
cat >"$TMP/qref.json" <<'Q'
{ "question": "What does a syscall cost in atomic ops?",
  "contrasts": [ { "name": "gettid / xadd against 7.8", "metric": "gettid_per_xadd",
    "treatment": { "workload": "primitives" }, "reference": 7.8, "published_by": "Zijlstra" } ] }
Q
"$SB" plot "$TMP/prim.json" --question "$TMP/qref.json" --out "$TMP/ref" 2>"$TMP/ref.err"
rc=$?
check "answer: reference: plot exits 0 (rc=$rc)" test "$rc" -eq 0
check "answer: reference: one row per result (3)" test "$(grep -vc '^#\|^$' "$TMP/ref/answer.dat")" -eq 3
# The row at 1 thread: the geometric mean over 7.8 with Student's t
# interval on the logs (t(0.975, 4) = 2.776445), computed here apart.
want=$(awk 'BEGIN {n = split("2 2.02 1.98 2.04 1.96", v, " "); for (i = 1; i <= n; i++) m += log(v[i]) / n;
	for (i = 1; i <= n; i++) ss += (log(v[i]) - m) ^ 2; se = sqrt(ss / (n - 1) / n);
	printf "%.4f %.4f %.4f", exp(m), exp(m - 2.776445 * se), exp(m + 2.776445 * se)}')
one=$(awk '/threads=1 .*\| primitives$/ {getline; print}' "$TMP/ref/answer.dat")
check "answer: reference: x2 is above 7.8 with its t interval (want $want; row $one)" \
	awk -v l="$one" -v w="$want" 'BEGIN {split(l, f, " "); split(w, g, " ");
		exit !(f[5] == "above" && f[8] == 0 && (f[1] - g[1]) ^ 2 < 1e-6 && (f[2] - g[2]) ^ 2 < 1e-6 && (f[3] - g[3]) ^ 2 < 1e-6)}'
two=$(awk '/threads=2 .*\| primitives$/ {getline; print}' "$TMP/ref/answer.dat")
check "answer: reference: +-30% around 7.8 is inconclusive, its interval holding 1 ($two)" \
	awk -v l="$two" 'BEGIN {split(l, f, " "); exit !(f[5] == "-" && f[2] < 1 && f[3] > 1)}'
four=$(awk '/threads=4 .*\| primitives$/ {getline; print}' "$TMP/ref/answer.dat")
check "answer: reference: 1/200 is below, drawn at the 1/128 edge with its value ($four)" \
	awk -v l="$four" 'BEGIN {split(l, f, " "); exit !(f[5] == "below" && f[1] == 0.0078125 && f[8] == 1 && f[9] == "x5e-03")}'
check "answer: reference: the verdict table counts above, below, inconclusive" \
	grep -q '1 above, 1 below, 1 inconclusive' "$TMP/ref/index.html"
check "answer: reference: the axis says measured / published" grep -q 'measured / published' "$TMP/ref/answer.svg"

# Bad question files: the key or place named, exit 2, no report.
QDIR=$TMP
bad() { # bad NAME JSON EXPECTED-MESSAGE: the file in $QDIR
	printf '%s' "$2" >"$QDIR/$1.json"
	"$SB" plot "$TMP/res.json" --question "$QDIR/$1.json" --out "$TMP/out-$1" 2>"$TMP/$1.err"
	local rc=$?
	check "answer: $1: exit 2 (rc=$rc)" test "$rc" -eq 2
	check "answer: $1: says \"$3\"" grep -qF "$3" "$TMP/$1.err"
	check "answer: $1: no report written" test ! -e "$TMP/out-$1/index.html"
}
bad unknown-key '{"question": "q", "contrasts": [{"name": "n", "treatmnt": {"dry": false}, "control": {"dry": true}}]}' \
	"$TMP/unknown-key.json: contrasts[0].treatmnt: unknown key"
bad syntax '{"question": "q", "contrasts": [' "$TMP/syntax.json:1:"
bad metric '{"question": "q", "contrasts": [{"name": "n", "metric": "opps", "treatment": {"dry": false}, "control": {"dry": true}}]}' \
	'contrasts[0].metric: unknown metric "opps"'
bad no-control '{"question": "q", "contrasts": [{"name": "n", "treatment": {"dry": false}}]}' \
	'contrasts[0].control: expected an object of keys and values (not empty)'
bad ref-and-control '{"question": "q", "contrasts": [{"name": "n", "treatment": {"dry": false}, "control": {"dry": true}, "reference": 7.8}]}' \
	'contrasts[0].reference: a contrast has a control or a reference, not both'
bad ref-negative '{"question": "q", "contrasts": [{"name": "n", "treatment": {"dry": false}, "reference": -1}]}' \
	'contrasts[0].reference: expected a published value above 0'
bad published '{"question": "q", "contrasts": [{"name": "n", "treatment": {"dry": false}, "control": {"dry": true}, "published": 1}]}' \
	'contrasts[0].published: expected a ratio above 0, not 1'
# A contrast may name a published measurement by its id in a targets file
# (qtarget.h) instead of writing the number: the ratio becomes the line at
# the published effect, a value target the reference.
mkdir -p "$TMP/tg/q"
cat >"$TMP/tg/targets.json" <<'T'
{ "sources": { "s": { "who": "Somebody" } },
  "targets": [ { "id": "r", "source": "s", "kind": "ratio", "published": { "ratio": 1.37, "as_published": "+37%" } },
               { "id": "v", "source": "s", "kind": "value", "published": { "value": 7.8, "as_published": "7.8 xadds" } },
               { "id": "one", "source": "s", "kind": "ratio", "published": { "ratio": 1, "as_published": "0%" } } ] }
T
cat >"$TMP/tg/q/ratio.json" <<'Q'
{ "question": "q?", "targets": "../targets.json",
  "contrasts": [ { "name": "n", "treatment": { "dry": false }, "control": { "dry": true }, "target": "r" } ] }
Q
"$SB" plot "$TMP/res.json" --question "$TMP/tg/q/ratio.json" --out "$TMP/tg/out" 2>"$TMP/tg.err"
rc=$?
check "answer: target: a ratio target's question is accepted (rc=$rc)" test "$rc" -eq 0
check "answer: target: the published effect read from the targets file (x1.37)" \
	grep -q 'published effect x1.37' "$TMP/tg/out/index.html"
check "answer: target: its source and the figure as published" \
	grep -q 'Somebody: +37%' "$TMP/tg/out/index.html"
sed 's/"control": { "dry": true }, "target": "r"/"target": "v"/; s/"name": "n"/"name": "n", "metric": "gettid_per_xadd"/; s/"dry": false/"workload": "primitives"/' \
	"$TMP/tg/q/ratio.json" >"$TMP/tg/q/value.json"
"$SB" plot "$TMP/prim.json" --question "$TMP/tg/q/value.json" --out "$TMP/tg/vout" 2>"$TMP/tg.err"
rc=$?
check "answer: target: a value target is the reference (rc=$rc; the same rows as reference 7.8)" \
	cmp -s "$TMP/tg/vout/answer.dat" "$TMP/ref/answer.dat"
QDIR=$TMP/tg/q # bad questions beside the targets file
C='"treatment": {"dry": false}, "control": {"dry": true}'
bad target-unknown '{"question": "q", "targets": "../targets.json", "contrasts": [{"name": "n", '"$C"', "target": "nope"}]}' \
	"$TMP/tg/q/target-unknown.json: contrasts[0].target: \"nope\" is not a target of $TMP/tg/q/../targets.json"
bad target-nofile '{"question": "q", "contrasts": [{"name": "n", '"$C"', "target": "r"}]}' \
	'contrasts[0].target "r": the question names no "targets" file'
bad target-missing '{"question": "q", "targets": "../nothere.json", "contrasts": [{"name": "n", '"$C"', "target": "r"}]}' \
	'target-missing.json: targets "../nothere.json": '"$TMP/tg/q/../nothere.json:"
bad target-and-number '{"question": "q", "targets": "../targets.json", "contrasts": [{"name": "n", '"$C"', "target": "r", "published": 1.2}]}' \
	'contrasts[0].target: a contrast names a target or writes its published number, not both'
bad target-one '{"question": "q", "targets": "../targets.json", "contrasts": [{"name": "n", '"$C"', "target": "one"}]}' \
	'contrasts[0].published: expected a ratio above 0, not 1'

# Every committed question file is one plot accepts.
for q in configs/questions/*.json; do
	"$SB" plot "$TMP/res.json" --question "$q" --out "$TMP/cq" >/dev/null 2>"$TMP/cq.err"
	check "answer: $q is a valid question (rc=$?)" test ! -s "$TMP/cq.err" -o -z "$(grep -- '--question' "$TMP/cq.err")"
done
