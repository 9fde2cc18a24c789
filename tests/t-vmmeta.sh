#!/usr/bin/env bash
# tier: quick
# t-vmmeta.sh - the host's half of a guest run, without a guest: the
# result channel's decoder (scripts/vmchan.sh) on channels with good,
# corrupt, unnamed and cut frames, and `slicebench vmmeta` merging the
# files the guest sends into its result.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/vmchan.sh
. "$(dirname "$0")/../scripts/vmchan.sh"

# frame NAME FILE [SIZE [SHA]]: a file as kernel/init frames it, CRs
# included (the serial line adds them); SIZE and SHA default to the file's
frame() {
	local size=${3:-$(wc -c <"$2")} sha=${4:-$(sha256sum <"$2" | cut -d' ' -f1)}
	printf 'SLICEBENCH-BEGIN name=%s size=%s sha256=%s\r\n' "$1" "$size" "$sha"
	base64 "$2" | sed 's/$/\r/'
	printf 'SLICEBENCH-END name=%s\r\n' "$1"
}

# --- the decoder
head -c 3000 /dev/urandom >"$TMP/good.bin"
printf 'a result\n' >"$TMP/small.txt"
{
	echo "noise before the first frame"
	frame ../up/good.bin "$TMP/good.bin"
	frame bad.bin "$TMP/good.bin" 3000 "$(printf '0%.0s' {1..64})"
	frame .. "$TMP/small.txt"
	echo "SLICEBENCH-DONE status=0 slice_test=pass"
} >"$TMP/a.chan"
vmchan_decode "$TMP/a.chan" "$TMP/a" >"$TMP/a.out" 2>"$TMP/a.err"
check "vmchan: a complete channel exits 0" test $? -eq 0
check "vmchan: the status is DONE's status field (\"$(cat "$TMP/a.out")\")" \
	test "$(cat "$TMP/a.out")" = 0
check "vmchan: an intact frame is written under its base name, byte for byte" \
	cmp "$TMP/good.bin" "$TMP/a/good.bin"
check "vmchan: only that one file is written" test "$(ls -A "$TMP/a")" = good.bin
check "vmchan: nothing is written beside the output directory" test ! -e "$TMP/up"
check "vmchan: a hash mismatch is reported as corrupt with its size" \
	grep -qx 'vm.sh: frame bad.bin corrupt (3000 of 3000 bytes)' "$TMP/a.err"
check "vmchan: a frame named .. is reported, not written" \
	grep -qx 'vm.sh: frame .. has no file name: not written' "$TMP/a.err"
check "vmchan: nothing else on stderr ($(wc -l <"$TMP/a.err") lines)" \
	test "$(wc -l <"$TMP/a.err")" -eq 2

{
	frame small.txt "$TMP/small.txt"
	frame short.bin "$TMP/good.bin" 2999
	frame nosize.bin "$TMP/small.txt" | sed '1s/size=[0-9]*/size=?/'
	frame cut.bin "$TMP/good.bin" | head -n 5
} >"$TMP/b.chan"
vmchan_decode "$TMP/b.chan" "$TMP/b" >"$TMP/b.out" 2>"$TMP/b.err"
check "vmchan: without DONE the status is \"incomplete\" (\"$(cat "$TMP/b.out")\")" \
	test "$(cat "$TMP/b.out")" = incomplete
check "vmchan: ... and stderr says so" \
	grep -qx 'vm.sh: transfer incomplete (no SLICEBENCH-DONE)' "$TMP/b.err"
check "vmchan: a size mismatch is reported as corrupt" \
	grep -qx 'vm.sh: frame short.bin corrupt (3000 of 2999 bytes)' "$TMP/b.err"
check "vmchan: a header without a size is reported, its frame skipped" \
	grep -qx 'vm.sh: frame header malformed, frame skipped: SLICEBENCH-BEGIN name=nosize.bin size=? sha256=.*' "$TMP/b.err"
