#!/usr/bin/env bash
# tier: quick
# t-interleave.sh - "interleave": true runs a point's arms round-robin, one
# repetition each per round, in an order shuffled from "seed": the recorded
# rounds are permutations of the arms still running, the windows really ran
# in that order, the same seed gives the same order and another seed another
# one, every arm gets all its repetitions, and an arm that crashes or hangs
# fails alone while the others complete, and a stop signal keeps every
# window the arms completed.
# shellcheck disable=SC2016 # $a, $i in single quotes are jq's
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
SBF=${SBF:-${BUILD:-build}/slicebench-faults}

cfg() { # cfg OUT SEED RUNS
	cat >"$1" <<CFG
{ "name": "interleave", "interleave": true, "seed": $2,
  "defaults": { "repetitions": 4, "duration_s": 0.05, "warmup_s": 0.01, "threads": 2,
                "events": [], "keep": "summary" },
  "runs": $3 }
CFG
}
run() { # run BINARY CONFIG OUT: 0, or a not-ok line and 1
	if ! "$1" run -c "$2" -o "$3" -q 2>"$TMP/err"; then
		notok "interleave: $(basename "$2") did not run: $(head -3 "$TMP/err")"
		return 1
	fi
}
arms='[{"workload": ["spin-tas", "futex", "cpu-hog"]}, {"workload": "adaptive", "threads": 1}]'
cfg "$TMP/a.json" 7 "$arms"
cfg "$TMP/b.json" 7 "$arms"
cfg "$TMP/c.json" 8 "$arms"
for x in a b c; do run "$SB" "$TMP/$x.json" "$TMP/$x.out.json" || exit 0; done
A=$TMP/a.out.json
rounds() { jq -c '[.results[] | .interleave | {point, arms, rounds}] | unique' "$1"; }

check "interleave: meta.interleave records seed 7 and the generator" \
	jq -e '.meta.interleave == {"seed": 7, "rng": "mt19937"}' "$A"
check "interleave: the three arms differing only in workload are one point, adaptive at 1 thread another" \
	jq -e '[.results[].interleave | [.point, .arms]] == [[0,[0,1,2]],[0,[0,1,2]],[0,[0,1,2]],[1,[3]]]' "$A"
check "interleave: every round is a permutation of its point's arms ($(jq -c '.results[0].interleave.rounds' "$A"))" \
	jq -e 'all(.results[].interleave; .arms as $a | (.rounds | length) == 4 and all(.rounds[]; sort == $a))' "$A"
check "interleave: the windows ran in the recorded order (window_start_ns)" \
	jq -e '([.results[] | .id as $i | .repetitions[] | [.window_start_ns, $i]] | sort | map(.[1]))
	       == ([.results[0], .results[3]] | map(.interleave.rounds | flatten) | add)' "$A"
check "interleave: each arm got all 4 repetitions, ok" \
	jq -e 'all(.results[]; .status == "ok" and (.repetitions | length) == 4 and .summary.ops_per_sec.n == 4)' "$A"
check "interleave: the same seed gives the same order" test "$(rounds "$A")" = "$(rounds "$TMP/b.out.json")"
check "interleave: another seed gives another order ($(jq -c '.results[0].interleave.rounds' "$TMP/c.out.json"))" \
	test "$(rounds "$A")" != "$(rounds "$TMP/c.out.json")"
check "interleave: validate accepts the result" "$SB" validate "$A"

# Without the key nothing changes: no record, no window times.
jq 'del(.interleave, .seed)' "$TMP/a.json" >"$TMP/plain.json"
run "$SB" "$TMP/plain.json" "$TMP/plain.out.json" || exit 0
check "interleave: off by default: no meta.interleave, no per-result record, no window_start_ns" \
	jq -e '.meta.interleave == null and all(.results[]; .interleave == null
	       and all(.repetitions[]; .window_start_ns == null))' "$TMP/plain.out.json"

