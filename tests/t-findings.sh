#!/usr/bin/env bash
# tier: host
# t-findings.sh - the committed reference results validate against the
# result schema, and every number FINDINGS.md and its study pages
# (docs/findings/*.md) quote from them is what the JSON says, through the
# source table docs/findings/sources.tsv (scripts/findings-check.sh); a
# tampered copy, an unknown or uncited id and a broken result must be
# caught, or the check proves nothing.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

scripts/findings-check.sh >"$TMP/out" 2>&1
rc=$?
# Each failed number is a failure of its own; the passing ones are detail.
grep '^not ok' "$TMP/out"
grep -v '^not ok' "$TMP/out" | sed 's/^/# /'
n=$(grep -c '^ok findings: [^ ]*\.md:' "$TMP/out")
pages=$(grep -o '^ok findings: [^ :]*\.md' "$TMP/out" | sort -u | wc -l)
check "findings: check passes with $n sourced numbers on $pages pages" test "$rc" -eq 0 -a "$n" -ge 1000 -a "$pages" -ge 10
rows=$(grep -vc '^#' docs/findings/sources.tsv)
check "findings: every source id is cited ($rows ids, $n citations)" test "$n" -ge "$rows"

# The last digit of the first sourced number of a study page, changed.
P=docs/findings/01-rostedt-poc.md
ln=$(grep -n -m1 -P '\d[^\d\s]*<!--s\d+-->' "$P" | cut -d: -f1)
perl -pe 'if ($. == '"$ln"') { s/(\d)(?=[^\d\s]*<!--s\d+-->)/($1 + 1) % 10/e }' "$P" >"$TMP/F.md"
if ! cmp -s "$P" "$TMP/F.md" && ! scripts/findings-check.sh "$TMP/F.md" results/reference >"$TMP/out2" 2>&1 &&
	grep -q "^not ok findings: F.md:$ln: the page says" "$TMP/out2"; then
	ok "findings: a changed number on line $ln is caught"
else
	notok "findings: a changed number on line $ln went unnoticed"
fi

# --update writes the recomputed number back, and only that number.
cp "$TMP/F.md" "$TMP/U.md"
scripts/findings-check.sh --update "$TMP/U.md" results/reference >"$TMP/out4" 2>&1
check "findings: --update names the change on line $ln" grep -q "^updated findings: U.md:$ln: " "$TMP/out4"
check "findings: --update restores the changed number and nothing else" cmp -s "$P" "$TMP/U.md"

# A marker whose jq gives several values is an error, never a value, and
# --update leaves it as it was.
f=$(cd results/reference && ls -- *.json.gz | head -1)
f=${f%.gz}
printf 's1\t%s\t.results[].status\t%%s\n' "$f" >"$TMP/M.tsv"
printf 'x ok<!--s1-->\n' >"$TMP/M.md"
cp "$TMP/M.md" "$TMP/M0.md"
scripts/findings-check.sh --update --sources "$TMP/M.tsv" "$TMP/M.md" results/reference >"$TMP/out5" 2>&1
check "findings: a marker with several values is caught: $(grep -m1 '^not ok findings: M.md' "$TMP/out5")" \
	grep -q "^not ok findings: M.md:1: jq '.results\[\].status' on $f gives [0-9]* values, not one" "$TMP/out5"
check "findings: ... and --update does not touch it" cmp -s "$TMP/M0.md" "$TMP/M.md"

# An id the table lacks, and a table id no page cites.
printf 'x 1<!--s99999-->\n' >"$TMP/N.md"
scripts/findings-check.sh "$TMP/N.md" results/reference >"$TMP/out6" 2>&1
check "findings: an id the table does not have is caught: $(grep -m1 '^not ok findings: N.md' "$TMP/out6")" \
	grep -q "^not ok findings: N.md:1: s99999 is not in sources.tsv" "$TMP/out6"
