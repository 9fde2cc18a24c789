# shellcheck shell=bash
# probe.sh - section 4b: the victim probe against rt-tests' cyclictest.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# --- 4b. Victim probe vs cyclictest, same CPU-hog load, interval, CPU ------
# The load: one cpu-hog per PU.  cyclictest runs on CPU 0 while a load-only
# run is going; then the harness runs the same load with its own probe on
# CPU 0 (the victim goes to the first lock thread's PU).  The two run one
# after the other, so foreign load on the machine can hit one and not the
# other: a benchmark, not a test (tests/t-interference.sh keeps what holds
# under load).  p99 is a dense statistic: within 25% or 20 us.  The max is
# one sample of a heavy tail (whether a tick-long stall lands in a 4 s
# window is chance): each tool's max must lie between its own p99 and
# 10 ms (2.5 ticks at HZ=250).
note "victim probe vs cyclictest"
pr_dur=4
[ "$mode" = smoke ] && pr_dur=1
jq -n --argjson d "$((pr_dur + 1))" '{runs: [{workload: "cpu-hog", threads: "1x", pin: "compact",
	repetitions: 1, duration_s: $d, warmup_s: 0.2, events: []}]}' >"$W/pload.json"
jq -n --argjson d "$pr_dur" '{runs: [{workload: "cpu-hog", threads: "1x", pin: "compact",
	repetitions: 1, duration_s: $d, warmup_s: 0.2, events: [], victim: {interval_us: 1000}}]}' >"$W/pprobe.json"
if ! command -v cyclictest >/dev/null; then
	jq -n '{section: "probe", status: "unsupported",
		reason: "cyclictest is not installed (rt-tests, from scripts/install-deps.sh check)"}' | add
else
	rm -f "$W/pload-out.json" "$W/pprobe-out.json" "$W/cyc.json"
	"$SB" run -c "$W/pload.json" -o "$W/pload-out.json" -q &
	pr_load=$!
	sleep 0.5
	cyclictest -t1 -a0 -i1000 -D"$pr_dur" -q -h 20000 --json="$W/cyc.json" >/dev/null 2>&1 || true
	wait "$pr_load" || true
	"$SB" run -c "$W/pprobe.json" -o "$W/pprobe-out.json" -q || true
	# rt-tests 2.4 writes "cmdline:" with a stray colon; take keys by name.
	c99=$(jq '.thread["0"].histogram | to_entries | map([(.key | tonumber), .value]) | sort_by(.[0])
		| (map(.[1]) | add) as $tot
		| reduce .[] as $e ({n: 0, p: null}; .n += $e[1] | if .p == null and .n >= 0.99 * $tot then .p = $e[0] else . end)
		| .p' "$W/cyc.json" 2>/dev/null || echo null)
	cmax=$(jq '.thread["0"].max' "$W/cyc.json" 2>/dev/null || echo null)
	v99=$(jq '.results[0].summary.victim.p99 / 1000 | floor' "$W/pprobe-out.json" 2>/dev/null || echo null)
	vmax=$(jq '.results[0].summary.victim.max / 1000 | floor' "$W/pprobe-out.json" 2>/dev/null || echo null)
	jq -n --argjson c99 "${c99:-null}" --argjson cmax "${cmax:-null}" --argjson v99 "${v99:-null}" \
		--argjson vmax "${vmax:-null}" '
		if [$c99, $cmax, $v99, $vmax] | any(. == null) then
			{section: "probe", status: "failed", reason: "a tool gave no figure (cyclictest p99 \($c99), probe p99 \($v99))"}
		else
			(if 0.25 * $c99 > 20 then 0.25 * $c99 else 20 end) as $tol |
			{section: "probe", status: "ok", cyclictest_us: {p99: $c99, max: $cmax}, probe_us: {p99: $v99, max: $vmax},
			 target: "p99 within 25% or 20 us; each max in [its p99, 10 ms]",
			 met: ((($v99 - $c99) | fabs) <= $tol and $vmax >= $v99 and $cmax >= $c99 and $vmax <= 10000 and $cmax <= 10000)}
		end' | add
fi
