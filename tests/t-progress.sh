#!/usr/bin/env bash
# tier: quick
# alone: its ETA is checked against the time the suite really took
# t-progress.sh - long work says where it is, and its ETA is honest: a short
# suite's "[i/N] ... (ETA s)" lines, timed as they arrive, against the time
# the suite really took from each line to its end.
#
# Tolerance: within 40% of the real time left, or 1.5 s (one run's set-up
# on a loaded 2-CPU machine), whichever is larger.  The first line has no
# run to learn from and shows the plan alone; it is checked only for being
# printed.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

cat >"$TMP/eta.json" <<'JSON'
{"defaults": {"repetitions": 2, "duration_s": 0.6, "warmup_s": 0.1, "events": [], "threads": "1x"},
 "runs": [{"workload": ["spin-tas", "futex", "adaptive", "spin-ticket", "pthread"]}]}
JSON
"$SB" run -c "$TMP/eta.json" -o "$TMP/eta-out.json" 2>&1 >/dev/null |
	while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N)" "$l"; done >"$TMP/lines"
t_end=$(date +%s.%N)
n=$(grep -c ' \[[0-9]*/5\] ' "$TMP/lines")
check "progress: a line per run as it starts ($n of 5)" test "$n" -eq 5
bad=0
while read -r t i eta; do
	real=$(awk -v a="$t" -v b="$t_end" 'BEGIN { printf "%.1f", b - a }')
	if awk -v e="$eta" -v r="$real" 'BEGIN { d = e - r; if (d < 0) d = -d; tol = 0.4 * r; if (tol < 1.5) tol = 1.5; exit !(d <= tol) }'; then
		ok "progress: ETA at [$i/5] is ${eta} s, ${real} s really left"
	else
		notok "progress: ETA at [$i/5] is ${eta} s but ${real} s were left (tolerance max(40%, 1.5 s))"
		bad=1
	fi
done < <(sed -n -E 's/^([0-9.]+) \[([2-5])\/5\] .*\(ETA ([0-9]+) s\)$/\1 \2 \3/p' "$TMP/lines")
[ "$bad" = 0 ] || sed 's/^/# /' "$TMP/lines"
check "progress: the suite's result is complete" jq -e '[.results[].status] | length == 5 and all(. == "ok")' "$TMP/eta-out.json"

# scripts/studies.sh says where it is at each step, and Ctrl-C stops it with
# what completed kept: one short host study to the end, then a long one
# interrupted in its first step (SIGINT to the process group, as a
# terminal sends it).
S="$TMP/studies"
scripts/studies.sh --host-only --only syscall-vs-atomic --out "$S" >/dev/null 2>"$TMP/st.err"
rc=$?
check "studies: a host study runs to the end (exit $rc)" test "$rc" -eq 0 -a -s "$S/syscall-vs-atomic-host.json"
check "studies: a line when the step starts, with elapsed and time left" \
	grep -qE '^studies.sh: \[1/1\] syscall-vs-atomic \(host\): elapsed 0m[0-9]{2}s, about [0-9]+m[0-9]{2}s left$' "$TMP/st.err"
check "studies: a line when it ends, with the time it took and the plan" \
	grep -qE '^studies.sh: \[1/1\] syscall-vs-atomic \(host\) took [0-9]+m[0-9]{2}s \(planned 0m01s\)$' "$TMP/st.err"
rc=0
scripts/studies.sh --boots 0 --out "$S" >/dev/null 2>"$TMP/st0.err" || rc=$?
check "studies: --boots 0 is refused with exit 2 (got $rc)" test "$rc" -eq 2
check "studies: ... and says why: $(cat "$TMP/st0.err")" \
	grep -qx "studies.sh: --boots: '0' is not a count from 1 to 99" "$TMP/st0.err"
set -m
scripts/studies.sh --host-only --only syscall-vs-atomic,rostedt-2023 --out "$S" >/dev/null 2>"$TMP/st2.err" &
spid=$!
set +m
for _ in $(seq 1 1200); do
	grep -q '^studies.sh: \[2/2\] rostedt-2023' "$TMP/st2.err" 2>/dev/null && break
	sleep 0.1
done
sleep 2
kill -INT -- "-$spid"
rc=0
wait "$spid" || rc=$?
check "studies: Ctrl-C stops it with 130 (got $rc)" test "$rc" -eq 130
check "studies: ... says in which step" grep -q '^studies.sh: stopped (exit 130) in step 1 of 2 after' "$TMP/st2.err"
check "studies: ... keeps the finished step" jq -e '.results[0].status == "ok"' "$S/syscall-vs-atomic-host.json"
check "studies: ... and the step in flight, its run marked interrupted" \
	jq -e '(.results | last | .status) == "interrupted" and .meta.interrupted != null' "$S/rostedt-2023-host.json"
