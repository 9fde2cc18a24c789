#!/usr/bin/env bash
# tier: quick
# t-signals.sh - signals armed from the start, SIGPIPE and SIGHUP handled
# deliberately, the run child dies with its parent, and the watchdog does
# not count time the parent was stopped.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$TMP/two.json" <<'JSON'
{"defaults": {"repetitions": 1, "warmup_s": 0, "events": []},
 "runs": [{"workload": "spin-tas", "duration_s": 0.2}, {"workload": "futex", "duration_s": 3}]}
JSON

# SIGINT as soon as the handler is armed (SigCgt in /proc), which must be
# before the first run: acted on at once, not after that 3 s run.  (Before
# the handler, a background job of a script ignores SIGINT, as bash sets
# it up: that window is the process's start-up, not the suite's.)
cat >"$TMP/early.json" <<'JSON'
{"defaults": {"repetitions": 1, "warmup_s": 0, "events": []},
 "runs": [{"workload": "spin-tas", "duration_s": 3}, {"workload": "futex", "duration_s": 3}]}
JSON
"$SB" run -c "$TMP/early.json" -o "$TMP/early.json.out" -q >/dev/null 2>"$TMP/err" &
pid=$!
for _ in $(seq 400); do
	cgt=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	# SIGINT is signal 2: bit 1 of the caught mask.
	if [ -n "$cgt" ] && (((16#$cgt >> 1) & 1)); then break; fi
	sleep 0.005 # at most 2 s
done
t0=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check "signals: SIGINT once the handler is armed exits 130 (got $rc) within 1 s (${ms} ms)" \
	test "$rc" -eq 130 -a "$ms" -lt 1000
check "signals: ... and writes the results so far, marked interrupted" \
	jq -e '.meta.interrupted.signal == 2 and .meta.interrupted.runs_planned == 2' "$TMP/early.json.out"

# signalled CONFIG OUT SECONDS SIGNAL: a run given SIGNAL after SECONDS;
# its exit status in rc.
signalled() {
	"$SB" run -c "$1" -o "$2" -q >/dev/null 2>"$TMP/err" &
	local pid=$!
	sleep "$3"
	kill "-$4" "$pid"
	wait "$pid"
	rc=$?
}

# SIGHUP (a dropped ssh session): a stop like SIGTERM, results kept.
signalled "$TMP/two.json" "$TMP/hup.json" 1.2 HUP
check "signals: SIGHUP exits 129 (got $rc)" test "$rc" -eq 129
check "signals: ... keeping the completed run" \
	jq -e '[.results[].status] == ["ok", "interrupted"] and .meta.interrupted.name != null' "$TMP/hup.json"

# SIGPIPE: progress into a pipe that closes after one line.
"$SB" run -c "$TMP/two.json" -o "$TMP/pipe.json" 2>&1 | head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
check "signals: stderr into a closed pipe: the suite finishes, exit 0 (got $rc)" test "$rc" -eq 0
check "signals: ... and writes the whole result" \
	jq -e '[.results[].status] == ["ok", "ok"]' "$TMP/pipe.json"

# Killing only the parent kills the run's child too (PR_SET_PDEATHSIG).
"$SB" run -c "$TMP/two.json" -o "$TMP/orphan.json" -q 2>/dev/null &
pid=$!
sleep 1.0 # inside the second run (3 s)
kids=$(cat /proc/"$pid"/task/*/children 2>/dev/null)
kill -KILL "$pid"
wait "$pid" 2>/dev/null
sleep 0.5
alive=""
for k in $kids; do
	if [ -e "/proc/$k" ] && ! grep -q '^State:.*Z' "/proc/$k/status" 2>/dev/null; then alive="$alive $k"; fi
done
check "signals: SIGKILL of the parent ends its run child (children: ${kids:-none}; alive:${alive:- none})" \
	test -n "$kids" -a -z "$alive"

# The watchdog and SIGSTOP: a 1 s run with a 2 s timeout, the parent
# stopped for 3 s in the middle: the run finished, so it is ok.
cat >"$TMP/stop.json" <<'JSON'
{"runs": [{"workload": "spin-tas", "repetitions": 1, "duration_s": 1, "warmup_s": 0,
           "events": [], "timeout_s": 2}]}
JSON
"$SB" run -c "$TMP/stop.json" -o "$TMP/stop-out.json" -q 2>"$TMP/err" &
pid=$!
sleep 0.3
kill -STOP "$pid"
sleep 3
kill -CONT "$pid"
wait "$pid"
check "signals: a parent stopped 3 s does not fail a 1 s run (timeout_s 2): $(jq -r '.results[0] | .status + " " + (.reason // "")' "$TMP/stop-out.json" 2>/dev/null)" \
	jq -e '.results[0].status == "ok"' "$TMP/stop-out.json"

# A tiny timeout_s is reported as given.
cat >"$TMP/tiny-to.json" <<'JSON'
{"runs": [{"workload": "spin-tas", "repetitions": 1, "duration_s": 2, "warmup_s": 0,
           "events": [], "timeout_s": 0.3}]}
JSON
"$SB" run -c "$TMP/tiny-to.json" -o "$TMP/tiny-out.json" -q 2>/dev/null
check "signals: timeout_s 0.3 is reported as 0.3 s: $(jq -r '.results[0].reason' "$TMP/tiny-out.json" 2>/dev/null)" \
	jq -e '.results[0].reason | test("no result after 0.3 s")' "$TMP/tiny-out.json"
check "signals: the result interrupted before its first run validates" "$SB" validate "$TMP/early.json.out"

# A holder trace's tracefs instance (sched_switch into a 4 MiB-per-CPU
# buffer, tracing on) outlives a run process killed by its watchdog or by
# SIGKILL: the parent removes a killed child's, the next traced run every
# one whose process is gone.  Other tests' live instances are left alone.
cat >"$TMP/ht-dog.json" <<'JSON'
{"runs": [{"workload": "spin-tas", "repetitions": 1, "duration_s": 3, "warmup_s": 0,
           "events": [], "holder_trace_us": 20, "timeout_s": 1}]}
JSON
dead_instances() { # the slicebench- instances under $tr whose process is gone
	local i pid
	for i in "$tr"/instances/slicebench-*; do
		[ -d "$i" ] || continue
		pid=${i##*-}
		[ -e "/proc/$pid" ] || printf '%s ' "${i##*/}"
	done
}
"$SB" run -c "$TMP/ht-dog.json" -o "$TMP/ht-dog-out.json" -q 2>/dev/null
tr=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
if ! jq -e '.results[0].reason | test("no result after 1 s")' "$TMP/ht-dog-out.json" >/dev/null 2>&1; then
	notok "signals: the traced run was not stopped by its watchdog: $(jq -c '.results[0] | [.status, .reason]' "$TMP/ht-dog-out.json" 2>&1)"
elif [ -z "$tr" ]; then
	notok "signals: no tracefs is mounted after a holder-traced run: the leftover instances cannot be checked"
else
	left=$(dead_instances)
	check "signals: a traced run killed by its watchdog leaves no tracefs instance (left: ${left:-none})" test -z "$left"
	sed 's/"timeout_s": 1/"timeout_s": 30/' "$TMP/ht-dog.json" >"$TMP/ht-kill.json"
	"$SB" run -c "$TMP/ht-kill.json" -o "$TMP/ht-kill-out.json" -q 2>/dev/null &
	pid=$!
	for _ in $(seq 100); do # the child's instance, within 10 s
		kids=$(awk '{ print $1; exit }' /proc/"$pid"/task/*/children 2>/dev/null)
		[ -n "$kids" ] && ls -d "$tr/instances/slicebench-hold-"*"-$kids" >/dev/null 2>&1 && break
		sleep 0.1
	done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	for _ in $(seq 50); do [ -n "$kids" ] && [ -e "/proc/$kids" ] && sleep 0.1; done
	left=$(dead_instances)
	if [ -z "$left" ]; then
		notok "signals: SIGKILL of a traced run left no instance to sweep (child ${kids:-none}): the case did not happen"
	else
		sed 's/"duration_s": 3/"duration_s": 0.2/' "$TMP/ht-kill.json" >"$TMP/ht-next.json"
		"$SB" run -c "$TMP/ht-next.json" -o "$TMP/ht-next-out.json" -q 2>"$TMP/err" ||
			notok "signals: the next traced run failed: $(tail -1 "$TMP/err")"
		now=$(dead_instances)
		check "signals: the next traced run removes the instance of a SIGKILLed run ($left; left: ${now:-none})" test -z "$now"
	fi
fi

# A stop signal during a run of several repetitions keeps the ones it
# completed, for a lock's run and a program's alike; the one in flight is
# dropped.
cat >"$TMP/reps.json" <<'JSON'
{"defaults": {"repetitions": 8, "warmup_s": 0, "events": []},
 "runs": [{"workload": "spin-tas", "duration_s": 0.3},
          {"workload": "program", "command": ["sh", "-c", "sleep 0.3; echo 5"], "metric": "([0-9]+)"}]}
JSON
jq '.runs |= [.[1]]' "$TMP/reps.json" >"$TMP/reps-prog.json"
for c in reps reps-prog; do
	signalled "$TMP/$c.json" "$TMP/$c-out.json" 1.6 INT
	# shellcheck disable=SC2016 # $rc is jq's
	check "signals: SIGINT during the $c.json run's repetitions exits 130 (got $rc), keeping those completed ($(jq -c '[.results[-1] | .status, (.repetitions | length), .reason]' "$TMP/$c-out.json"))" \
		jq -e --argjson rc "$rc" '$rc == 130 and (.results[-1] | .status == "interrupted" and (.repetitions | length) >= 2
		       and (.repetitions | length) == .summary.ops_per_sec.n and (.reason | test("kept")))' "$TMP/$c-out.json"
done
