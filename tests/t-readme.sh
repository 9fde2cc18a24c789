#!/usr/bin/env bash
# t-readme.sh - the README's key table is the key table the code validates.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

"$SB" list --keys-markdown >"$TMP/keys.md"
sed -n '/<!-- keys:begin -->/,/<!-- keys:end -->/p' README.md | sed '1d;$d' >"$TMP/readme-keys.md"
if diff -u "$TMP/keys.md" "$TMP/readme-keys.md" >"$TMP/diff"; then
	ok "readme: key table matches slicebench list --keys-markdown"
else
	notok "readme: key table differs from the code; regenerate it:"
	sed 's/^/# /' "$TMP/diff"
fi
for w in $("$SB" list | awk '/^[a-z]/ { print $1 }'); do
	check "readme: workload $w is documented" grep -q "| \`$w\` |" README.md
done

# The worked examples: every file the README cats or passes exists, a
# `$ cat FILE` block is that file, and the plan's job count is the one said.
for f in $(grep -oE '(configs|tests/fixtures)/[A-Za-z0-9_/.-]+\.json' README.md | sort -u); do
	check "readme: $f exists" test -f "$f"
done
sed -n '/\$ cat configs\/plans\/cpus.json/,/\$ build/p' README.md | sed '1d;$d' |
	sed 's/^    //' >"$TMP/cpus.json"
check "readme: the cpus.json shown is the shipped one" diff -q "$TMP/cpus.json" configs/plans/cpus.json
said=$(grep -oE 'cpus.json --dry-run +# [0-9]+ jobs' README.md | grep -oE '[0-9]+ jobs' | cut -d' ' -f1)
got=$("$SB" plan configs/plans/cpus.json --dry-run 2>/dev/null | grep -c '^[0-9]')
check "readme: cpus.json expands to the jobs said ($said said, $got expanded)" test "$said" = "$got"
