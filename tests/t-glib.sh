#!/usr/bin/env bash
# tier: host
# alone: GLib's tests carry their own timeouts
# t-glib.sh - a real multithreaded program's own test suite under the
# preload library: GLib's installed tests (Debian's libglib2.0-tests) whose
# threads take pthread mutexes - GRecMutex is a recursive pthread mutex,
# GThreadPool, GAsyncQueue and the thread tests take them through GLib and
# libc.  (On Linux GMutex and GCond are GLib's own futexes: the library
# never sees them, so the cond test is here for its threads alone.)  Each
# must pass under every mode exactly as without the library, with the
# stats file balanced: every lock seen taken is seen released.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}
LIB=$BUILD/libslicepreload.so
GT=/usr/libexec/installed-tests/glib

if [ ! -e "$LIB" ]; then
	notok "glib: $LIB not built (make all)"
	exit 0
fi
if [ ! -x "$GT/rec-mutex" ]; then
	notok "glib: $GT missing: install libglib2.0-tests (scripts/install-deps.sh check)"
	exit 0
fi
LIB=$(cd "$(dirname "$LIB")" && pwd)/$(basename "$LIB")
# name:command; rec-mutex4 (100 threads, 22 s alone here) is left out
suite=("rec-mutex:$GT/rec-mutex -s /thread/rec-mutex4" "threadtests:$GT/threadtests"
	"thread:$GT/thread" "thread-pool:$GT/thread-pool" "asyncqueue:$GT/asyncqueue"
	"once:$GT/once" "onceinit:$GT/onceinit" "cond:$GT/cond")
modes=("SLICEBENCH_PRELOAD_DRY=1" "SLICEBENCH_PRELOAD_DRY=1 SLICEBENCH_PRELOAD_PLACEMENT=pre"
	"SLICEBENCH_PRELOAD_PLACEMENT=none")
[ "$("$SB" info --json | jq -r .slice_extension.available)" = true ] &&
	modes+=("SLICEBENCH_PRELOAD_PLACEMENT=cs" "SLICEBENCH_PRELOAD_PLACEMENT=pre")

cd "$TMP" || exit 2
# tap FILE: "passed/planned" of a TAP stream.
tap() { echo "$(grep -c '^ok ' "$1")/$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$1" | tail -n 1)"; }
for t in "${suite[@]}"; do
	name=${t%%:*}
	read -ra cmd <<<"${t#*:}"
	"${cmd[@]}" >plain.tap 2>&1
	want=$(tap plain.tap)
	check "glib: $name without the library passes ($want)" test "${want%/*}" = "${want#*/}" -a "${want%/*}" -gt 0
	for mode in "${modes[@]}"; do
		rm -f stats.json
		# shellcheck disable=SC2086 # the mode is one or two assignments
		env $mode SLICEBENCH_PRELOAD_STATS="$TMP/stats.json" LD_PRELOAD="$LIB" "${cmd[@]}" >under.tap 2>&1
		rc=$?
		got=$(tap under.tap)
		st=$(jq -c '{locks, unlocks, unbalanced_unlocks, max_depth, owner_dead, wait_lost}' stats.json 2>/dev/null)
		check "glib: $name, $mode: exit 0 (got $rc), the same tests pass ($got of $want)" \
			test "$rc" = 0 -a "$got" = "$want"
		check "glib: $name, $mode: stats balanced: $st" \
			test -n "$st" -a "$(jq '.locks == .unlocks and .unbalanced_unlocks == 0' stats.json)" = true
	done
done
# The suite must really take pthread mutexes through the library, nested.
# How many it takes depends on the host's speed (246 under a load of 8,
# thousands on a quiet host): the count only has to show they were seen.
rm -f stats.json
env SLICEBENCH_PRELOAD_DRY=1 SLICEBENCH_PRELOAD_STATS="$TMP/stats.json" LD_PRELOAD="$LIB" \
	"$GT/rec-mutex" -s /thread/rec-mutex4 >/dev/null 2>&1
check "glib: rec-mutex takes recursive pthread mutexes the library sees ($(jq -c '{locks, requests, max_depth}' stats.json))" \
	test "$(jq '.locks > 0 and .locks == .unlocks and .requests > 0 and .max_depth >= 5' stats.json)" = true