check "vmchan: a frame without its END is reported as truncated" \
	grep -qx 'vm.sh: frame cut.bin truncated' "$TMP/b.err"
check "vmchan: the intact frame before them is kept" cmp "$TMP/small.txt" "$TMP/b/small.txt"
printf 'SLICEBENCH-DONE slice_test=skip\n' >"$TMP/c.chan"
check "vmchan: DONE without a status field gives \"?\"" \
	test "$(vmchan_decode "$TMP/c.chan" "$TMP/c" 2>/dev/null)" = "?"

# --- vmmeta
F=$TMP/files
mkdir -p "$F"
cat >"$TMP/tiny.json" <<'JSON'
{"runs": [{"workload": "spin-tas", "repetitions": 1, "duration_s": 0.05, "warmup_s": 0, "events": []}]}
JSON
# A result as the guest writes it, with a 1.0 and an integer past 2^53
# (jq 1.6 would print 1 and 9007199254740992).
"$SB" run -c "$TMP/tiny.json" -q -o "$F/result.json" --meta vm.accel=tcg \
	--meta x.one=1.0 --meta x.big=9007199254740993
cat >"$F/calibration.json" <<'JSON'
{"schema": "slicebench/1", "results": [
 {"label": "idle-fifo", "status": "ok", "summary": {"victim": {"p50": 12345, "p99": 250, "max": 1050.0}}},
 {"label": "loaded-fifo", "status": "failed", "reason": "watchdog"},
 {"label": "reference", "status": "ok", "workload": "spin-tas", "params": {"cs_ns": 1000},
  "summary": {"ops_per_sec": {"median": 123456.5}, "hold_ns": {"p50": 1184}}}]}
JSON
printf 'exit: 10\nsgrant: 5\nnot a counter\n' >"$F/rseq_stats.before"
printf 'exit: 100\nsgrant: 45\nsrevoke: 3\n' >"$F/rseq_stats"
O=$TMP/out/merged.json
"$SB" vmmeta --files "$F" --out "$O" --wall 12.5 --userspace 1.52 --interrupted INT \
	--retried "kernel panic" --host-sched "main loop SCHED_FIFO 10" --calibrate 2>"$TMP/err"
check "vmmeta: merges (exit $?): $(head -c 200 "$TMP/err")" test -s "$O"
jqcheck() { # jqcheck DESCRIPTION FILTER: the filter is true of the merged result
	check "vmmeta: $1" jq -e "$2" "$O"
}
jqcheck "meta.vm keeps the guest's keys and adds the host's, in order" \
	'.meta.vm | keys_unsorted == ["accel", "wall_s", "retried", "interrupted", "host_sched", "calibration", "userspace_s"]'
jqcheck "wall_s, userspace_s, interrupted, host_sched" \
	'.meta.vm | .wall_s == 12.5 and .userspace_s == 1.52 and .interrupted == "SIGINT" and .host_sched == "main loop SCHED_FIFO 10" and .retried == "kernel panic"'
jqcheck "victim latencies in us, rounded to 0.1 us (half to even)" \
	'.meta.vm.calibration.victim_us == {"idle-fifo": {"p50": 12.3, "p99": 0.2, "max": 1.1}}'
jqcheck "a failed probe's reason, the reference's rate" \
	'.meta.vm.calibration | .failed == {"loaded-fifo": "watchdog"} and .reference == {"workload": "spin-tas", "ops_per_sec": 123456.5, "hold_p50_ns": 1184, "cs_ns": 1000}'
jqcheck "rseq_stats: after, before and their delta" \
	'.meta.rseq_stats | .source == "debugfs rseq/stats" and .delta == {"exit": 90, "sgrant": 40, "srevoke": 3} and .before == {"exit": 10, "sgrant": 5}'
check "vmmeta: a 1.0 survives as 1.0" grep -q '"one": 1.0,' "$O"
check "vmmeta: an integer past 2^53 survives digit for digit" grep -q '"big": 9007199254740993' "$O"
# Written as `run` writes: every line of the guest's file is still there
# (a comma may follow the last key of an object that grew).
check "vmmeta: every line of the guest's result is kept as it was" \
	test -z "$(diff <(sed 's/,$//' "$F/result.json") <(sed 's/,$//' "$O") | grep '^<')"

