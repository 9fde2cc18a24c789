#!/usr/bin/env bash
# tier: quick
# alone: its lock-less control must lose counts, which takes the PUs to itself
# t-preload.sh - the preload library under a program linked normally:
# mutual exclusion through the interposed calls (exact counts, and a
# control without the lock that shows the count can fail), nesting and
# condition variables (the counts it writes, the request clear outside
# locks and across waits), every outcome of every interposed call under
# each mode with balanced counts, a program that never locks left unchanged, and
# the real mode refusing with the kernel's reason where the extension is
# missing (on a kernel with it, the real mode must count exactly instead).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}
LIB=$BUILD/libslicepreload.so
PT=$BUILD/preload-tests/ptorture
PS=$BUILD/preload-tests/psemantics

for f in "$LIB" "$PT" "$PS"; do
	if [ ! -e "$f" ]; then
		notok "preload: $f not built (make all $PT)"
		exit 0
	fi
done
LIB=$(cd "$(dirname "$LIB")" && pwd)/$(basename "$LIB")

# under MODE-ARGS... -- PROGRAM...: run with the library; output in
# $TMP/out, stderr in $TMP/err, stats in $TMP/stats.json, status in $rc.
under() {
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	rm -f "$TMP/stats.json"
	env "${env[@]}" SLICEBENCH_PRELOAD_STATS="$TMP/stats.json" LD_PRELOAD="$LIB" \
		"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}
val() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/out"; }
st() { jq -r "$1" "$TMP/stats.json" 2>/dev/null; }
want() { # want DESCRIPTION CONDITION-AS-TEST-ARGS...
	local d=$1
	shift
	if [ "$@" ]; then ok "preload: $d"; else notok "preload: $d (stats: $(jq -c . "$TMP/stats.json" 2>/dev/null); out: $(tr '\n' ' ' <"$TMP/out"); err: $(cat "$TMP/err"))"; fi
}

threads=4 iters=40000
"$PT" locks "$threads" "$iters" >"$TMP/out"
want "torture without the library counts exactly ($(val count))" "$?" = 0 -a "$(val count)" = $((threads * iters))
# ten times the operations, then more: on a loaded machine (two PUs shared
# with a build) a short unlocked run may happen not to interleave
for x in 10 40 160; do
	"$PT" nolock "$threads" $((iters * x)) >"$TMP/out"
	[ "$(val count)" -lt $((threads * iters * x)) ] && break
done
want "control: the same loop without the lock loses updates ($(val count) of $((threads * iters * x)))" \
	"$(val count)" -lt $((threads * iters * x))

for p in cs pre; do
	under SLICEBENCH_PRELOAD_DRY=1 SLICEBENCH_PRELOAD_PLACEMENT=$p -- "$PT" locks "$threads" "$iters"
	want "dry $p: mutual exclusion kept ($(val count), nested $(val nested))" \
		"$rc" = 0 -a "$(val count)" = $((threads * iters)) -a "$(val nested)" = "$(val expected_nested)"
	want "dry $p: the library was seen and the request was set in every section, clear outside" \
		"$(val hook)" = yes -a "$(val bad_request_inside)" = 0 -a "$(val bad_request_outside)" = 0
	want "dry $p: locks counted = outer + nested ($(st .locks))" \
		"$(st .locks)" = $(($(val outer_acquisitions) + $(val nested)))
	want "dry $p: depth 2 seen, no unbalanced unlock, $threads threads" \
		"$(st .max_depth)" = 2 -a "$(st .unbalanced_unlocks)" = 0 -a "$(st .threads)" = "$threads"
	want "dry $p: no grant and no yield from a private area" "$(st .grants)" = 0 -a "$(st .yields)" = 0
done
# cs requests once per outermost section: nesting adds none.  pre also
# requests before each failed trylock attempt, so it requests at least as often.
under SLICEBENCH_PRELOAD_DRY=1 -- "$PT" locks "$threads" "$iters"
want "dry cs: one request per outermost section ($(st .requests) = $(val outer_acquisitions))" \
	"$(st .requests)" = "$(val outer_acquisitions)"
under SLICEBENCH_PRELOAD_DRY=1 SLICEBENCH_PRELOAD_PLACEMENT=pre -- "$PT" locks "$threads" "$iters"
want "dry pre: at least one request per outermost section ($(st .requests) >= $(val outer_acquisitions))" \
	"$(st .requests)" -ge "$(val outer_acquisitions)"
under SLICEBENCH_PRELOAD_PLACEMENT=none -- "$PT" locks "$threads" "$iters"
want "none: counts locks ($(st .locks)), never requests" \
	"$rc" = 0 -a "$(st .requests)" = 0 -a "$(st .locks)" = $((threads * iters + threads * (iters / 4)))

items=5000
under SLICEBENCH_PRELOAD_DRY=1 -- "$PT" cond "$items"
want "cond: every item consumed once (sum $(val sum))" "$rc" = 0 -a "$(val sum)" = "$(val expected)"
want "cond: request clear while the consumer sleeps, set again after each wait" \
	"$(val bad_request_sleeping)" = 0 -a "$(val bad_request_inside)" = 0 -a "$(val hook)" = yes
want "cond: requests = sections + waits ($(st .requests) = $(val outer_acquisitions) + $(st .cond_waits))" \
	"$(st .requests)" = $(($(val outer_acquisitions) + $(st .cond_waits))) -a "$(st .cond_waits)" -ge "$(val consumer_waits)"

# Every outcome of every interposed call (psemantics.c): after each call
# the library's depth is what the caller holds, and its stats count what
# the program counted: acquisitions (EOWNERDEAD included), unlocks, the
# acquisitions no unlock ends (an owner that died holding, a wait that
# could not take its mutex back), requests per placement.
"$PS" >"$TMP/out" 2>"$TMP/err"
want "semantics without the library: every call answered as expected ($(val acquired) acquisitions, pp under SCHED_FIFO: $(val pp_fifo))" \
	"$?" = 0 -a "$(val wrong)" = 0 -a "$(val hook)" = no
for mode in "SLICEBENCH_PRELOAD_DRY=1" "SLICEBENCH_PRELOAD_DRY=1 SLICEBENCH_PRELOAD_PLACEMENT=pre" \
	"SLICEBENCH_PRELOAD_PLACEMENT=none"; do
	# shellcheck disable=SC2086 # the mode is two assignments
	under $mode -- "$PS"
	case $mode in
	*none) reqs=0 ;;
	*pre) reqs=$(($(val attempts_at_depth0) + $(val waits_held))) ;;
	*) reqs=$(($(val outer) + $(val waits_held))) ;;
	esac
	want "semantics, $mode: the library's depth and request right after every call ($(grep -c . "$TMP/err") wrong)" \
		"$rc" = 0 -a "$(val wrong)" = 0 -a "$(val hook)" = yes
	want "semantics, $mode: locks $(st .locks) = $(val acquired) acquired, $(st .owner_dead) of them EOWNERDEAD" \
		"$(st .locks)" = "$(val acquired)" -a "$(st .owner_dead)" = "$(val owner_dead)" -a "$(val owner_dead)" -gt 0
	want "semantics, $mode: balanced: unlocks $(st .unlocks) = $(val released), locks - unlocks = $(val unreleased) never released, no unbalanced unlock" \
		"$(st .unlocks)" = "$(val released)" -a $(($(st .locks) - $(st .unlocks))) = "$(val unreleased)" \
		-a "$(st .unbalanced_unlocks)" = 0 -a "$(st .wait_lost)" = 1
	want "semantics, $mode: requests $(st .requests) = $reqs, cond waits $(st .cond_waits) = $(val waits)" \
		"$(st .requests)" = "$reqs" -a "$(st .cond_waits)" = "$(val waits)"
