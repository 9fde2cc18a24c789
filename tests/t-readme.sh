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
