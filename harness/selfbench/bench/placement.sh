# shellcheck shell=bash
# placement.sh - section 2b: what each placement's stores cost.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# --- 2b. What each placement's stores cost, per lock ----------------------
# Each placement (cs, pre, rearm) as its dry control (the requests go to an
# area the kernel never reads) against the same lock with no request, in
# the same rounds as section 2: 1 thread, nothing to wait for, so this is
# the cost of the request and clear stores and their checks in the loop,
# nothing else.  It does not measure a grant, rseq_slice_yield(), waiters
# carrying the request (pre) or re-arming per failed attempt (rearm): those
# need contention and a kernel that grants.  The real placement against its
# dry control runs where the kernel has the extension; elsewhere its row
# says why not, with the harness's own reason.
placement_cost() { # placement_cost LOCK: result lines
	local lk=$1 pl out base real st i j dr kept
	local -a series
	local -a arms=("$(jq -c --arg l "$lk" '. + {lock: $l, policy: "none"}' <<<"$hb")")
	local -a names=(none)
	for pl in "${placements[@]}"; do
		arms+=("$(jq -c --arg l "$lk" --arg p "$pl" '. + {lock: $l, policy: $p, dry: true}' <<<"$hb")")
		names+=("$pl+dry")
		real=$(jq -c --arg l "$lk" --arg p "$pl" '. + {lock: $l, policy: $p, dry: false}' <<<"$hb")
		# One short probe: does this kernel run the real placement?
		st=$(sb_window "$(jq -c '. + {duration_s: 0.02, warmup_s: 0}' <<<"$real")")
		if [ "$(jq -r '.status // "ok"' <<<"$st")" = ok ]; then
			arms+=("$real")
			names+=("$pl")
		else
			jq -c --arg l "$lk" --arg p "$pl" '{section: "placement_cost", lock: $l,
				placement: $p, arm: "real", status, reason}' <<<"$st"
		fi
	done
	out=$(rounds "$pr_rounds" "${arms[@]}")
	if [ "$(wc -l <<<"$out")" -le "${#arms[@]}" ]; then
		jq -c --arg l "$lk" '{section: "placement_cost", lock: $l, arm: "dry", status, reason}' <<<"$out"
		return 0
	fi
	mapfile -t series <<<"$out"
	base=${series[0]}
	dr=$(dropped_doc "${series[${#arms[@]}]}" "$(printf '%s\n' "${names[@]}" | jq -R . | jq -sc .)")
	kept=$(jq length <<<"$base")
	if [ "$kept" -lt 2 ]; then
		jq -nc --arg l "$lk" --argjson d "$dr" --arg why "$(too_few "$kept" "$dr")" \
			'{section: "placement_cost", lock: $l, placement: "all", arm: "dry", status: "failed",
			  reason: $why, dropped: $d}'
		return 0
	fi
	for ((i = 1; i < ${#arms[@]}; i++)); do
		local nm=${names[i]} vs=$base vsname=none
		# A real placement is compared with its own dry control.
		if [[ $nm != *+dry ]]; then
			for ((j = 1; j < i; j++)); do
				[ "${names[j]}" = "$nm+dry" ] && vs=${series[j]} vsname=${names[j]}
			done
		fi
		jq -n --arg l "$lk" --arg a "$nm" --arg vsn "$vsname" --argjson s "${series[i]}" \
			--argjson v "$vs" --argjson p "$hb" --argjson dr "$dr" \
			--argjson rc "$(pair_ratio "${series[i]}" "$vs" cpu)" \
			--argjson rw "$(pair_ratio "${series[i]}" "$vs" wall)" \
			'def med: sort | if length % 2 == 1 then .[length / 2 | floor]
				else (.[length / 2 - 1] + .[length / 2]) / 2 end;
			 ($s | map(.cpu) | med) as $x | ($v | map(.cpu) | med) as $y
			 | {section: "placement_cost", lock: $l, placement: ($a | sub("\\+dry$"; "")),
			    arm: (if ($a | endswith("+dry")) then "dry" else "real" end), against: $vsn,
			    status: "ok", params: $p, threads: 1,
			    ops_per_cpu_s: {arm: ($s | map(.cpu)), against: ($v | map(.cpu))},
			    ratio: $rc, ratio_wall: $rw, dropped: $dr,
			    ns_per_op: {arm: (1e9 / $x), against: (1e9 / $y)},
			    cost_ns_per_op: (1e9 / $x - 1e9 / $y)}'
	done
}
for lk in "${pc_locks[@]}"; do
	note "placement cost: $lk"
	placement_cost "$lk" | add
done

