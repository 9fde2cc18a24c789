#!/usr/bin/env bash
# tier: quick
# t-readme.sh - the manual's key table and its lock, policy and workload
# tables (docs/manual.md) are the ones the code validates and runs; the
# files README.md and docs/ name exist; the cluster example is the shipped
# plan.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

section() { # section NAME: the manual between <!-- NAME:begin --> and <!-- NAME:end -->
	sed -n "/<!-- $1:begin -->/,/<!-- $1:end -->/p" docs/manual.md | sed '1d;$d'
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

# The worked examples: every file the README cats or passes exists, a
# `$ cat FILE` block is that file, and the plan's job count is the one said.
for f in $(cat README.md docs/*.md | grep -oE '(configs|tests/fixtures)/[A-Za-z0-9_/.-]+\.json' | sort -u); do
	check "readme: $f exists" test -f "$f"
done
sed -n '/\$ cat configs\/plans\/cpus.json/,/\$ build/p' docs/cluster.md | sed '1d;$d' |
	sed 's/^    //' >"$TMP/cpus.json"
check "readme: the cpus.json shown is the shipped one" diff -q "$TMP/cpus.json" configs/plans/cpus.json
said=$(grep -oE 'cpus.json --dry-run +# [0-9]+ jobs' docs/cluster.md | grep -oE '[0-9]+ jobs' | cut -d' ' -f1)
got=$("$SB" plan configs/plans/cpus.json --dry-run 2>/dev/null | grep -c '^[0-9]')
check "readme: cpus.json expands to the jobs said ($said said, $got expanded)" test "$said" = "$got"
