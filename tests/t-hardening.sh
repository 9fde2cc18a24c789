#!/usr/bin/env bash
# tier: quick
# t-hardening.sh - run isolation (a crash or a hang fails that run only),
# signals (results so far kept, settings restored, 130/143, no temp file),
# and output faults (never a partial file).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
SBF=${SBF:-${BUILD:-build}/slicebench-faults}

no_tmp() { test -z "$(find "$1" -name '.*.tmp.*' 2>/dev/null)"; }

# --- isolation: crash and hang in a critical section, then a healthy run
cat >"$TMP/faults.json" <<'JSON'
{"defaults": {"repetitions": 1, "duration_s": 0.5, "warmup_s": 0.05, "events": []},
 "runs": [{"workload": "fault-crash-in-cs"}, {"workload": "fault-hang-in-cs"},
          {"workload": "fault-hang-in-cs", "timeout_s": 2, "duration_s": 5, "label": "parent-watchdog"},
          {"workload": "futex"}]}
JSON
start=$(date +%s)
"$SBF" run -c "$TMP/faults.json" -o "$TMP/faults-out.json" -q
rc=$?
took=$(($(date +%s) - start))
check "isolation: a suite with crashing and hanging runs exits 0 (rc $rc)" test "$rc" -eq 0
# Under AddressSanitizer its SEGV handler reports and exits 1 instead.
check "isolation: crash-in-cs is failed with the signal" \
	jq -e '.results[0] | .status == "failed" and (.reason | test("signal 11|exited with status [1-9]"))' "$TMP/faults-out.json"
check "isolation: hang-in-cs is failed by the in-run join watchdog" \
	jq -e '.results[1] | .status == "failed" and (.reason | test("watchdog: thread 0 did not leave"))' "$TMP/faults-out.json"
check "isolation: a run past timeout_s is killed by the parent's watchdog" \
	jq -e '.results[2] | .status == "failed" and (.reason | test("no result after 2 s"))' "$TMP/faults-out.json"
check "isolation: the run after them is ok" jq -e '.results[3].status == "ok"' "$TMP/faults-out.json"
check "isolation: the whole suite took ${took} s (bounded by the watchdogs)" test "$took" -lt 20
check "isolation: no fault workload in the suite binary" bash -c "! '$SB' list | grep -q '^fault-'"

# --- signals
cat >"$TMP/long.json" <<'JSON'
{"defaults": {"repetitions": 1, "duration_s": 3, "warmup_s": 0, "events": [], "slice_ext_nsec": 20000},
 "runs": [{"workload": "cpu-hog", "duration_s": 0.3}, {"workload": ["spin-tas", "futex"]}]}
JSON
mkdir -p "$TMP/dbg/rseq"
for sig in INT TERM; do
	echo 5000 >"$TMP/dbg/rseq/slice_ext_nsec"
	out="$TMP/sig-$sig.json"
	SLICEBENCH_DEBUGFS="$TMP/dbg" "$SB" run -c "$TMP/long.json" -o "$out" -q >"$TMP/sig.out" 2>&1 &
	pid=$!
	sleep 1.2 # the first run (0.3 s) is done, the second is in flight
	t0=$(date +%s%N)
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	want=$([ "$sig" = INT ] && echo 130 || echo 143)
	check "signals: SIG$sig exits $want (got $rc) within 1 s (${ms} ms)" test "$rc" -eq "$want" -a "$ms" -lt 1000
	check "signals: SIG$sig keeps the completed run and marks the one in flight" \
		jq -e '[.results[].status] == ["ok", "interrupted"] and .meta.interrupted.runs_planned == 3' "$out"
	check "signals: SIG$sig restored slice_ext_nsec" test "$(cat "$TMP/dbg/rseq/slice_ext_nsec")" = 5000
	check "signals: SIG$sig's result, meta.interrupted included, passes validate --strict" \
		"$SB" validate --strict "$out"
	check "signals: SIG$sig printed the summary so far" grep -q "interrupted; results so far" "$TMP/sig.out"
	check "signals: SIG$sig left no temp file" no_tmp "$TMP"
done
echo 5000 >"$TMP/dbg/rseq/slice_ext_nsec"
SLICEBENCH_DEBUGFS="$TMP/dbg" "$SB" run -c "$TMP/long.json" -o "$TMP/twice.json" -q >/dev/null 2>&1 &
pid=$!
sleep 1.2
kill -INT "$pid"
kill -INT "$pid"
wait "$pid"
rc=$?
check "signals: a second SIGINT exits at once with 130 (got $rc)" test "$rc" -eq 130
check "signals: ... restoring slice_ext_nsec" test "$(cat "$TMP/dbg/rseq/slice_ext_nsec")" = 5000
check "signals: ... and leaving no temp file" no_tmp "$TMP"

# --- output faults
cat >"$TMP/tiny.json" <<'JSON'
{"runs": [{"workload": "spin-tas", "repetitions": 1, "duration_s": 0.05, "warmup_s": 0, "events": []}]}
JSON
"$SB" run -c "$TMP/tiny.json" -o /etc/passwd/x.json -q 2>"$TMP/err"
rc=$?
check "output: --out under a file: exit 2 before running, \"$(cat "$TMP/err")\"" \
	test "$rc" -eq 2 -a -n "$(grep -E 'Not a directory' "$TMP/err")"
touch "$TMP/exists.json"
"$SB" run -c "$TMP/tiny.json" -o "$TMP/exists.json" -q 2>"$TMP/err"
rc=$?
check "output: an existing file is refused with exit 2: \"$(cat "$TMP/err")\"" \
	test "$rc" -eq 2 -a ! -s "$TMP/exists.json"
"$SB" run -c "$TMP/tiny.json" -o "$TMP/exists.json" -q --force
check "output: --force overwrites it" jq -e '.schema == "slicebench/1"' "$TMP/exists.json"
"$SB" run -c "$TMP/tiny.json" -o "$TMP/new/dir/r.json" -q
check "output: missing directories are created" test -s "$TMP/new/dir/r.json"
if [ "$(id -u)" -eq 0 ] && mkdir -p "$TMP/full" && mount -t tmpfs -o size=16k tmpfs "$TMP/full" 2>/dev/null; then
	"$SB" run -c configs/ci.json -o "$TMP/full/r.json" -q 2>"$TMP/err"
	rc=$?
	check "output: a full disk gives exit 1 and a message: \"$(cat "$TMP/err")\"" \
		test "$rc" -eq 1 -a -n "$(grep 'No space left' "$TMP/err")"
	check "output: ... and no partial or temp file" test -z "$(ls -A "$TMP/full")"
	umount "$TMP/full"
else
	notok "output: full disk: needs root to mount a 16 KiB tmpfs; run make check as root"
fi
