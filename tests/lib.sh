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