done

seq 1 100000 >"$TMP/plain"
under SLICEBENCH_PRELOAD_DRY=1 -- seq 1 100000
want "a program that never locks: same output, no lock, no request" \
	"$rc" = 0 -a "$(cmp -s "$TMP/plain" "$TMP/out" && echo same)" = same -a "$(st .locks)" = 0 -a "$(st .requests)" = 0
seq 1 200000 | awk '{ print ($1 * 7919) % 200003 }' >"$TMP/in"
sort -n --parallel=2 -S 1M "$TMP/in" >"$TMP/sorted"
under SLICEBENCH_PRELOAD_DRY=1 -- sort -n --parallel=2 -S 1M "$TMP/in"
want "sort --parallel=2 (locks $(st .locks)): the same output, every section requested" \
	"$rc" = 0 -a "$(cmp -s "$TMP/sorted" "$TMP/out" && echo same)" = same -a "$(st .locks)" -gt 0 \
	-a "$(st .requests)" -gt 0 -a "$(st .unbalanced_unlocks)" = 0

# A shell that runs the program in its place (exec: the same pid, and the
# shell's own exit never comes) hands the stats file on; a program the
# shell, or a wrapper such as timeout(1), starts as a child adds its
# counts to the wrapper's (before: the wrapper's zeros replaced them).
# shellcheck disable=SC2016 # $$ and $0 are the inner shell's
under SLICEBENCH_PRELOAD_DRY=1 -- sh -c 'echo shell $$; exec "$0" locks 4 40000' "$PT"
want "exec in place: the program's counts in the file, under the shell's pid ($(st .pid), $(st .locks) locks)" \
	"$rc" = 0 -a "$(st .pid)" = "$(val shell)" -a "$(st .locks)" = $(($(val outer_acquisitions) + $(val nested))) \
	-a "$(st .threads)" = 4
