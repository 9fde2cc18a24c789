#!/usr/bin/env bash
# tier: host
# t-cachelock.sh - several users of one empty kernel cache at once, as
# make check, ./run.sh --vm in another terminal and the tasks of a Slurm
# array on a fresh node are.  Before the cache had locks, two
# `kernel/build.sh --debian-image` started together failed: one with
# "private apt-get update failed" (apt-get does not wait for its lists
# lock), the other with "download ... produced no .deb" (the first one
# cleared its download directory).  Also: a lock whose holder was killed
# blocks nobody, and the initramfs is the same bytes whoever builds it.
# The kernel compile's lock is the same code; t-vm.sh runs the compile.
#   SLICEBENCH_VM_TESTS=0   leave this out too (`make check-quick`)
# needs: none (each case makes its own empty cache)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

if [ "${SLICEBENCH_VM_TESTS:-1}" = 0 ]; then
	ok "cachelock: concurrent users of one cache # SKIP left out by SLICEBENCH_VM_TESTS=0"
	exit 0
fi
N=4
B=kernel/build.sh

# 1. N --debian-image at once on an empty cache.
C=$(mktemp -d "$TMP/cache.XXXXXX")
for i in $(seq "$N"); do
	SLICEBENCH_CACHE="$C" $B --debian-image >"$TMP/img.$i.out" 2>"$TMP/img.$i.err" &
	echo $! >"$TMP/img.$i.pid"
done
fails=""
for i in $(seq "$N"); do
	rc=0
	wait "$(cat "$TMP/img.$i.pid")" || rc=$?
	[ "$rc" = 0 ] || fails+=" user $i exit $rc: $(grep -m1 'error' "$TMP/img.$i.err")"
done
check "cachelock: $N --debian-image at once on an empty cache all succeed${fails:+ (}${fails}${fails:+)}" test -z "$fails"
img=$(tail -n 1 "$TMP/img.1.out")
same=1
for i in $(seq 2 "$N"); do
	[ "$(tail -n 1 "$TMP/img.$i.out")" = "$img" ] || same=0
done
check "cachelock: ... and all name the same vmlinuz ($img)" test "$same" = 1 -a -s "$img"
check "cachelock: ... which is a bzImage" test "$(head -c 2 "$img" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 4d5a
check "cachelock: ... downloaded once: one linux-binary .deb, no partial download left" \
	test "$(find "$C/deb" -name 'linux-binary-*.deb' | wc -l)" = 1 -a \
	-z "$(find "$C" -name '.partial-*' -o -name '*.part-*' | head -n 1)"
check "cachelock: ... and unpacked once" \
	test "$(grep -l 'unpacking linux-binary' "$TMP"/img.*.err | wc -l)" = 1

# 2. A user killed while holding a lock (SIGKILL: no trap runs) blocks
#    nobody: flock's lock goes with the last descriptor.  A live holder
#    is waited for.
C2=$(mktemp -d "$TMP/cache.XXXXXX")
setsid flock "$C2/.lock-apt" sleep 600 &
holder=$!
sleep 0.5
kill -9 -- "-$holder" 2>/dev/null
wait "$holder" 2>/dev/null
rc=0
timeout 120 env SLICEBENCH_CACHE="$C2" $B --debian-image >"$TMP/k.out" 2>"$TMP/k.err" || rc=$?
check "cachelock: the lock of a killed user does not block the next (exit $rc)" test "$rc" = 0
flock "$C2/.lock-apt" sleep 3 &
holder=$!
sleep 0.5
rm -rf "$C2/deb" "$C2/debian-image"
t0=$(date +%s)
rc=0
SLICEBENCH_CACHE="$C2" $B --debian-image >"$TMP/w.out" 2>"$TMP/w.err" || rc=$?
waited=$(($(date +%s) - t0))
wait "$holder"
check "cachelock: a live holder is waited for, with a message (exit $rc, ${waited} s)" \
	test "$rc" = 0 -a "$waited" -ge 2 -a -n "$(grep 'waiting for another user of the cache' "$TMP/w.err")"

# 3. The initramfs: N users writing one file at once, and N writing
#    their own; every one succeeds and all N+1 files are the same bytes.
if [ -x "$SB" ]; then
	mk() { SLICEBENCH_CACHE="$C" kernel/mkinitramfs.sh --harness "$SB" --programs "" --out "$1" >/dev/null 2>>"$TMP/mk.err"; }
	pids=()
	for i in $(seq "$N"); do
		mk "$TMP/initrd/shared.gz" &
		pids+=($!)
		mk "$TMP/initrd/own.$i.gz" &
		pids+=($!)
	done
	fails=0
	for p in "${pids[@]}"; do wait "$p" || fails=$((fails + 1)); done
	check "cachelock: $((2 * N)) mkinitramfs.sh at once all succeed ($fails failed)" test "$fails" = 0
	sums=$(sha256sum "$TMP"/initrd/*.gz | awk '{ print $1 }' | sort -u | wc -l)
	check "cachelock: ... and write the same bytes ($(find "$TMP/initrd" -name '*.gz' | wc -l) files, $sums distinct)" \
		test "$sums" = 1 -a "$(find "$TMP/initrd" -name '*.gz' | wc -l)" = $((N + 1))
	check "cachelock: ... no temporary file left" test -z "$(find "$TMP/initrd" -name '*.tmp.*' | head -n 1)"
else
	notok "cachelock: concurrent mkinitramfs.sh: no harness at $SB (run make)"
fi
