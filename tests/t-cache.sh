#!/usr/bin/env bash
# tier: host
# t-cache.sh - the kernel scripts on a cache a new machine has: empty, and
# left half-written by a run that was killed.  Each case once failed
# silently under `set -e -o pipefail` on a machine that never had the
# cache (an `ls` of an empty glob ended kernel/build.sh in an assignment).
# The compile itself is the same cold or warm and runs in t-vm.sh; here
# `--prepare` stops before it.
#   SLICEBENCH_VM_TESTS=0   leave this out too (`make check-quick`)
# needs: none (each case makes its own cache)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

if [ "${SLICEBENCH_VM_TESTS:-1}" = 0 ]; then
	ok "cache: cold kernel cache # SKIP left out by SLICEBENCH_VM_TESTS=0"
	exit 0
fi
C="$TMP/cache"
B=kernel/build.sh

# 1. An empty (absent) cache: asking for a build that is not there says so.
SLICEBENCH_CACHE="$C" $B --print-path >"$TMP/out" 2>"$TMP/err"
rc=$?
check "cache: --print-path on an absent cache exits 1 with a reason (exit $rc: $(tail -n 1 "$TMP/err"))" \
	test "$rc" -eq 1 -a -n "$(grep 'not downloaded yet; run kernel/build.sh' "$TMP/err")" -a ! -s "$TMP/out"

# 2. Debian's image from an empty cache, with a download that an earlier
#    run left half-way (a truncated .deb in the private download directory).
mkdir -p "$C/deb/.partial-killed"
head -c 4096 /dev/urandom >"$C/deb/.partial-killed/linux-binary-0.0_1_amd64.deb"
SLICEBENCH_CACHE="$C" $B --debian-image >"$TMP/out" 2>"$TMP/err"
rc=$?
img=$(tail -n 1 "$TMP/out")
if [ "$rc" -eq 0 ] && [ -s "$img" ] && [ "$(head -c 2 "$img" | od -An -tx1 | tr -d ' ')" = 4d5a ]; then
	ok "cache: --debian-image from an empty cache prints a bzImage ($img)"
else
	notok "cache: --debian-image from an empty cache (exit $rc): $(tail -n 3 "$TMP/err" | tr '\n' ' ')"
fi
check "cache: the half-way download was cleared" test ! -e "$C/deb/.partial-killed"

# 3. An unpacked image without its .done (killed while unpacking) is
#    unpacked again, not taken as it is.
dir=$(dirname "$img")
if [ -d "$dir" ]; then
	rm -f "$dir/.done" "$dir/vmlinuz"
	: >"$dir/stray"
	SLICEBENCH_CACHE="$C" $B --debian-image >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "cache: an image directory without .done is unpacked again (exit $rc)" \
		test "$rc" -eq 0 -a -s "$dir/vmlinuz" -a -f "$dir/.done" -a ! -e "$dir/stray"
else
	notok "cache: an image directory without .done is unpacked again: no image directory"
fi

# 4. The patched kernel's cold path up to the compile, over a source tree
#    that a killed run left unpacked without its .done.
mkdir -p "$C/src"
SLICEBENCH_CACHE="$C" $B --prepare >"$TMP/out" 2>"$TMP/err"
rc=$?
bld=$(tail -n 1 "$TMP/out")
if [ "$rc" -eq 0 ] && [ -f "$bld/.config" ] && grep -qx 'CONFIG_RSEQ_SLICE_EXTENSION=y' "$bld/.config"; then
	ok "cache: --prepare from an empty cache fetches, unpacks, patches and configures"
else
	notok "cache: --prepare from an empty cache (exit $rc): $(tail -n 3 "$TMP/err" | tr '\n' ' ')"
fi
src=$(find "$C/src" -mindepth 1 -maxdepth 1 -type d -name 'linux-source-*' ! -name '*.tmp' -print -quit)
if [ -n "$src" ]; then
	rm -f "$src/.done"
	: >"$src/stray"
	mkdir -p "$src.tmp/half"
	SLICEBENCH_CACHE="$C" $B --prepare >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "cache: a source tree without .done is unpacked again (exit $rc)" \
		test "$rc" -eq 0 -a -f "$src/.done" -a ! -e "$src/stray" -a ! -e "$src.tmp"
	check "cache: ... and said so" grep -q 'unpacking linux-source' "$TMP/err"
else
	notok "cache: a source tree without .done is unpacked again: no source tree in $C/src"
fi
check "cache: --prepare left no built kernel behind" \
	test -z "$(find "$C/kernel" -name .done -print -quit 2>/dev/null)"
