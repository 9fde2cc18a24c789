# shellcheck shell=bash
# rounds.sh - rotating rounds of paired windows: the method of sections
# 2 and 2b.
# Sourced by selfbench/bench.sh, in its shell and its directory.

# --- Paired rounds: the method of sections 2 and 2b ------------------------
# The machine is shared, and load comes in bursts longer than a window.
# So the arms of one comparison run in rounds of short windows, one window
# per arm and round, the order rotating each round (every arm takes every
# position equally often), and each ratio is taken within a round: a burst
# that hits a round hits its arms alike, or shows as that round's outlier.
# Each window also reports ops per on-CPU second of the lock thread (its
# own CPU clock): the loop's speed while it ran, which does not move when
# another process takes the CPU from it.  That is the ratio the targets
# are checked on; the wall ratio stands beside it, with each arm's CPU share
# (a harness that took CPU from its own lock thread would show there).
# One harness window: {wall, cpu, share} or {status, reason}.
sb_window() { # sb_window RUN_OBJECT_JSON
	sbrun "$1" | jq -c 'if .status != "ok" then {status, reason} else .repetitions[0] |
		{wall: .ops_per_sec, cpu: (if .threads[0].cpu_ns > 0 then .ops / (.threads[0].cpu_ns / 1e9)
		 else 0 end), share: .threads[0].cpu_share} end'
}
bare_window() { # bare_window WORKLOAD
	"$BIN/bare" "$1" "$pr_dur" "$pr_warm" "$cpu0" |
		jq -c '{wall: .ops_per_sec, cpu: .ops_per_cpu_s, share: (.cpu_s / .wall_s)}'
}
# rounds N ARM... : each ARM is "bare:WORKLOAD" or a run object.  Prints one
# JSON array per arm ([window, ...], round order), or the first failure.
rounds() {
	local n=$1 i j k arm w
	shift
	local -a arms=("$@") series=()
	k=${#arms[@]}
	for ((j = 0; j < k; j++)); do series[j]="[]"; done
	for ((i = 0; i < n; i++)); do
		for ((j = 0; j < k; j++)); do
			arm=${arms[(i + j) % k]}
			if [[ $arm == bare:* ]]; then w=$(bare_window "${arm#bare:}"); else w=$(sb_window "$arm"); fi
			if [ "$(jq -r '.status // "ok"' <<<"$w")" != ok ]; then
				echo "$w"
				return 0
			fi
			series[(i + j) % k]=$(jq -c --argjson w "$w" '. + [$w]' <<<"${series[(i + j) % k]}")
		done
	done
	printf '%s\n' "${series[@]}"
}
# pair_ratio A_SERIES B_SERIES FIELD: ratio.c over the rounds' A/B of FIELD.
pair_ratio() {
	ratio "$(jq -c --arg f "$3" 'map(.[$f])' <<<"$1")" "$(jq -c --arg f "$3" 'map(.[$f])' <<<"$2")"
}
