# shellcheck shell=bash
# lib.sh - what every section uses: the result list, one `slicebench run`,
# the ratio of two series, the machine's busy time.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# The machine is shared: how much CPU others took while we ran explains
# much of the noise (a busy critical section loses its CPU, a sleep does not).
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { print ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat; }
own_s() { # own_s TIMES_OUTPUT: CPU seconds of our children (`times` line 2)
	awk 'NR == 2 { split($1, u, /[ms]/); split($2, y, /[ms]/); print u[1] * 60 + u[2] + y[1] * 60 + y[2] }' "$1"
}

add() { jq -c . >>"$RES"; }
note() { [ "$mode" = smoke ] || printf 'bench: %s\n' "$*" >&2; }
now() { date +%s.%N; }

# One `slicebench run` of a single-run config; prints the result object.
sbrun() { # sbrun RUN_OBJECT_JSON
	jq -n --argjson r "$1" '{name: "bench", runs: [$r]}' >"$W/c.json"
	rm -f "$W/o.json"
	"$SB" run -c "$W/c.json" -o "$W/o.json" -q
	jq -c '.results[0]' "$W/o.json"
}
ops() { jq '.summary.ops_per_sec.median // 0'; }
ratio() { # ratio A_JSON_ARRAY B_JSON_ARRAY -> {n, median, gmean, ci95_lo, ci95_hi, ...}
	# A zero (a window without one operation) leaves the ratio null and
	# the target unmet, rather than ending the bench.
	jq -n --argjson a "$1" --argjson b "$2" '{a: $a, b: $b}' | "$BIN/ratio" || echo null
}