mkdir -p "$TMP/tree/scripts" "$TMP/tree/docs/findings"
cp scripts/findings-check.sh "$TMP/tree/scripts/"
cp FINDINGS.md "$TMP/tree/"
cp docs/findings/*.md "$TMP/tree/docs/findings/"
{ cat docs/findings/sources.tsv; printf 's99999\t%s\t.schema\t%%s\n' "$f"; } >"$TMP/tree/docs/findings/sources.tsv"
SB=$PWD/$SB "$TMP/tree/scripts/findings-check.sh" "$PWD/results/reference" >"$TMP/out7" 2>&1
check "findings: a table id no page cites is caught: $(grep -m1 's99999' "$TMP/out7")" \
	grep -q "^not ok findings: sources.tsv: s99999 is cited by no page" "$TMP/out7"

# A reference result that breaks the schema.
mkdir -p "$TMP/ref"
cp results/reference/*.json.gz "$TMP/ref/"
f=$(find "$TMP/ref" -name '*.json.gz' | head -1)
gzip -cd "$f" | jq '.results[0].status = "fine"' | gzip >"$TMP/x" && mv "$TMP/x" "$f"
scripts/findings-check.sh FINDINGS.md "$TMP/ref" >"$TMP/out3" 2>&1
check "findings: a result with a bad status fails validation" \
	grep -q "^not ok findings: .*results\[0\]\.status: must be ok, unsupported, failed or interrupted" "$TMP/out3"

# No committed comparison carries a hidden key (compare's " seen" set once
# leaked into them): every key is a name, with no space at either end.
bad=$(for f in results/reference/compare/*.json.gz; do
	gzip -cd "$f" | jq -r --arg f "${f##*/}" '[paths | .[] | strings | select(test("^ | $"))] | unique[] | "\($f): \"\(.)\""'
done)
check "findings: no key of a committed compare JSON starts or ends with a space${bad:+: $(head -3 <<<"$bad" | tr '\n' ' ')}" test -z "$bad"

# Every target of configs/replicate/targets.json has, on the published
# numbers' page, exactly the verdict the replication report gives it.
# verdict_diff PAGE REPORT-JSON: one line per target that differs.
verdict_diff() {
	local id want got
	for id in $(jq -r '.targets[].id' configs/replicate/targets.json); do
		want=$(jq -r --arg id "$id" '.rows[] | select(.id == $id) | .verdict' "$2")
		got=$(awk -F'|' -v id="$id" '{ c = $2; gsub(/<!--[^>]*-->|^ +| +$/, "", c) }
			c == id { v = $7; gsub(/<!--[^>]*-->/, "", v); gsub(/&nbsp;/, " ", v); gsub(/^ +| +$/, "", v); print v; exit }' "$1")
		[ "$got" = "$want" ] || echo "$id: the page says '${got:-nothing}', replicate.json '${want:-nothing}'"
	done
}
P10=docs/findings/10-published.md
gzip -cd results/reference/replicate-vm/replicate/replicate.json.gz >"$TMP/rep.json"
bad=$(verdict_diff "$P10" "$TMP/rep.json")
check "findings: every target's verdict on $P10 is replicate.json's${bad:+: $(tr '\n' ';' <<<"$bad")}" test -z "$bad"
id=$(jq -r '.rows[0].id' "$TMP/rep.json")
jq --arg id "$id" '(.rows[] | select(.id == $id) | .verdict) |= (if . == "contradicted" then "reproduced" else "contradicted" end)' \
	"$TMP/rep.json" >"$TMP/rep2.json"
check "findings: a verdict that differs is named: $(verdict_diff "$P10" "$TMP/rep2.json")" \
	grep -q "^$id: the page says '.*', replicate.json '.*'" <<<"$(verdict_diff "$P10" "$TMP/rep2.json")"

# FINDINGS' first page is generated from the verdicts: the committed block
# is what scripts/findings-page1.sh makes of the committed results, and a
# block edited by hand is caught.
out=$(scripts/findings-page1.sh --check 2>&1)
check "findings: page 1 is the kit's verdicts as generated ($out)" test $? -eq 0 -a -n "$out"
sed 's/^\*\*Bottom line\.\*\*  Of \([0-9]*\) published/**Bottom line.**  Of 99 published/' FINDINGS.md >"$TMP/page.md"
FINDINGS_PAGE=$TMP/page.md scripts/findings-page1.sh --check >/dev/null 2>"$TMP/p1.err"
rc=$?
check "findings: ... a hand-edited count is stale: exit $rc, $(cat "$TMP/p1.err" | cut -c1-120)" \
	test "$rc" -eq 1 -a -n "$(grep 'is stale' "$TMP/p1.err")"

# The dose-response figure is drawn from its committed result, one series
# per threads per PU and section; a result without the arms is refused.
scripts/dose-response.sh "$(ref_json dose-response-vm)" "$TMP/dose.svg" >/dev/null 2>"$TMP/dose.err"
check "findings: the dose-response figure draws its four series ($(grep -c '<title>' "$TMP/dose.svg" 2>/dev/null) titles)" \
	test "$(grep -cE '>(2x|4x) cs (1000|4000)<' "$TMP/dose.svg")" -eq 4
scripts/dose-response.sh "$(ref_json contention-host)" "$TMP/none.svg" >/dev/null 2>"$TMP/dose.err"
rc=$?
check "findings: ... a result without slice-spin above 1x: exit 2 ($rc), $(cat "$TMP/dose.err")" \
	test "$rc" -eq 2 -a ! -e "$TMP/none.svg"
