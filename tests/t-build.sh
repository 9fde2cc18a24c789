#!/usr/bin/env bash
# tier: quick
# t-build.sh - the Makefile keeps its own flags whatever the user passes,
# and compiling never installs a package.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

# `make -n` prints every compile line without running it: with the user's
# CFLAGS each line must still carry the suite's own flags, and the user's.
make -n -B CFLAGS=-O3 BUILD="$TMP/b" "$TMP/b/harness/lib/stats.o" >"$TMP/n.txt" 2>&1
cc_line=$(grep -m1 ' -c -o .*stats\.o' "$TMP/n.txt" || true)
for f in -std=gnu11 -Wall -Wextra -Werror -pthread -MMD -O3; do
	case " $cc_line " in
	*" $f "*) ok "build: make CFLAGS=-O3 keeps $f" ;;
	*) notok "build: make CFLAGS=-O3 keeps $f (compile line: ${cc_line:-none})" ;;
	esac
done
case " $cc_line " in
*" -O2 "*) notok "build: the user's CFLAGS replace the default -O2 (compile line: $cc_line)" ;;
*) ok "build: the user's CFLAGS replace the default -O2" ;;
esac

# A really built object with the user's flags, -Werror included.
if make -s CFLAGS=-O3 BUILD="$TMP/o3" "$TMP/o3/harness/lib/stats.o" >"$TMP/o3.log" 2>&1 &&
	[ -s "$TMP/o3/harness/lib/stats.o" ]; then
	ok "build: make CFLAGS=-O3 compiles"
else
	notok "build: make CFLAGS=-O3 compiles"
	sed 's/^/# /' "$TMP/o3.log"
fi

# The build's package check only checks: with a package it does not know
# is missing, install-deps --check names it and exits 2, and apt-get is
# never started.  A stub apt-get on PATH records any call.
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho called >>"%s/apt.calls"\n' "$TMP" >"$TMP/bin/apt-get"
chmod +x "$TMP/bin/apt-get"
sed 's/^build=(/build=(slicebench-no-such-package /' scripts/install-deps.sh >"$TMP/deps.sh"
rc=0
PATH="$TMP/bin:$PATH" bash "$TMP/deps.sh" --check build >"$TMP/deps.out" 2>&1 || rc=$?
check "build: install-deps --check exits 2 on a missing package" test "$rc" -eq 2
check "build: install-deps --check names the missing package" \
	grep -q 'apt-get install -y slicebench-no-such-package' "$TMP/deps.out"
check "build: install-deps --check never runs apt-get" test ! -e "$TMP/apt.calls"
check "build: the Makefile's package step is --check" \
	grep -q 'install-deps.sh --check build' Makefile
