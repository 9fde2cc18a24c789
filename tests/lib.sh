#!/usr/bin/env bash
# lib.sh - helpers for the shell tests: same protocol as the C tests.
# shellcheck shell=bash
SB=${SB:-build/slicebench}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { echo "ok $*"; }
notok() { echo "not ok $*"; }
check() { # check DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@" >/dev/null; then ok "$d"; else notok "$d"; fi
}
# jqe ARGS...: jq -e ARGS on standard input that holds a JSON value.  jq 1.6's
# -e exits 0 when its input is empty (no value, so no false one): a
# result that was never written would pass every check made on it.
jqe() {
	local in
	in=$(cat)
	[ -n "${in//[[:space:]]/}" ] || { echo "jqe: no JSON value on standard input" >&2; return 1; }
	jq -e "$@" <<<"$in"
}
# vm_prereqs NAME TOOL...: a guest test's start: "ok NAME # SKIP" and exit
# under SLICEBENCH_VM_TESTS=0; "not ok NAME: why" and exit when QEMU, a
# TOOL or the harness is missing
vm_prereqs() {
	local name=$1 t
	shift
	if [ "${SLICEBENCH_VM_TESTS:-1}" = 0 ]; then
		echo "ok $name # SKIP left out by SLICEBENCH_VM_TESTS=0"
		exit 0
	fi
	for t in qemu-system-x86_64 "$@"; do
		command -v "$t" >/dev/null && continue
		notok "$name: $t is not installed (scripts/install-deps.sh vm)"
		exit 0
	done
	[ -x "$SB" ] || { notok "$name: no harness at $SB (run make)"; exit 0; }
}
# ref_json NAME: the reference result NAME (results/reference/NAME.json.gz,
# stored compressed), decompressed once into $TMP/ref/; prints its path
ref_json() {
	local f="$TMP/ref/$1.json"
	if [ ! -f "$f" ]; then
		mkdir -p "$(dirname "$f")"
		gzip -cd "results/reference/$1.json.gz" >"$f" || return 1
	fi
	echo "$f"
}