# seed 0: one from the clock, recorded.
cfg "$TMP/z.json" 0 '[{"workload": ["spin-tas", "futex"], "repetitions": 1}]'
run "$SB" "$TMP/z.json" "$TMP/z.out.json" || exit 0
check "interleave: seed 0 draws a seed and records it ($(jq .meta.interleave.seed "$TMP/z.out.json"))" \
	jq -e '.meta.interleave.seed > 0 and .results[0].interleave.seed == .meta.interleave.seed' "$TMP/z.out.json"

# A crash, an in-run hang and a hang past timeout_s each fail their arm only.
if [ ! -x "$SBF" ]; then
	notok "interleave: $SBF missing (make $SBF): crash isolation not tested"
else
	cfg "$TMP/f.json" 7 '[{"workload": ["spin-tas", "fault-crash-in-cs", "futex", "cpu-hog"]},
		{"workload": ["fault-hang-in-cs", "spin-tas"], "timeout_s": 2, "threads": 1}]'
	start=$(date +%s)
	run "$SBF" "$TMP/f.json" "$TMP/f.out.json" || exit 0
	took=$(($(date +%s) - start))
	F=$TMP/f.out.json
	check "interleave: the crashing arm fails with its signal ($(jq -r '.results[1].reason' "$F"))" \
		jq -e '.results[1] | .status == "failed" and (.reason | test("signal 11|exited with status [1-9]"))' "$F"
	check "interleave: its point's other arms complete all 4 repetitions" \
		jq -e '[.results[0,2,3] | .status == "ok" and (.repetitions | length) == 4] | all' "$F"
	# It crashes on its thread's 10,001st acquisition: in its first turn on
	# a quiet host, later when the host starves it.  From the round it
	# crashed in on, it is gone.
	check "interleave: the crashed arm leaves the rounds after the turn it crashed in ($(jq -c '.results[0].interleave.rounds' "$F"))" \
		jq -e '.results[0].interleave.rounds | (map(index(1) != null) | index(false)) as $k
		       | $k != null and $k >= 1 and all(.[:$k][]; sort == [0,1,2,3])
		       and all(.[$k:][]; sort == [0,2,3])' "$F"
	check "interleave: the hanging arm is killed by its watchdog ($(jq -r '.results[4].reason' "$F"))" \
		jq -e '.results[4] | .status == "failed" and (.reason | test("no result after 2 s"))' "$F"
	check "interleave: its partner completes all 4 repetitions" \
		jq -e '.results[5] | .status == "ok" and (.repetitions | length) == 4' "$F"
	check "interleave: the suite took ${took} s (bounded by the watchdogs)" test "$took" -lt 20
fi

# A program's arms take turns too, in the recorded order (their
# window_start_ns), and the same program with another command is another
# point.
PT=$(cd "${BUILD:-build}" && pwd)/preload-tests/ptorture
cat >"$TMP/p.json" <<CFG
{ "name": "interleave-program", "interleave": true, "seed": 3,
  "defaults": { "repetitions": 3, "threads": 2, "pin": "compact", "warmup_s": 0, "events": [],
                "command": ["$PT", "locks", "{threads}", "3000"], "metric": "^count ([0-9]+)\$" },
  "runs": [ { "workload": ["program", "program+none", "program+cs+dry"] },
            { "workload": "program", "command": ["$PT", "locks", "{threads}", "2000"] } ] }
CFG
if run "$SB" "$TMP/p.json" "$TMP/p.out.json"; then
	P=$TMP/p.out.json
	check "interleave: a program's three arms are one point, another command another ($(jq -c '[.results[].interleave | [.point, .arms]]' "$P"))" \
		jq -e '[.results[].interleave | [.point, .arms]] == [[0,[0,1,2]],[0,[0,1,2]],[0,[0,1,2]],[1,[3]]]' "$P"
	check "interleave: each program arm ran all 3 repetitions, ok" \
		jq -e 'all(.results[]; .status == "ok" and (.repetitions | length) == 3)' "$P"
	check "interleave: every round of the programs is a permutation of the arms ($(jq -c '.results[0].interleave.rounds' "$P"))" \
		jq -e '.results[0].interleave | .arms as $a | (.rounds | length) == 3 and all(.rounds[]; sort == $a)' "$P"
	check "interleave: the programs ran in the recorded order (window_start_ns)" \
		jq -e '([.results[0:3][] | .id as $i | .repetitions[] | [.window_start_ns, $i]] | sort | map(.[1]))
		       == (.results[0].interleave.rounds | flatten)' "$P"
