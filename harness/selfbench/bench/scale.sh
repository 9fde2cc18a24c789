# shellcheck shell=bash
# scale.sh - section 4: the harness's scale in threads.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# --- 4. Scale of the harness in threads, on all PUs -----------------------
# futex: waiters sleep, so leaving the loop after STOP costs one wake per
# thread, not a spinner's wait for a preempted holder.  Wall from outside
# minus the planned warm-up + window = setup + teardown (exec, topology,
# calibration, fork, threads, join, summary, write).
sd=0.1
for n in "${scale_n[@]}"; do
	note "scale: $n threads"
	jq -n --argjson n "$n" --argjson d "$sd" '{name: "bench-scale", runs: [{workload: "futex",
		threads: $n, pin: "compact", repetitions: 1, duration_s: $d, warmup_s: 0}]}' >"$W/s.json"
	rm -f "$W/s-out.json"
	t0=$(now)
	/usr/bin/time -f '%e %M' -o "$W/time.txt" "$SB" run -c "$W/s.json" -o "$W/s-out.json" -q
	t1=$(now)
	read -r _ rss <"$W/time.txt"
	wc=$("$BIN/writecost" "$W/s-out.json" "$W" 5)
	# The same point with keep: "summary": what the size is without the
	# per-thread arrays and histogram buckets.
	jq '.runs[0].keep = "summary"' "$W/s.json" >"$W/s-sum.json"
	rm -f "$W/s-sum-out.json"
	"$SB" run -c "$W/s-sum.json" -o "$W/s-sum-out.json" -q
	jq -n --argjson n "$n" --argjson d "$sd" --argjson wall "$(jq -n "$t1 - $t0")" \
		--argjson rss "$rss" --argjson bytes "$(stat -c %s "$W/s-out.json")" --argjson wc "$wc" \
		--argjson sbytes "$(stat -c %s "$W/s-sum-out.json")" \
		--argjson st "$(jq -c '.results[0] | {status, reason}' "$W/s-out.json")" \
		'{section: "scale", workload: "futex", threads: $n, status: $st.status, reason: $st.reason,
		  planned_s: $d, wall_s: $wall, setup_teardown_s: ($wall - $d), max_rss_kib: $rss,
		  json_bytes: $bytes, json_bytes_keep_summary: $sbytes, write_s: $wc.median_s,
		  target: (if $n == 512 then {max_rss_kib: 65536, max_setup_teardown_s: 1} else null end),
		  met: (if $n == 512 then ($rss <= 65536 and ($wall - $d) <= 1) else null end)}' | add
done
# JSON size against threads: least squares, and how far from a line it is.
# Failed points (no result document to size) are left out of the fit.
jq -s '[.[] | select(.section == "scale" and .status == "ok")] as $s
	| ($s | length) as $k | ($s | map(.threads) | add / $k) as $mx
	| ($s | map(.json_bytes) | add / $k) as $my
	| ($s | map((.threads - $mx) * (.json_bytes - $my)) | add) as $sxy
	| ($s | map((.threads - $mx) * (.threads - $mx)) | add) as $sxx
	| ($s | map((.json_bytes - $my) * (.json_bytes - $my)) | add) as $syy
	| {section: "scale_fit", status: "ok", threads: ($s | map(.threads)),
	   bytes_per_thread: ($sxy / $sxx), intercept_bytes: ($my - $sxy / $sxx * $mx),
	   r2: (if $syy > 0 then ($sxy * $sxy / ($sxx * $syy)) else 1 end),
	   target: {min_r2: 0.99}, met: ((if $syy > 0 then ($sxy * $sxy / ($sxx * $syy)) else 1 end) >= 0.99)}' \
	"$RES" | add

