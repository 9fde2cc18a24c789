# shellcheck shell=bash
# overhead.sh - sections 1 and 1b: what the instrumentation and the
# grant-duration tracing cost.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# --- 1. Instrumentation overhead: sampled / every against bare -------------
# 1 thread: uncontended, the shortest operation, where per-op timing code
# weighs most.  The harness's default cs_ns and think_ns (100/200 ns), so
# this is the default run with and without its instrumentation.
base=$(jq -nc --argjson d "$dur" --argjson w "$warm" \
	'{threads: 1, repetitions: 1, duration_s: $d, warmup_s: $w}')
for wl in "${ovh_wl[@]}"; do
	note "overhead: $wl"
	declare -A v=([bare]="[]" [sampled]="[]" [every]="[]")
	status=ok reason=null
	for ((i = 0; i < pairs; i++)); do
		# ABAB: the order flips every round so drift hits both sides.
		if ((i % 2)); then order=(every sampled bare); else order=(bare sampled every); fi
		for k in "${order[@]}"; do
			case $k in
			bare) extra='{loop: "bare", events: []}' ;;
			sampled) extra='{loop: "sampled"}' ;;
			every) extra='{loop: "every"}' ;;
			esac
			r=$(sbrun "$(jq -nc --argjson b "$base" --arg w "$wl" "\$b + {workload: \$w} + $extra")")
			st=$(jq -r .status <<<"$r")
			if [ "$st" != ok ]; then
				status=$st reason=$(jq -c .reason <<<"$r")
				break 2
			fi
			v[$k]=$(jq -c --argjson x "$(ops <<<"$r")" '. + [$x]' <<<"${v[$k]}")
		done
	done
	if [ "$status" = ok ]; then
		rs=$(ratio "${v[sampled]}" "${v[bare]}")
		re=$(ratio "${v[every]}" "${v[bare]}")
		jq -n --arg w "$wl" --argjson b "${v[bare]}" --argjson s "${v[sampled]}" \
			--argjson e "${v[every]}" --argjson rs "$rs" --argjson re "$re" --argjson p "$base" \
			'{section: "overhead", workload: $w, status: "ok", params: $p, threads: 1,
			  ops_per_sec: {bare: $b, sampled: $s, every: $e},
			  sampled_vs_bare: $rs, every_vs_bare: $re,
			  target: {ratio: "sampled_vs_bare", min: 0.98},
			  met: ($rs.median >= 0.98)}' | add
	else
		jq -n --arg w "$wl" --arg s "$status" --argjson why "$reason" \
			'{section: "overhead", workload: $w, status: $s, reason: $why}' | add
	fi
	unset v
done

# --- 1b. The grant-duration tracing: slice_trace 1 against 0 -------------
# The slice_test shape (one requester, a 2 us on / 50 us off noise thread on
# its PU), where grants are densest per second.  Only a kernel with the
# extension and tracefs can trace: elsewhere the reason is recorded.
st=$(jq -nc --argjson d "$dur" --argjson w "$warm" \
	'{workload: "slice-test", threads: 1, pin: "cpus:0", cs_ns: 2000, think_ns: 0, noise: 1,
	  noise_busy_ns: 2000, noise_sleep_ns: 50000, repetitions: 1, duration_s: $d,
	  warmup_s: $w, events: []}')
note "slice_trace cost"
declare -A v=([0]="[]" [1]="[]")
status=ok reason=null
for ((i = 0; i < pairs; i++)); do
	for k in $( ((i % 2)) && echo "1 0" || echo "0 1"); do
		r=$(sbrun "$(jq -nc --argjson b "$st" --argjson k "$k" '$b + {slice_trace: $k}')")
		ext=$(jq -c '.summary.slice.extension_ns // {}' <<<"$r")
		if [ "$(jq -r .status <<<"$r")" != ok ]; then
			status=$(jq -r .status <<<"$r") reason=$(jq -c .reason <<<"$r")
			break 2
		elif [ "$k" = 1 ] && [ "$(jq -r .status <<<"$ext")" != ok ]; then
			status=unsupported reason=$(jq -c .reason <<<"$ext")
			break 2
		fi
		v[$k]=$(jq -c --argjson x "$(ops <<<"$r")" '. + [$x]' <<<"${v[$k]}")
	done
done
if [ "$status" = ok ]; then
	jq -n --argjson on "${v[1]}" --argjson off "${v[0]}" --argjson r "$(ratio "${v[1]}" "${v[0]}")" \
		--argjson p "$st" '{section: "slice_trace", status: "ok", params: $p,
		  ops_per_sec: {traced: $on, untraced: $off}, traced_vs_untraced: $r}' | add
else
	jq -n --arg s "$status" --argjson why "$reason" \
		'{section: "slice_trace", workload: "slice-test", status: $s, reason: $why}' | add
fi
unset v

