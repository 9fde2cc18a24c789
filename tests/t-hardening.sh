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
	mkdir -p "$TMP/spare"
	TMPDIR=$TMP/spare "$SB" run -c configs/ci.json -o "$TMP/full/r.json" -q 2>"$TMP/err"
	rc=$?
	check "output: a full disk gives exit 1 and a message: \"$(cat "$TMP/err")\"" \
		test "$rc" -eq 1 -a -n "$(grep 'No space left' "$TMP/err")"
	check "output: ... and no partial or temp file" test -z "$(ls -A "$TMP/full")"
	# The measurements outlive the failed write: in a new file beside
	# the target, else in $TMPDIR, else on stdout, and the message says
	# where.  The disk fills late: 1 KiB is left for a result of 6.
	rm -f "$TMP"/spare/*
	head -c 15360 /dev/zero >"$TMP/full/fill"
	TMPDIR=$TMP/spare "$SB" run -c "$TMP/tiny.json" -o "$TMP/full/r.json" -q 2>"$TMP/err"
	rc=$?
	kept=$(sed -n 's/^slicebench: the result is kept in //p' "$TMP/err")
	check "output: a disk full at the write: exit 1 (got $rc), the result kept in \$TMPDIR (${kept:-none})" \
		test "$rc" -eq 1 -a -n "$kept" -a "$kept" = "$(ls "$TMP"/spare/slicebench-r.unsaved-[0-9]*.json)"
	check "output: ... the kept file validates" "$SB" validate "$kept"
	TMPDIR=$TMP/full "$SB" run -c "$TMP/tiny.json" -o "$TMP/full/r.json" -q >"$TMP/stdout" 2>"$TMP/err"
	rc=$?
	check "output: ... with \$TMPDIR full too: exit 1 (got $rc), the result on stdout, said ($(tail -1 "$TMP/err"))" \
		test "$rc" -eq 1 -a -n "$(grep 'it is on stdout' "$TMP/err")"
	check "output: ... stdout holds the whole result" "$SB" validate "$TMP/stdout"
	check "output: ... and the table is on stderr" grep -q '^spin-tas .* ok$' "$TMP/err"
	TMPDIR=$TMP/full "$SB" run -c "$TMP/tiny.json" -o "$TMP/full/r.json" -q >/dev/full 2>"$TMP/err"
	rc=$?
	check "output: ... and stdout full as well: exit 1 (got $rc), said ($(tail -1 "$TMP/err"))" \
		test "$rc" -eq 1 -a -n "$(grep 'could not be kept anywhere' "$TMP/err")"
	check "output: ... nothing of it left on the full disk" test "$(ls -A "$TMP/full")" = fill
	umount "$TMP/full"
	# A directory remounted read-only during the run.
	mount -t tmpfs -o size=1m tmpfs "$TMP/full"
	jq '.runs[0].duration_s = 1' "$TMP/tiny.json" >"$TMP/slow.json"
	TMPDIR=$TMP/spare "$SB" run -c "$TMP/slow.json" -o "$TMP/full/r.json" -q 2>"$TMP/err" &
	pid=$!
	sleep 0.5
	mount -o remount,ro "$TMP/full"
	wait "$pid"
	rc=$?
	check "output: a directory remounted read-only during the run: exit 1 (got $rc), the result kept ($(tail -1 "$TMP/err"))" \
		test "$rc" -eq 1 -a -s "$TMP/spare/slicebench-r.unsaved-$pid.json"
	umount "$TMP/full"
else
	notok "output: full disk: needs root to mount a 16 KiB tmpfs; run make check as root"
fi

# --- labels and reasons of any bytes: HTML stays text in the HTML and
# markdown reports, no control byte (ESC, a C1 CSI, a newline) reaches the
# terminal or splits a markdown row.
lab=$(printf '<script>alert(1)</script>\033[31mRED\nrow|x\302\233Y')
jq --arg lab "$lab" '
  (.results[0] | .params += {lock: "tas", dry: false} | .label = $lab) as $t
  | .results = [
    ($t | .workload = "spin-tas" | .params.policy = "none"),
    ($t | .workload = "slice-spin" | .params.policy = "cs"
        | .summary.slice = {requests: 0, grants: 0, yields: 0, grants_per_1000_ops: 0, yields_per_1000_ops: 0}),
    ($t | .workload = "slice-dry" | .params.policy = "cs" | .params.dry = true)
  ]' tests/fixtures/base.json >"$TMP/lab.json"
# no_ctl FILE...: no ESC, no C1 control (UTF-8 \302\200-\302\237) in them
no_ctl() { ! LC_ALL=C grep -q $'\033\\|\302[\200-\237]' "$@"; }
cmpl() { "$SB" compare --within "$TMP/lab.json" --baseline slice-dry "$@" 2>&1; }
n_aa=$(cmpl -f json | jq '.aa_checks | length')
cmpl -f html >"$TMP/lab.html"
check "labels: compare -f html: no raw <script> ($(grep -c '<script>' "$TMP/lab.html")), in the $n_aa A/A line too" \
	test "$n_aa" -eq 1 -a -z "$(grep '<script>' "$TMP/lab.html")" -a -n "$(grep -F '[&lt;script&gt;' "$TMP/lab.html")"
cmpl -f markdown >"$TMP/lab.md"
rows=$(cmpl -f json | jq '.rows | length')
check "labels: compare -f markdown: the table is 2 + $rows lines, no raw <script>, no control byte ($(grep -c '^|' "$TMP/lab.md") lines)" \
	test "$(grep -c '^|' "$TMP/lab.md")" -eq $((rows + 2)) -a -z "$(grep -e '<script>' -e '^row' "$TMP/lab.md")"
check "labels: ... and no control byte in it" no_ctl "$TMP/lab.md"
cmpl >"$TMP/lab.txt"
check "labels: compare's text: no control byte" no_ctl "$TMP/lab.txt"
check "labels: ... the label's bytes as \\xNN" grep -qF '\x1b[31mRED\x0arow|x\xc2\x9bY' "$TMP/lab.txt"
"$SB" plot "$TMP/lab.json" --baseline slice-dry --out "$TMP/labplot" >/dev/null 2>&1
check "labels: plot's index.html and details.html: no raw <script>" \
	test -s "$TMP/labplot/details.html" -a -z "$(cat "$TMP/labplot/"*.html | grep '<script>')"
# A failing program's stderr ends its reason; a label in a config error.
cat >"$TMP/esc.json" <<'JSON'
{"runs": [{"workload": "program", "repetitions": 1, "warmup_s": 0,
           "command": ["sh", "-c", "printf '\\033[2J\\302\\233boom\\n' >&2; exit 3"], "metric": "([0-9]+)"}]}
JSON
"$SB" run -c "$TMP/esc.json" -o "$TMP/esc.out.json" >"$TMP/esc.stdout" 2>"$TMP/esc.stderr"
check "labels: a program's reason ($(grep -o '[^ ]*boom' "$TMP/esc.stdout" | head -1)) is in the table" grep -q boom "$TMP/esc.stdout"
check "labels: ... and its ESC bytes reach neither the table nor stderr" no_ctl "$TMP/esc.stdout" "$TMP/esc.stderr"
jq --arg lab "$lab" '.runs[0] += {label: $lab} | .defaults.check_margin_pct = 5' "$TMP/esc.json" >"$TMP/esc2.json"
"$SB" run -c "$TMP/esc2.json" -o "$TMP/esc2.out.json" --dry-run 2>"$TMP/esc2.stderr"
check "labels: a config error names the label ($(head -c 120 "$TMP/esc2.stderr"))" grep -q 'label "<script>' "$TMP/esc2.stderr"
check "labels: ... with no control byte" no_ctl "$TMP/esc2.stderr"
