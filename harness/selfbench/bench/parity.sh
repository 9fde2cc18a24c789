# shellcheck shell=bash
# parity.sh - section 3: parity with `perf bench futex lock-pi`.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# --- 3. Parity with perf bench futex lock-pi ------------------------------
# perf 6.1's worker: FUTEX_LOCK_PI syscall, usleep(1), FUTEX_UNLOCK_PI
# syscall, ops++.  usleep(1) under SCHED_OTHER's default 50 us timer slack
# sleeps ~60 us, which is what perf really measures.  sleepcost times that
# sleep here; futex-pi with cs_ns = that time is the matched run, and the
# same again with a 1 ns slack (inherited by perf through exec) shows the
# slack is the cause.  perf 6.1 pins worker i to CPU i (checked in
# /proc/PID/task/*/status): that is "compact".
nthr=$("$SB" info --json | jq '.topology.pus')
# `--help` exits 129: keep its text, not its status.
phelp=$(perf bench futex lock-pi --help 2>&1 || true)
if [[ $phelp == *--runtime* ]]; then
	popts=$(grep -o -- '--[a-z-]*' <<<"$phelp" | sort -u | jq -R . | jq -sc .)
	for variant in "${parity[@]}"; do
		note "parity: $variant"
		n=$nthr slack=-1
		case $variant in
		matched-1) n=1 ;;
		slack1) slack=1 ;;
		esac
		sl=$("$BIN/sleepcost" --slack "$slack" --iters "$([ "$mode" = smoke ] && echo 200 || echo 5000)")
		cs=0
		[ "$variant" = shipped ] || cs=$(jq '.mean_ns | round' <<<"$sl")
		pr=(perf bench futex lock-pi -t "$n" -r "$perf_s")
		[ "$slack" -lt 0 ] || pr=("$BIN/sleepcost" --slack "$slack" --exec "${pr[@]}")
		pf="[]" sbv="[]" det="[]" idlers=()
		# nohalt: one SCHED_IDLE spinner per PU keeps the PUs from halting
		# (any woken thread preempts it at once).  In a VM an idle vCPU
		# halts, and waking it again is the hypervisor's business: this
		# variant shows what of the 2-thread gap that costs.
		if [ "$variant" = nohalt ]; then
			for c in $(seq 0 $((nthr - 1))); do
				taskset -c "$(( $(cut -d- -f1 <<<"$cpu0") + c ))" chrt -i 0 \
					sh -c 'while :; do :; done' &
				idlers+=($!)
			done
		fi
		for ((i = 0; i < pairs; i++)); do
			for k in $( ((i % 2)) && echo "sb perf" || echo "perf sb"); do
				if [ "$k" = perf ]; then
					x=$("${pr[@]}" | awk '/\[thread/ { gsub(/\[|\]/, ""); s += $(NF-1) } END { print s + 0 }')
					pf=$(jq -c --argjson x "$x" '. + [$x]' <<<"$pf")
				else
					r=$(sbrun "$(jq -nc --argjson n "$n" --argjson cs "$cs" --argjson d "$sb_s" \
						'{workload: "futex-pi", threads: $n, pin: "compact", cs_ns: $cs, think_ns: 0,
						  repetitions: 1, duration_s: $d, warmup_s: 0.1}')")
					sbv=$(jq -c --argjson x "$(ops <<<"$r")" '. + [$x]' <<<"$sbv")
					# What the busy critical section really took, and why.
					det=$(jq -c --argjson r "$r" '. + [$r.summary | {hold_mean_ns: .hold_ns.mean,
						hold_p50_ns: .hold_ns.p50, preemptions_per_1000_ops: .counters.preemptions_per_1000_ops,
						context_switches_per_op: .counters.context_switches_per_op}]' <<<"$det")
				fi
			done
		done
		[ ${#idlers[@]} -eq 0 ] || { kill "${idlers[@]}"; wait "${idlers[@]}" 2>/dev/null || true; }
		r=$(ratio "$sbv" "$pf")
		jq -n --arg v "$variant" --argjson n "$n" --argjson cs "$cs" --argjson sl "$sl" \
			--argjson pf "$pf" --argjson sb "$sbv" --argjson r "$r" --argjson o "$popts" \
			--arg cmd "${pr[*]}" --argjson d "$perf_s" --argjson det "$det" \
			'{section: "parity", variant: $v, status: "ok", threads: $n, runtime_s: $d,
			  pin: "compact (perf 6.1 pins worker i to CPU i)", perf_command: $cmd,
			  perf_options: $o, usleep1: $sl, slicebench_cs_ns: $cs,
			  ops_per_sec: {perf: $pf, slicebench: $sb}, slicebench_detail: $det,
			  perf_ns_per_op: (1e9 / ($pf | sort | .[length / 2 | floor])),
			  slicebench_vs_perf: $r,
			  target: (if $v == "shipped" then {explained_by: "usleep1"} else {min: 0.9, max: 1.1} end),
			  met: (if $v == "shipped" then null else ($r.median >= 0.9 and $r.median <= 1.1) end)}' | add
	done
else
	jq -n '{section: "parity", variant: "shipped", status: "unsupported",
		reason: "perf bench futex lock-pi not available (Debian linux-perf)"}' | add
fi

