#!/usr/bin/env bash
# tier: quick
# t-layers.sh - the source folders are layers: a file includes ("...")
# only files of its own folder or of a lower layer.  The control first: a
# copy of the tree with one include pointing up must be caught, by file,
# line and both layers, or the check proves nothing.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

# Lowest first; folders on one level are siblings and never include each
# other (the report verbs read results, never the engine that wrote them;
# the preload library carries only os/'s rseq code).  Only #include is
# checked.  One call runs up: the thread loop (harness/core/loop.h) calls
# wl_phase_change, which loop.h declares and harness/engine/worker.c defines.
# A file's layer is the longest level that holds it (workloads/locks/
# under workloads/).
H=harness
LEVELS=("$H/lib" "$H/os" "$H/core $H/preload" "workloads/locks" "workloads" "$H/engine $H/report" "$H/cli")

# violations ROOT: one line per include that leaves its layer for a higher
# one, a sibling or a folder on no level, or that names no file
violations() {
	local levels dirs
	levels=$(IFS='|'; echo "${LEVELS[*]}")
	read -ra dirs <<<"${LEVELS[*]}"
	# shellcheck disable=SC2016 # $0, $i in single quotes are awk's
	(cd "$1" && find "${dirs[@]}" -name '*.[ch]' | sort -u | xargs awk -v levels="$levels" '
	BEGIN {
		n = split(levels, lv, "|")
		for (i = 1; i <= n; i++) { m = split(lv[i], fs, " "); for (j = 1; j <= m; j++) level[fs[j]] = i }
	}
	function layer(p,    l, best) {
		best = ""
		for (l in level) if (index(p, l "/") == 1 && length(l) > length(best)) best = l
		return best
	}
	$0 ~ /^[ \t]*#[ \t]*include[ \t]*"/ {
		inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
		path = FILENAME; sub(/[^\/]*$/, "", path); path = path inc
		k = 0; m = split(path, part, "/")
		for (i = 1; i <= m; i++) {
			if (part[i] == "..") { if (k > 0) k--; else { k = -1; break } }
			else if (part[i] != "." && part[i] != "") out[++k] = part[i]
		}
		target = ""; for (i = 1; i <= k; i++) target = target (i > 1 ? "/" : "") out[i]
		from = layer(FILENAME); to = layer(target)
		where = FILENAME ":" FNR ": includes \"" inc "\""
		if (k < 0 || (getline junk < target) < 0) print where ": no such file"
		else if (to == "") print where " (" target "), outside the layers"
		else if (to != from && level[to] >= level[from]) print where ": " from "/ may not use " to "/"
		if (k >= 0) close(target)
	}')
}

# The tree itself, checked first: the control below adds to it.
violations . >"$TMP/real.txt"

# The control, on a copy of the tree: an include up (lib/ to engine/), one
# between siblings, one to a folder on no level and one to no file must
# each be caught, with file and line, and nothing else (beyond what the
# tree itself has, which the lines after this name).
ctl=$TMP/tree
mkdir -p "$ctl/tests"
for lv in "${LEVELS[@]}"; do for f in $lv; do cp -r --parents "$f" "$ctl/"; done; done
printf '#include "../engine/runner.h"\n' >>"$ctl/$H/lib/stats.c"
printf '#include "../report/compare.h"\n' >"$ctl/$H/engine/sibling.h"
printf '/* */\n#include "../../tests/tap.h"\n' >"$ctl/$H/os/outside.h"
: >"$ctl/tests/tap.h"
printf '#include "nowhere.h"\n' >"$ctl/$H/core/missing.h"
cat >"$TMP/want.txt" <<EOF
$H/core/missing.h:1: includes "nowhere.h": no such file
$H/engine/sibling.h:1: includes "../report/compare.h": $H/engine/ may not use $H/report/
$H/lib/stats.c:$(wc -l <"$ctl/$H/lib/stats.c"): includes "../engine/runner.h": $H/lib/ may not use $H/engine/
$H/os/outside.h:2: includes "../../tests/tap.h" (tests/tap.h), outside the layers
EOF
violations "$ctl" | grep -vxFf "$TMP/real.txt" >"$TMP/ctl.txt"
if diff -u "$TMP/want.txt" "$TMP/ctl.txt" >"$TMP/ctl.diff"; then
	ok "layers: the control's four bad includes are caught, each by file and line"
else
	notok "layers: the control's four bad includes are caught, each by file and line:"
	sed 's/^/# /' "$TMP/ctl.diff"
fi

for lv in "${LEVELS[@]}"; do
	for f in $lv; do
		if [ ! -d "$f" ]; then
			notok "layers: $f/ is on a level but not in the tree"
		elif grep -q "^$f/" "$TMP/real.txt"; then
			notok "layers: $f/ includes only its own and lower layers:"
			grep "^$f/" "$TMP/real.txt" | sed 's/^/# /'
		else
			n=$(find "$f" -name '*.[ch]' -exec cat {} + | grep -cE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"')
			ok "layers: $f/ includes only its own and lower layers ($n includes)"
		fi
	done
done
