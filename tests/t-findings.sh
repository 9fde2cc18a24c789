#!/usr/bin/env bash
# tier: host
# t-findings.sh - the committed reference results validate against the
# result schema, and every number FINDINGS.md quotes from them is what the
# JSON says (scripts/findings-check.sh); a tampered copy and a broken
# result must be caught, or the check proves nothing.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

scripts/findings-check.sh FINDINGS.md results/reference >"$TMP/out" 2>&1
rc=$?
# Each failed number is a failure of its own; the passing ones are detail.
grep '^not ok' "$TMP/out"
grep -v '^not ok' "$TMP/out" | sed 's/^/# /'
n=$(grep -c '^ok findings: FINDINGS.md:' "$TMP/out")
check "findings: check passes with $n sourced numbers" test "$rc" -eq 0 -a "$n" -ge 10

# The last digit of the first sourced number, changed.
ln=$(grep -n -m1 -P '\d[^\d\s]*<!-- = ' FINDINGS.md | cut -d: -f1)
perl -pe 'if ($. == '"$ln"') { s/(\d)(?=[^\d\s]*<!-- = )/($1 + 1) % 10/e }' FINDINGS.md >"$TMP/F.md"
if ! cmp -s FINDINGS.md "$TMP/F.md" && ! scripts/findings-check.sh "$TMP/F.md" results/reference >"$TMP/out2" 2>&1 &&
	grep -q "^not ok findings: F.md:$ln: FINDINGS.md says" "$TMP/out2"; then
	ok "findings: a changed number on line $ln is caught"
else
	notok "findings: a changed number on line $ln went unnoticed"
fi

# --update writes the recomputed number back, and only that number.
cp "$TMP/F.md" "$TMP/U.md"
scripts/findings-check.sh --update "$TMP/U.md" results/reference >"$TMP/out4" 2>&1
check "findings: --update names the change on line $ln" grep -q "^updated findings: U.md:$ln: " "$TMP/out4"
check "findings: --update restores the changed number and nothing else" cmp -s FINDINGS.md "$TMP/U.md"

# A marker whose jq gives several values is an error, never a value, and
# --update leaves it as it was.
f=$(cd results/reference && ls -- *.json.gz | head -1)
f=${f%.gz}
printf 'x ok<!-- = %s :: .results[].status :: %%s -->\n' "$f" >"$TMP/M.md"
cp "$TMP/M.md" "$TMP/M0.md"
scripts/findings-check.sh --update "$TMP/M.md" results/reference >"$TMP/out5" 2>&1
check "findings: a marker with several values is caught: $(grep -m1 '^not ok findings: M.md' "$TMP/out5")" \
	grep -q "^not ok findings: M.md:1: jq '.results\[\].status' on $f gives [0-9]* values, not one" "$TMP/out5"
check "findings: ... and --update does not touch it" cmp -s "$TMP/M0.md" "$TMP/M.md"

# A reference result that breaks the schema.
mkdir -p "$TMP/ref"
cp results/reference/*.json.gz "$TMP/ref/"
f=$(find "$TMP/ref" -name '*.json.gz' | head -1)
gzip -cd "$f" | jq '.results[0].status = "fine"' | gzip >"$TMP/x" && mv "$TMP/x" "$f"
scripts/findings-check.sh FINDINGS.md "$TMP/ref" >"$TMP/out3" 2>&1
check "findings: a result with a bad status fails validation" \
	grep -q "^not ok findings: .*results\[0\]\.status: must be ok, unsupported, failed or interrupted" "$TMP/out3"