fi

# A stop signal during a point keeps every window its arms completed:
# each arm is "interrupted" with its repetitions and their summary, and
# only the window in flight is dropped.  SIGINT to the process, and
# SIGTERM to its process group (what a terminal's Ctrl-C does with
# SIGINT: every arm gets it too).
cat >"$TMP/sig.json" <<'CFG'
{ "name": "interleave-signal", "interleave": true, "seed": 5,
  "defaults": { "repetitions": 8, "duration_s": 0.3, "warmup_s": 0, "threads": 2, "events": [] },
  "runs": [ { "workload": ["spin-tas", "futex", "spin-ticket"] } ] }
CFG
stopped() { # stopped SIGNAL STATUS GROUP
	local out=$TMP/sig-$1.json pid t0 rc ms
	if [ -n "$3" ]; then
		setsid "$SB" run -c "$TMP/sig.json" -o "$out" -q >/dev/null 2>"$TMP/err" &
	else
		"$SB" run -c "$TMP/sig.json" -o "$out" -q >/dev/null 2>"$TMP/err" &
	fi
	pid=$!
	sleep 2.5
	t0=$(date +%s%N)
	if [ -n "$3" ]; then kill "-$1" -- "-$pid"; else kill "-$1" "$pid"; fi
	wait "$pid"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	check "interleave: SIG$1${3:+ to the group} during a point exits $2 (got $rc) within 1 s (${ms} ms)" \
		test "$rc" -eq "$2" -a "$ms" -lt 1000
	check "interleave: ... every arm interrupted with its completed windows and their summary ($(jq -c '[.results[] | [.status, (.repetitions | length)]]' "$out"))" \
		jq -e '(.results | length) == 3 and all(.results[]; .status == "interrupted"
		       and (.repetitions | length) >= 1 and .summary.ops_per_sec.mean > 0
		       and (.reason | test("completed repetitions? kept")))' "$out"
	check "interleave: ... only the window in flight dropped ($(jq -c '[([.results[].repetitions | length] | add), (.results[0].interleave.rounds | flatten | length)]' "$out"))" \
		jq -e '([.results[].repetitions | length] | add) as $kept
		       | (.results[0].interleave.rounds | flatten | length) as $turns
		       | $kept == $turns or $kept == $turns - 1' "$out"
	check "interleave: ... and the result validates" "$SB" validate "$out"
}
stopped INT 130
stopped TERM 143 group

# Bad values are refused before anything runs.
bad() { # bad DESCRIPTION TOP-LEVEL-JSON MESSAGE-REGEX
	printf '{ %s, "runs": [{"workload": "spin-tas"}] }\n' "$2" >"$TMP/bad.json"
	"$SB" run -c "$TMP/bad.json" -o "$TMP/bad.out.json" -q 2>"$TMP/err"
	local rc=$?
	if [ "$rc" -eq 2 ] && grep -qE "$3" "$TMP/err" && [ ! -e "$TMP/bad.out.json" ]; then
		ok "interleave: $1: exit 2, $(head -1 "$TMP/err")"
	else
		notok "interleave: $1: rc $rc, $(head -1 "$TMP/err")"
	fi
}
bad "interleave not a boolean" '"interleave": 1' 'bad.json: interleave: must be true or false'
bad "a negative seed" '"seed": -1' 'bad.json: seed: -1 is out of range 0\.\.1000000000'
bad "a fractional seed" '"seed": 1.5' 'bad.json: seed: must be an integer'
bad "a misspelt key" '"interleaved": true' 'bad.json: interleaved: unknown key \(did you mean "interleave"\?\)'
