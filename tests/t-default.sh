#!/usr/bin/env bash
# tier: quick
# t-default.sh - the default suite (configs/quick.json) and its report:
# every run that requests the extension has its dry control at the same
# point, so on a kernel with the extension the default answer is each
# slice workload against its dry control (configs/questions/quick.json),
# not against spin-tas; the suite plans about what it did (41 s); the
# first line of run's table and of the report says whether the
# extension ran and, if not, the reason the result records, which the
# table then does not repeat.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

# Each requesting point (policy other than none, not dry) beside its dry
# control: the same params but workload and dry.
"$SB" run -n -c configs/quick.json 2>/dev/null | cut -d' ' -f3- >"$TMP/points"
miss=$(jq -s -r '(map(select(.dry == true) | del(.dry)) | map(tojson)) as $dry
	| map(select(.policy != "none" and .dry == false))
	| (length | tostring) + " " + ([.[] | del(.dry) | select((tojson | IN($dry[])) | not)
		| "\(.lock)+\(.policy) threads=\(.threads) noise=\(.noise)"] | join(", "))' "$TMP/points")
check "default: quick.json: each of its ${miss%% *} requesting runs has its dry control${miss#* } " \
	test -n "${miss%% *}" -a "${miss%% *}" -gt 0 -a -z "${miss#* }"
planned=$("$SB" run -p -c configs/quick.json)
check "default: quick.json plans $planned s, about the 41 s it planned before its dry controls (<= 45)" \
	test "$planned" -le 45

# The default suite, shortened, through ./run.sh: its table and report.
name=t-default-$$
trap 'rm -rf "$TMP" "plots/$name"' EXIT
jq '.defaults += {"duration_s": 0.05, "warmup_s": 0, "repetitions": 2, "events": []}' \
	configs/quick.json >"$TMP/quick.json"
./run.sh --config "$TMP/quick.json" --out "$TMP/$name.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "default: ./run.sh on the shortened default suite exits 0 ($rc; $(tail -n 1 "$TMP/err"))" \
	test "$rc" = 0 -a -s "$TMP/$name.json"
why=$(jq -r '[.results[] | select(.status == "unsupported") | .reason][0] // empty' "$TMP/$name.json")
first=$(head -n 1 "$TMP/out")
if [ -n "$why" ]; then
	check "default: the table's first line says the extension did not run, and why ($first)" \
		test "$first" = "slice extension: did not run (kernel $(uname -r)): $why"
	n=$(grep -cF -- "$why" "$TMP/out" "$TMP/err" | awk -F: '{ s += $2 } END { print s }')
	# once in the table's first line, once in the progress; not in a row
	# nor in the ways forward
	check "default: ./run.sh states the reason twice, not once per row ($n: the progress, the summary)" \
		test "$n" = 2
else
	check "default: the table's first line says the extension ran ($first)" \
		grep -q '^slice extension: ran (kernel ' <<<"$first"
fi
html=plots/$name/index.html
check "default: the report's first line after its title is the table's ($(grep -A1 '<h1>' "$html" | tail -n 1 | head -c 160))" \
	test "$(grep -A1 '<h1>' "$html" | tail -n 1)" = "<p class=\"ext\">$(sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g' <<<"$first")</p>"
check "default: the report asks configs/questions/quick.json's question" \
	grep -q 'id="question"' "$html"

# The same result as a kernel with the extension would have written it:
# each unsupported row its dry control's numbers with the request granted.
jq '.meta.kernel.release = "7.3.0" | .meta.slice_extension = {"available": true, "reason": null}
	| .results as $all | .results |= map(if .status == "unsupported" then (. as $u
		| first($all[] | select(.label == $u.label and .params.dry == true and .status == "ok"
			and .params.lock == $u.params.lock and .params.policy == $u.params.policy))
		| .workload = $u.workload | .params.dry = false
		| .summary.slice.grants = 10 | .summary.slice.requests = 1000) else . end)' \
	"$TMP/$name.json" >"$TMP/r7.json"
want=$(jq '[.results[] | select(.params.policy != "none" and .params.dry == false)] | length' "$TMP/r7.json")
"$SB" plot "$TMP/r7.json" --question configs/questions/quick.json --baseline spin-tas \
	--out "$TMP/p7" 2>"$TMP/perr"
got=$(grep -c '^# ' "$TMP/p7/answer.dat")
slices=$(grep '^# ' "$TMP/p7/answer.dat" | grep -c '| slice-[a-z]*$')
check "default: on 7.x the answer is each of the $want slice runs against its dry control ($got rows, $slices slice-*)" \
	test "$want" -gt 0 -a "$got" = "$want" -a "$slices" = "$want"
check "default: on 7.x the report's first line says the extension ran" \
	grep -q "<p class=\"ext\">slice extension: ran (kernel 7.3.0, $want runs): $((want * 10)) of $((want * 1000)) requests granted</p>" \
	"$TMP/p7/index.html"
# the control: without the dry controls the answer has nothing to pair
jq '.results |= map(select(.params.dry != true))' "$TMP/r7.json" >"$TMP/nodry.json"
"$SB" plot "$TMP/nodry.json" --question configs/questions/quick.json --out "$TMP/pn" 2>/dev/null
check "default: control: without the dry controls there is no answer" \
	test ! -s "$TMP/pn/answer.dat" -o "$(grep -c '^# ' "$TMP/pn/answer.dat" 2>/dev/null)" = 0