rm "$F/calibration.json" "$F/rseq_stats"
"$SB" vmmeta --files "$F" --out "$O" --force --wall 1 --calibrate 2>/dev/null
jqcheck "--calibrate without calibration.json: unavailable, and no rseq_stats without the file" \
	'.meta.vm.calibration == {"unavailable": "the guest sent no calibration.json"} and (.meta | has("rseq_stats") | not)'
"$SB" vmmeta --files "$F" --out "$O" --wall 1 2>"$TMP/err"
check "vmmeta: an existing --out without --force is refused (exit $?)" grep -q 'exists' "$TMP/err"
echo '{"meta": {"vm": "x"}}' >"$F/result.json"
"$SB" vmmeta --files "$F" --out "$O" --force --wall 1 2>/dev/null
jqcheck "meta.vm that is not an object is kept as vm.value" '.meta.vm == {"value": "x", "wall_s": 1}'

# A result.json that is not JSON: exit 2, FILE:LINE:COL, nothing written.
printf '{\n "meta": {\n  "a": 1,,\n }\n}\n' >"$F/result.json"
mkdir -p "$TMP/o"
"$SB" vmmeta --files "$F" --out "$TMP/o/r.json" --wall 1 2>"$TMP/err"
rc=$?
check "vmmeta: a result.json that is not JSON: exit 2 (got $rc)" test "$rc" -eq 2
check "vmmeta: ... the message names the file, line and column: $(cat "$TMP/err")" \
	grep -q "$F/result.json:3:10: " "$TMP/err"
check "vmmeta: ... and nothing is written" test -z "$(ls -A "$TMP/o")"

echo '{}' >"$F/result.json"
mkdir -p "$TMP/o/dir.json"
"$SB" vmmeta --files "$F" --out "$TMP/o/dir.json" --force --wall 1 2>"$TMP/err"
rc=$?
check "vmmeta: --out naming a directory: exit 2 (got $rc)" test "$rc" -eq 2
check "vmmeta: ... says why: $(cat "$TMP/err")" grep -q 'is a directory' "$TMP/err"
check "vmmeta: ... and leaves it alone" test -z "$(ls -A "$TMP/o/dir.json")"

# --- the floor's spread, the cyclictest cross-check, the host's load and
# the warm-up passes (harness/cli/vmcal.c)
G=$TMP/g
mkdir -p "$G"
echo '{"meta": {"vm": {"warmup": {"requested_s": 6, "passes": 3, "pass_s": "8.5,7.25,7"}}}}' >"$G/result.json"
cat >"$G/calibration.json" <<'JSON'
{"results": [{"label": "loaded-fifo", "status": "ok", "summary": {"victim": {"p50": 40000, "p99": 300000, "max": 900000}},
 "repetitions": [{"victim": {"p99": 250000}}, {"victim": {"p99": 180000}}, {"victim": {"p99": 410000}},
                 {"victim": {"p99": 199960}}, {}]}]}
JSON
# rt-tests 2.4's shape: stray colons, buckets out of order, 1000 cycles
# of which 989 below 120 us and the 990th at 150 us
cat >"$G/cyclictest.json" <<'JSON'
{"file_version": 1, "cmdline:": "cyclictest -p 10", "rt_test_version:": "2.40", "num_threads": 1,
 "thread": {"0": {"histogram": {"150": 1, "20": 900, "119": 89, "200": 9}, "cycles": 1000, "min": 20, "max": 2000}}}
JSON
for i in 1 2 3; do
	printf '{"results": [{"label": "paths"}, {"label": "loaded-fifo", "summary": {"victim": {"p99": %s}}}]}\n' \
		"$((4000000 / i))" >"$G/warmup-$i.json"
