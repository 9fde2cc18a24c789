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

# run_one NAME COMMAND...: runs a test now and counts it
run_one() {
	local name=$1 t0=$SECONDS rc
	shift
	# No test reads a terminal; /dev/null also gives a test fd 0 when
	# the caller has none (a CI job without standard input).
	"$@" </dev/null >"$log" 2>&1
	rc=$?
	count "$name" "$log" "$rc" $((SECONDS - t0))
}

# count NAME LOG RC SECONDS: prints a finished test's log and time, and
# adds its lines to the counts
count() {
	local name=$1 log=$2 rc=$3 nf
	echo "# $name"
	cat "$log"
	echo "# $name: $4 s"
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
# The scripts, SLICEBENCH_TEST_JOBS at a time (make check-quick: 2; else
# 1), the longest first by their last times here ($BUILD/test-times).  A
# script whose verdict rests on time (an ETA, a CPU hog, a count of
# context switches) says "# alone: WHY" and runs after the others with
# nothing beside it, as do the guest's.  Each one's log is printed whole
# when it ends.
JOBS=${SLICEBENCH_TEST_JOBS:-1}
times=$BUILD/test-times
jobdir=$(mktemp -d)
trap 'rm -rf "$log" "$failed" "$SLICEBENCH_GUEST_DIR" "$jobdir"' EXIT
running=()
# reap: counts every script that has ended
reap() {
	local keep=() n
	for n in "${running[@]}"; do
		if [ -f "$jobdir/$n.rc" ]; then
			count "$n" "$jobdir/$n.log" "$(cat "$jobdir/$n.rc")" "$(cat "$jobdir/$n.s")"
			echo "$n $(cat "$jobdir/$n.s")" >>"$jobdir/times"
		else
			keep+=("$n")
		fi
	done
	running=("${keep[@]}")
}
# below N: waits until fewer than N scripts run
below() {
	while [ "${#running[@]}" -ge "$1" ]; do
		wait -n 2>/dev/null
		reap
	done
}
# start SCRIPT: runs it in the background into $jobdir
start() {
	local n=${1##*/}
	(
		t0=$SECONDS
		bash "$1" </dev/null >"$jobdir/$n.log" 2>&1
		rc=$?
		echo $((SECONDS - t0)) >"$jobdir/$n.s"
		echo "$rc" >"$jobdir/$n.rc.tmp" && mv "$jobdir/$n.rc.tmp" "$jobdir/$n.rc"
	) &
	running+=("$n")
}
shared=() alone=()
while read -r _ t; do
	[ -z "$(tier_out_why "$t")" ] || continue
	left_out "${t##*/}" && continue
	case "$(test_tier "$t")" in
	guest* | all*) alone+=("$t") ;;
	*) if grep -q '^# alone:' "$t"; then alone+=("$t"); else shared+=("$t"); fi ;;
	esac
done < <(for t in tests/t-*.sh; do
	[ -f "$t" ] || continue
	if [ -f "$times" ]; then
		echo "$(awk -v n="${t##*/}" '$1 == n { s = $2 } END { print s + 0 }' "$times") $t"
	else
		echo "0 $t"
	fi
done | sort -k1,1nr -k2,2 -s)
for t in "${shared[@]}"; do
	below "$JOBS"
	start "$t"
done
below 1
for t in "${alone[@]}"; do
	start "$t"
	below 1
done
# this run's times, and the last ones of the scripts it did not run
if [ -s "$jobdir/times" ]; then
	{ cat "$jobdir/times"; [ ! -f "$times" ] || awk 'NR == FNR { seen[$1] = 1; next } !seen[$1]' "$jobdir/times" "$times"; } \
		>"$jobdir/times.all" && cp "$jobdir/times.all" "$times" 2>/dev/null || true
fi

# What failed, again, just above the count: a log cut to its tail (a CI
# page) still says which checks failed and why.
if [ -s "$failed" ]; then
	echo "# failed:"
	sed 's/^/#   /' "$failed"
fi
echo "$pass passed ($guest in the guest), $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
