#!/usr/bin/env bash
# tier: quick
# t-scale.sh - input sizes a user can reach: a large sweep expands in
# linear time or is refused with a stated cap; compare of 3000 vs 3000
# results is linear (it took about 100 s when it was quadratic).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# timed CMD...: runs CMD (killed after 90 s: a test never hangs), its wall
# time in ms into $TMP/ms.
timed() {
	local t0 rc
	t0=$(date +%s%N)
	timeout 90 "$@"
	rc=$?
	echo $((($(date +%s%N) - t0) / 1000000)) >"$TMP/ms"
	return "$rc"
}

jq -n '{runs: [{workload: "spin-tas", cs_ns: [range(1000)], think_ns: [range(1000)]}]}' >"$TMP/sweep1m.json"
timed "$SB" run -c "$TMP/sweep1m.json" --dry-run >/dev/null 2>"$TMP/err"
rc=$?
check "scale: a 1000 x 1000 sweep is refused, exit 2 (got $rc), in $(cat "$TMP/ms") ms: \"$(cat "$TMP/err")\"" \
	test "$rc" -eq 2 -a "$(cat "$TMP/ms")" -lt 5000
check "scale: ... naming the run, the count and the cap" \
	grep -q 'runs\[0\]: expands to 1000000 run points.*cap of 100000' "$TMP/err"

# 20000 points, each twice (two identical runs): merged in linear time.
jq -n '{runs: [range(2) | {workload: "spin-tas", cs_ns: [range(200)], think_ns: [range(100)]}]}' \
	>"$TMP/sweep20k.json"
timed "$SB" run -c "$TMP/sweep20k.json" --dry-run >"$TMP/points" 2>"$TMP/err"
rc=$?
ms=$(cat "$TMP/ms")
check "scale: 2 x 20000 points expand and merge to 20000 (got $(wc -l <"$TMP/points"), rc $rc) in ${ms} ms (< 15 s)" \
	test "$rc" -eq 0 -a "$(wc -l <"$TMP/points")" -eq 20000 -a "$ms" -lt 15000

# compare: 3000 results against 3000, each point once per side.
jq '(first(.results[] | select(.status == "ok"))
     | del(.repetitions[].threads, .repetitions[].counters,
           .summary.hold_ns.hist, .summary.acquire_ns.hist)) as $r
    | .results = [range(3000) as $i | $r | .params.cs_ns = $i | .id = $i]' \
	"$(ref_json guzik-question-host)" >"$TMP/a3000.json"
timed "$SB" compare "$TMP/a3000.json" "$TMP/a3000.json" --format json >"$TMP/cmp.json" 2>"$TMP/err"
rc=$?
ms=$(cat "$TMP/ms")
check "scale: compare 3000 vs 3000 results: rc $rc, $(jq '.rows | length' "$TMP/cmp.json" 2>/dev/null) rows, in ${ms} ms (< 60 s)" \
	test "$rc" -eq 0 -a "$ms" -lt 60000
# (jq -e on an empty file succeeds: compare the count itself.)
rows=$(jq '[.rows[] | select(.metric == "ops_per_sec")] | length' "$TMP/cmp.json" 2>/dev/null)
check "scale: ... every point paired once (${rows:-no} rows)" test "$rows" = 3000
