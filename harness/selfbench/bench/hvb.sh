# shellcheck shell=bash
# hvb.sh - section 2: the harness against a bare loop of the same code.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# --- 2. Harness against a bare loop, and the hardware floor ---------------
# Same work: 1 thread on the first PU of "compact", cs_ns 0, think_ns 0, one
# shared line written per critical section; the harness as users run it
# (sampled loop, default events).  The bare program runs the same loop
# function, compiled from the same header on the same 64-byte boundary
# (harness/selfbench/bare.c): an A/A comparison of the harness around that loop,
# whose target is a ratio within 0.97..1.03.
harness_vs_bare() { # harness_vs_bare WORKLOAD: one result line
	local wl=$1 out h b dr kept
	out=$(rounds "$pr_rounds" "$(jq -c --arg w "$wl" '. + {workload: $w}' <<<"$hb")" "bare:$wl")
	if [ "$(wc -l <<<"$out")" -lt 3 ]; then
		jq -c --arg w "$wl" --argjson p "$hb" '{section: "harness_vs_bare", workload: $w,
			status, reason, params: $p}' <<<"$out"
		return 0
	fi
	h=$(sed -n 1p <<<"$out") b=$(sed -n 2p <<<"$out")
	dr=$(dropped_doc "$(sed -n 3p <<<"$out")" '["harness", "bare"]')
	kept=$(jq length <<<"$h")
	if [ "$kept" -lt 2 ]; then
		jq -nc --arg w "$wl" --argjson p "$hb" --argjson d "$dr" --argjson k "$kept" \
			--argjson n "$pr_rounds" --arg why "$(too_few "$kept" "$dr")" \
			'{section: "harness_vs_bare", workload: $w, status: "failed", reason: $why, params: $p,
			  rounds: {planned: $n, kept: $k, dropped: $d.rounds, left_out: $d.left_out}, dropped: $d}'
		return 0
	fi
	jq -n --arg w "$wl" --argjson h "$h" --argjson b "$b" --argjson p "$hb" --argjson dr "$dr" \
		--argjson n "$pr_rounds" \
		--argjson rc "$(pair_ratio "$h" "$b" cpu)" --argjson rw "$(pair_ratio "$h" "$b" wall)" \
		'def med: sort | if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		 {section: "harness_vs_bare", workload: $w, status: "ok", params: $p, threads: 1,
		  method: "rotating rounds of one window per arm; ratio per round; t interval on log ratios",
		  rounds: {planned: $n, kept: ($h | length), dropped: $dr.rounds, left_out: $dr.left_out},
		  dropped: $dr, windows: {harness: $h, bare: $b},
		  ops_per_sec: {harness: ($h | map(.wall)), bare: ($b | map(.wall))},
		  ops_per_cpu_s: {harness: ($h | map(.cpu)), bare: ($b | map(.cpu))},
		  cpu_share: {harness: ($h | map(.share) | med), bare: ($b | map(.share) | med)},
		  harness_vs_bare: $rc, harness_vs_bare_wall: $rw,
		  ns_per_op: {harness: (1e9 / ($h | map(.cpu) | med)), bare: (1e9 / ($b | map(.cpu) | med))},
		  target: {ratio: "harness_vs_bare.gmean (per on-CPU second)", min: 0.97, max: 1.03},
		  met: ($rc.gmean >= 0.97 and $rc.gmean <= 1.03)}'
}
for wl in "${hvb_wl[@]}"; do
	note "harness vs bare: $wl"
	harness_vs_bare "$wl" | add
	floor_locks=$(jq -c --arg w "$wl" --slurpfile l <(tail -n1 "$RES") \
		'if $l[0].status == "ok" then . + {($w): $l[0].ns_per_op} else . end' <<<"$floor_locks")
done

