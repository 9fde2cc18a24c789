#!/usr/bin/env bash
# tier: host
# t-man.sh - docs/slicebench.1 is what scripts/mkman.sh makes from the
# binary's usage texts, and man renders it without a warning, a section
# per verb; a page with an undefined macro must be caught, or the check
# proves nothing.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u
command -v man >/dev/null || { notok "man: man is not installed (scripts/install-deps.sh check installs man-db)"; exit 0; }

if scripts/mkman.sh "$SB" >"$TMP/s.1" && diff -u docs/slicebench.1 "$TMP/s.1" >"$TMP/diff"; then
	ok "man: docs/slicebench.1 is what scripts/mkman.sh makes"
else
	notok "man: docs/slicebench.1 is stale; regenerate it: scripts/mkman.sh >docs/slicebench.1"
	head -n 20 "$TMP/diff" | sed 's/^/# /'
fi
# render WHAT PAGE: man's text on stdout, its warnings in $TMP/WHAT.err
render() { MANWIDTH=100 man -l --warnings "$2" 2>"$TMP/$1.err"; }
render page docs/slicebench.1 >"$TMP/page.txt"
check "man: man -l renders docs/slicebench.1 without a warning ($(wc -l <"$TMP/page.txt") lines; $(head -c 200 "$TMP/page.err"))" \
	test -s "$TMP/page.txt" -a ! -s "$TMP/page.err"
verbs=$("$SB" --help | sed -n 's/^  \([a-z]*\) .*/\1/p')
missing=""
for v in $verbs; do
	grep -q "^   $v\$" "$TMP/page.txt" || missing+=" $v"
	grep -q "usage: slicebench $v" "$TMP/page.txt" || missing+=" $v(usage)"
done
check "man: a section with its usage for each of the $(wc -w <<<"$verbs") verbs${missing:+ (missing:$missing)}" test -z "$missing"
# the control
{ cat docs/slicebench.1; printf '.notamacro\n'; } >"$TMP/bad.1"
render bad "$TMP/bad.1" >/dev/null
check "man: control: an undefined macro is caught ($(head -c 120 "$TMP/bad.err"))" grep -q "macro 'notamacro' not defined" "$TMP/bad.err"
