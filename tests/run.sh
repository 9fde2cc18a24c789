#!/usr/bin/env bash
# run.sh - runs the test programs and the scripts of the selected tier
# (tests/select.sh: SLICEBENCH_TIER quick|check|all|san), counts their
# "ok"/"not ok" lines, and ends with "N passed (G in the guest), N failed,
# N skipped".  Each test's time is printed after it ("# t-x.sh: 12 s").
# A program that exits non-zero without printing a "not ok" counts as one
# failure.  A test skips only what the user asked to leave out
# (TESTS_SKIP, SLICEBENCH_VM_TESTS=0, or all but the TESTS named); anything
# that cannot run is a "not ok" with its reason.  The scripts of other
# tiers are not run and are named once, at the start.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
export SB=${SB:-$BUILD/slicebench} BUILD

pass=0 fail=0 skip=0 guest=0
log=$(mktemp) failed=$(mktemp)
# the batched guest boot's results (tests/artefacts.sh: guest-lazy), this
# run's own
SLICEBENCH_GUEST_DIR=$(mktemp -d)
export SLICEBENCH_GUEST_DIR
trap 'rm -rf "$log" "$failed" "$SLICEBENCH_GUEST_DIR"' EXIT

# shellcheck source=tests/select.sh
. tests/select.sh

# left_out NAME: the user left NAME out (TESTS_SKIP names it, or TESTS
# names only others); says so as a skip.
left_out() {
	local why
	why=$(left_out_why "$1")
	[ -n "$why" ] || return 1
	echo "ok $1 # SKIP $why"
	skip=$((skip + 1))
}

run_one() {
	local name=$1 t0=$SECONDS
	shift
	echo "# $name"
	# No test reads a terminal; /dev/null also gives a test fd 0 when
	# the caller has none (a CI job without standard input).
	"$@" </dev/null >"$log" 2>&1
	local rc=$? nf
	cat "$log"
	echo "# $name: $((SECONDS - t0)) s"
	local p f s
	p=$(grep -c '^ok ' "$log")
	s=$(grep -c '^ok .*# SKIP' "$log")
	f=$(grep -c '^not ok ' "$log")
	nf=$f
	grep '^not ok ' "$log" | sed "s|^|$name: |" >>"$failed"
	guest=$((guest + $(grep '^ok vm: ' "$log" | grep -vc '# SKIP')))
	if [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ]; then
		echo "not ok $name: exited with status $rc" | tee -a "$failed"
		f=$((f + 1))
	fi
	pass=$((pass + p - s))
	skip=$((skip + s))
	fail=$((fail + f))
}

# Every artefact the selected tests need (tests/artefacts.sh), built
# before the first test: no test depends on another having built it.  Its
# output is shown as it comes (a cold kernel build takes half an hour and
# says how far it is), then counted like a test's.
tier=${SLICEBENCH_TIER:-check}
case "$tier" in quick | check | all | san) ;; *)
	echo "not ok tests/run.sh: SLICEBENCH_TIER '$tier' is not one of quick, check, all, san"
	echo "0 passed (0 in the guest), 1 failed, 0 skipped"
	exit 1 ;;
esac
# Every script declares a tier; the others' names are said once.
others="" untiered=""
for t in tests/t-*.sh; do
	[ -n "$(test_tier "$t")" ] || untiered+=" ${t##*/}"
	w=$(tier_out_why "$t")
	[ -z "$w" ] || others+=" ${t##*/}(${w#tier })"
done
echo "# tier $tier; not in it:${others:- none}"
if [ -n "$untiered" ]; then
	echo "not ok tests/run.sh: no '# tier:' line in:$untiered" | tee -a "$failed"
	fail=$((fail + 1))
fi
echo "# prepare"
tests/prepare.sh </dev/null 2>&1 | tee "$log"
prc=${PIPESTATUS[0]}
ps=$(grep -c '^ok .*# SKIP' "$log")
pass=$((pass + $(grep -c '^ok ' "$log") - ps))
skip=$((skip + ps))
pf=$(grep -c '^not ok ' "$log")
grep '^not ok ' "$log" | sed "s|^|prepare: |" >>"$failed"
if [ "$prc" -ne 0 ] && [ "$pf" -eq 0 ]; then
	echo "not ok prepare: exited with status $prc" | tee -a "$failed"
	pf=1
fi
fail=$((fail + pf))
for t in "$BUILD"/tests/*; do
	if [ ! -x "$t" ] || [ ! -f "$t" ]; then continue; fi
	left_out "${t##*/}" || run_one "${t##*/}" "$t"
done
if [ "$tier" = san ] && ! left_out tsan-torture; then
	run_one "torture (ThreadSanitizer)" build/san-thread/tests/torture 2000 --no-control
fi
for t in tests/t-*.sh; do
	[ -f "$t" ] || continue
	[ -z "$(tier_out_why "$t")" ] || continue
	left_out "${t##*/}" || run_one "${t##*/}" bash "$t"
done
# What failed, again, just above the count: a log cut to its tail (a CI
# page) still says which checks failed and why.
if [ -s "$failed" ]; then
	echo "# failed:"
	sed 's/^/#   /' "$failed"
fi
echo "$pass passed ($guest in the guest), $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