done
echo '{"results": [{"label": "paths"}]}' >"$G/warmup-3.json"
O=$TMP/out/g.json
"$SB" vmmeta --files "$G" --out "$O" --force --wall 1 --calibrate --host-load "1.50 2.25 3.00 4/612 999" 2>"$TMP/err"
check "vmmeta: with cyclictest and warm-up files (exit $?): $(head -c 200 "$TMP/err")" test -s "$O"
jqcheck "each loaded probe's p99 and their min, median and max, a repetition without one left out" \
	'.meta.vm.calibration.victim_us["loaded-fifo"].p99_spread == {"n": 4, "min": 180.0, "median": 225.0, "max": 410.0, "each": [250.0, 180.0, 410.0, 200.0]}'
jqcheck "cyclictest's p99 from its histogram (the 990th of 1000 in the 150 us bucket), read past the stray colons" \
	'.meta.vm.calibration.cyclictest == {"version": "2.40", "cmdline": "cyclictest -p 10", "cycles": 1000, "max_us": 2000, "p99_us": 150.5, "probe": "loaded-fifo", "probe_p99_us": 300.0, "ratio_p99": 1.99}'
jqcheck "the host's load average and runnable tasks" \
	'.meta.vm.calibration.host_load == {"loadavg_1": 1.5, "loadavg_5": 2.25, "loadavg_15": 3.0, "runnable": 4, "tasks": 612, "when": "the guest began calibrating"}'
jqcheck "the warm-up keeps the guest's keys, its pass times as numbers, and lists each pass's probe p99 (null where a pass had none)" \
	'.meta.vm.warmup == {"requested_s": 6, "passes": 3, "pass_s": [8.5, 7.25, 7], "probe": "loaded-fifo", "probe_p99_us": [4000.0, 2000.0, null]}'

# cyclictest's overflow, and a cyclictest.json that is not JSON: recorded, not fatal
echo '{"thread": {"0": {"histogram": {"5": 98}, "cycles": 100, "max": 250000}}}' >"$G/cyclictest.json"
rm "$G"/warmup-*.json
echo '{"meta": {"vm": {"warmup": {"pass_s": 9.5}}}}' >"$G/result.json"
"$SB" vmmeta --files "$G" --out "$O" --force --wall 1 2>/dev/null
jqcheck "one pass's time, which --meta made a number, is a list of one" '.meta.vm.warmup.pass_s == [9.5]'
echo '{"meta": {"vm": {"warmup": {"pass_s": "8.5,x"}}}}' >"$G/result.json"
"$SB" vmmeta --files "$G" --out "$O" --force --wall 1 2>/dev/null
jqcheck "pass times that are not a list of numbers are kept as they came" '.meta.vm.warmup.pass_s == "8.5,x"'
"$SB" vmmeta --files "$G" --out "$O" --force --wall 1 2>/dev/null
jqcheck "a p99 past cyclictest's histogram is null, with no ratio" \
	'.meta.vm.calibration.cyclictest | .p99_us == null and .cycles == 100 and (has("ratio_p99") | not)'
printf '{"thread": {\n' >"$G/cyclictest.json"
"$SB" vmmeta --files "$G" --out "$O" --force --wall 1 2>"$TMP/err"
check "vmmeta: a cyclictest.json that is not JSON is no error (exit $?): $(cat "$TMP/err")" test ! -s "$TMP/err"
jqcheck "... it is unavailable, with its file, line and column" \
	'.meta.vm.calibration.cyclictest.unavailable | test("cyclictest.json:2:0: ")'
rm "$G/cyclictest.json"
"$SB" vmmeta --files "$G" --out "$O" --force --wall 1 --host-load "busy" 2>"$TMP/err"
rc=$?
check "vmmeta: a --host-load that is not /proc/loadavg's line: exit 2 (got $rc)" test "$rc" -eq 2
check "vmmeta: ... names the value: $(cat "$TMP/err")" \
	grep -qx 'slicebench vmmeta: --host-load "busy": not a line of /proc/loadavg' "$TMP/err"
