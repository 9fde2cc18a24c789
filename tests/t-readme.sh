#!/usr/bin/env bash
# t-readme.sh - the README's key table and its lock, policy and workload
# tables are the ones the code validates and runs.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

section() { # section NAME: the README between <!-- NAME:begin --> and <!-- NAME:end -->
	sed -n "/<!-- $1:begin -->/,/<!-- $1:end -->/p" README.md | sed '1d;$d'
}

for t in keys tables; do
	"$SB" list "--$t-markdown" >"$TMP/$t.md"
	section "$t" >"$TMP/readme-$t.md"
	if diff -u "$TMP/$t.md" "$TMP/readme-$t.md" >"$TMP/diff"; then
		ok "readme: $t table matches slicebench list --$t-markdown"
	else
		notok "readme: $t table differs from the code; regenerate it:"
		sed 's/^/# /' "$TMP/diff"
	fi
done