# shellcheck disable=SC2016
under SLICEBENCH_PRELOAD_DRY=1 -- sh -c '"$0" locks 4 40000; echo shell $$' "$PT"
# (dash leaves with _exit: its own destructor, and so its counts, never
# come; a shell that exits does add them)
want "a child program under sh -c: its counts in the file ($(st .processes) processes, $(st .locks) locks, $(st .threads) threads)" \
	"$rc" = 0 -a "$(val hook)" = yes -a "$(val count)" = 160000 -a "$(st .processes)" -ge 1 \
	-a "$(st .locks)" -ge $(($(val outer_acquisitions) + $(val nested))) -a "$(st .threads)" -ge 4
under SLICEBENCH_PRELOAD_DRY=1 -- timeout 60 "$PT" locks 4 40000
want "a child program under timeout: its counts in the file ($(st .processes) processes, $(st .locks) locks, $(st .threads) threads)" \
	"$rc" = 0 -a "$(st .processes)" = 2 -a "$(st .locks)" -ge $(($(val outer_acquisitions) + $(val nested))) \
	-a "$(st .threads)" -ge 4
echo '{"status": "ok", "run": "another", "locks": 1000000000, "pids": [1]}' >"$TMP/stats.old"
cp "$TMP/stats.old" "$TMP/stats.json"
env SLICEBENCH_PRELOAD_DRY=1 SLICEBENCH_PRELOAD_STATS="$TMP/stats.json" LD_PRELOAD="$LIB" "$PT" locks 1 10 >"$TMP/out" 2>"$TMP/err"
want "a file an earlier run left is replaced, not added to ($(st .locks) locks)" "$(st .locks)" -lt 1000000000 -a "$(st .processes)" = 1

under SLICEBENCH_PRELOAD_PLACEMENT=around -- "$PT" locks 1 1
want "a bad placement: exit 2 naming the variable and value, main() never ran" \
	"$rc" = 2 -a -n "$(grep -F 'SLICEBENCH_PRELOAD_PLACEMENT: "around" is not one of none, cs, pre' "$TMP/err")" -a ! -s "$TMP/out"
under SLICEBENCH_PRELOAD_DRY=yes -- "$PT" locks 1 1
want "a bad dry value: exit 2 naming it" "$rc" = 2 -a -n "$(grep -F 'SLICEBENCH_PRELOAD_DRY: "yes" is not 0 or 1' "$TMP/err")"

avail=$("$SB" info --json | jq -r .slice_extension.available)
reason=$("$SB" info --json | jq -r .slice_extension.reason)
under -- "$PT" locks "$threads" "$iters"
if [ "$avail" = true ]; then
	want "real cs: mutual exclusion kept, every thread registered" \
		"$rc" = 0 -a "$(val count)" = $((threads * iters)) -a "$(st .threads_registered)" = "$threads"
	under -- "$PS"
	want "real cs: every outcome seen right, balanced" "$rc" = 0 -a "$(val wrong)" = 0 \
		-a "$(st .locks)" = "$(val acquired)" -a "$(st .unlocks)" = "$(val released)" -a "$(st .unbalanced_unlocks)" = 0
else
	want "real cs refused where the kernel lacks the extension: exit 2, no output, the reason on stderr" \
		"$rc" = 2 -a ! -s "$TMP/out" -a -n "$(grep -F "cannot work here: $reason" "$TMP/err")"
	want "refusal: the stats file says unsupported with the same reason" \
		"$(st .status)" = unsupported -a "$(st .reason | grep -cF "$reason")" = 1
fi
