# shellcheck shell=bash
# rounds.sh - rotating rounds of paired windows: the method of sections
# 2 and 2b.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

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
# One harness window: {wall, cpu, share, ops, cpu_s} or {status, reason}.
# cpu_s is the lock thread's own CPU time over its window (getrusage
# RUSAGE_THREAD in the harness, the thread's CPU clock in bare.c).
sb_window() { # sb_window RUN_OBJECT_JSON
	sbrun "$1" | jq -c 'if .status != "ok" then {status, reason} else .repetitions[0] |
		{wall: .ops_per_sec, cpu: (if .threads[0].cpu_ns > 0 then .ops / (.threads[0].cpu_ns / 1e9)
		 else 0 end), share: .threads[0].cpu_share, ops: .threads[0].ops,
		 cpu_s: (.threads[0].cpu_ns / 1e9)} end'
}
bare_window() { # bare_window WORKLOAD
	"$BIN/bare" "$1" "$pr_dur" "$pr_warm" "$cpu0" |
		jq -c '{wall: .ops_per_sec, cpu: .ops_per_cpu_s, share: (.cpu_s / .wall_s), ops, cpu_s}'
}
# A round in which one arm hardly ran is no pair: once under heavy load a
# bare window got 0 s of CPU (0 operations), which left the whole run's
# ratio undefined, and a window with a sliver of CPU is one stint of a
# thread that just got its PU back, its caches cold.  So a round is
# dropped, counted and redone (the same arm order) when an arm's lock
# thread completed no operation or was on CPU for less than pr_min_share
# of its window, by its own CPU time.  The rule reads time shares, not
# operation counts: it does not change with the machine's speed, nor with
# a speed that drifts during the run.  1% of the window: the loaded runs
# docs/harness-cost.md reports gave the lock thread 20-50% of its PU (the median
# window's share); a thread gets under 1% when a hundred others of its
# weight share its PU, or when it is not run at all (one at nice 19
# beside one busy thread at nice 0 still gets 15/1039, 1.4%, by the
# kernel's sched_prio_to_weight).  A round still dropped after pr_redo
# redos is left out (a machine that starves an arm four times running is
# too busy for the comparison, and the count says so).
# drop_rule: the rule in words, with the settings in force, for the JSON.
drop_rule() {
	printf '%s' "a round is dropped when an arm completed no operation or its lock thread was on CPU for under $(awk -v m="$pr_min_share" 'BEGIN { print m * 100 }')% of its window (its own CPU time); redone up to $pr_redo times, then left out"
}
# rounds N ARM... : each ARM is "bare:WORKLOAD" or a run object.  Prints one
# JSON array per arm ([window, ...], kept rounds in round order), then one
# array of the dropped tries ({round, try, empty: [{arm, ops, cpu_s,
# share}]}, arm an index into ARM...); or only the first failure.
rounds() {
	local n=$1 i j k t a arm w bad dropped="[]"
	shift
	local -a arms=("$@") series=() got=()
	k=${#arms[@]}
	for ((j = 0; j < k; j++)); do series[j]="[]"; done
	for ((i = 0; i < n; i++)); do
		for ((t = 0; t <= pr_redo; t++)); do
			bad="[]"
			for ((j = 0; j < k; j++)); do
				a=$(((i + j) % k))
				arm=${arms[a]}
				if [[ $arm == bare:* ]]; then w=$(bare_window "${arm#bare:}"); else w=$(sb_window "$arm"); fi
				if [ "$(jq -r '.status // "ok"' <<<"$w")" != ok ]; then
					echo "$w"
					return 0
				fi
				got[a]=$w
				bad=$(jq -c --argjson w "$w" --argjson a "$a" --argjson d "$pr_dur" \
					--argjson m "$pr_min_share" 'if $w.ops > 0 and $w.cpu_s >= $m * $d then .
					else . + [{arm: $a, ops: $w.ops, cpu_s: $w.cpu_s, share: $w.share}] end' <<<"$bad")
			done
			if [ "$bad" = "[]" ]; then
				for ((j = 0; j < k; j++)); do
					series[j]=$(jq -c --argjson w "${got[j]}" '. + [$w]' <<<"${series[j]}")
				done
				break
			fi
			dropped=$(jq -c --argjson i "$i" --argjson t "$t" --argjson b "$bad" \
				'. + [{round: $i, try: $t, empty: $b}]' <<<"$dropped")
		done
	done
	printf '%s\n' "${series[@]}" "$dropped"
}
# dropped_doc DROPPED_JSON NAMES_JSON: the "dropped" member of a result,
# each arm named from NAMES_JSON (the ARMs' names, in rounds' order).
dropped_doc() {
	jq -c --argjson names "$2" --arg rule "$(drop_rule)" --argjson m "$pr_min_share" \
		--argjson r "$pr_redo" '{rule: $rule, min_cpu_share: $m, max_redo: $r, rounds: length,
		left_out: ([.[] | select(.try == $r)] | length),
		windows: map(.empty |= map(.arm |= $names[.]))}' <<<"$1"
}
# too_few KEPT DROPPED_DOC: why a comparison has no ratio.  Two rounds at
# least: one left is a machine too busy to say.
too_few() {
	jq -r --argjson k "$1" --argjson n "$pr_rounds" '"\($k) of \($n) rounds kept: \(.left_out) had an arm hardly run in each of \(.max_redo + 1) tries (\(.rule))"' <<<"$2"
}
# pair_ratio A_SERIES B_SERIES FIELD: ratio.c over the rounds' A/B of FIELD.
pair_ratio() {
	ratio "$(jq -c --arg f "$3" 'map(.[$f])' <<<"$1")" "$(jq -c --arg f "$3" 'map(.[$f])' <<<"$2")"
}
