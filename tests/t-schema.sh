#!/usr/bin/env bash
# tier: quick
# t-schema.sh - the result schema (harness/lib/fields.h): docs/result-schema.md
# is what `slicebench schema` prints; a result the harness writes here
# carries only fields the table declares, with their types, and every field
# the table requires; a wrong type or a missing required field is named with
# its key and value, exit 2.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

if "$SB" schema >"$TMP/schema.md" && diff -u docs/result-schema.md "$TMP/schema.md" >"$TMP/diff"; then
	ok "schema: docs/result-schema.md is what slicebench schema prints"
else
	notok "schema: docs/result-schema.md is stale; regenerate it with build/slicebench schema"
	sed 's/^/# /' "$TMP/diff" | head -n 20
fi

# A real result of this host: every workload of the CI suite.
out=$TMP/ci.json
if ! "$SB" run --config configs/ci.json --out "$out" -q >"$TMP/run.log" 2>&1; then
	notok "schema: slicebench run --config configs/ci.json failed: $(tail -n 1 "$TMP/run.log")"
	exit 0
fi
"$SB" validate --strict "$out" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "schema: a fresh ci result has only declared fields of the declared types (exit $rc): \"$(head -n 1 "$TMP/err")\"" \
	test "$rc" -eq 0
n=$(jq '[.results[] | select(.status == "ok")] | length' "$out")
check "schema: the ci result has ok results to check ($n)" test "$n" -gt 0
check "schema: the reference results have only declared fields" "$SB" validate --strict results/reference

# bad NAME JQ MESSAGE: the edited fresh result fails with MESSAGE, exit 2,
# nothing on stdout.
bad() {
	local name=$1 prog=$2 msg=$3 rc
	jq "$prog" "$out" >"$TMP/$name.json"
	"$SB" validate "$TMP/$name.json" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "schema: $name: exit 2 (got $rc), nothing on stdout" test "$rc" -eq 2 -a ! -s "$TMP/out"
	check "schema: $name: says \"$msg\" (got \"$(head -n 1 "$TMP/err")\")" grep -qF "$msg" "$TMP/err"
}
i=$(jq '[.results[].status] | index("ok")' "$out")
u=$(jq '[.results[].status] | index("unsupported")' "$out")
bad wrong-type ".results[$i].summary.fairness_jain = \"high\"" \
	"results[$i].summary.fairness_jain: must be a number (got \"high\")"
bad wrong-type-rep ".results[$i].repetitions[0].exclusion_ok = 1" \
	"results[$i].repetitions[0].exclusion_ok: must be true or false (got 1)"
bad wrong-type-meta '.meta.topology.pus = "two"' \
	'meta.topology.pus: must be a number (got "two")'
bad missing-required ".results[$i].summary |= del(.hold_ns)" \
	"results[$i].summary.hold_ns: is required in an ok result of the lock loop (missing)"
bad missing-with ".results[$i].summary.ops_per_sec |= del(.ci95_hi)" \
	"results[$i].summary.ops_per_sec.ci95_hi: is required (missing)"
bad missing-nthreads ".results[$i] |= del(.nthreads)" \
	"results[$i].nthreads: is required in an ok result (missing)"
if [ "$u" != null ]; then
	bad missing-reason ".results[$u] |= del(.reason)" \
		"results[$u].reason: is required in a result that is not ok (missing)"
else
	notok "schema: the ci result on this host has no unsupported result to strip the reason of"
fi
# --strict alone names an undeclared key: plain validate accepts it (a
# --meta key is one).
jq ".results[$i].summary.ops_per_second = 5" "$out" >"$TMP/typo.json"
check "schema: an undeclared key passes plain validate" "$SB" validate "$TMP/typo.json"
"$SB" validate --strict "$TMP/typo.json" >/dev/null 2>"$TMP/err"
rc=$?
check "schema: --strict: an undeclared key is exit 2 (got $rc)" test "$rc" -eq 2
check "schema: --strict names it: \"$(head -n 1 "$TMP/err")\"" grep -qF \
	"results[$i].summary.ops_per_second: is not a field of the result schema (docs/result-schema.md) (got 5)" "$TMP/err"
