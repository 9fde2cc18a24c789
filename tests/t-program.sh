#!/usr/bin/env bash
# tier: quick
# t-program.sh - the program workloads: a real command's own report as the
# metric (regex and JSON path), {threads} and the pin set reaching the
# program, every arm with and without the preload library and its counts,
# a server beside its client, the refusal where the kernel lacks the
# extension, failures that say why, bad keys refused before any run, and
# compare pairing the arms.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}
PT=$(cd "$BUILD" && pwd)/preload-tests/ptorture
if [ ! -x "$PT" ] || [ ! -e "$BUILD/libslicepreload.so" ]; then
	notok "program: $PT or the library not built (make all $BUILD/preload-tests/ptorture)"
	exit 0
fi

run() { # run NAME JSON: results in $TMP/NAME.json, status in $rc
	printf '%s' "$2" >"$TMP/$1.in.json"
	"$SB" run --config "$TMP/$1.in.json" --out "$TMP/$1.json" --quiet 2>"$TMP/$1.err"
	rc=$?
}
q() { jq -r "$2" "$TMP/$1.json" 2>/dev/null; }
want() { # want DESCRIPTION TEST-ARGS...
	local d=$1
	shift
	if [ "$@" ]; then ok "program: $d"; else notok "program: $d"; fi
}

iters=3000
run locks '{"defaults": {"repetitions": 2, "threads": "2x", "events": [], "warmup_s": 0},
 "runs": [{"workload": ["program", "program+none", "program+cs+dry", "program+pre+dry"],
  "command": ["'"$PT"'", "locks", "{threads}", "'$iters'"], "metric": "^count ([0-9]+)$",
  "metric_name": "increments"}]}'
n=$(q locks '.results[0].nthreads')
want "the four arms ran (exit $rc)" "$rc" = 0 -a "$(q locks '[.results[].status] | unique | join(",")')" = ok
want "{threads} became the run's $n threads: each repetition's metric is $n x $iters" \
	"$(q locks "[.results[].repetitions[].metric] | unique | join(\",\")")" = "$((n * iters))"
want "the summary is the metric's, as ops_per_sec (median $(q locks '.results[0].summary.ops_per_sec.median'))" \
	"$(q locks '.results[0].summary.ops_per_sec.median')" = "$((n * iters))"
want "without the library: no counts" "$(q locks '.results[0].summary.preload')" = null
want "program+none: every lock counted ($(q locks '.results[1].summary.preload.locks')), no request" \
	"$(q locks '.results[1].summary.preload.locks')" = $((2 * (n * iters + n * (iters / 4)))) \
	-a "$(q locks '.results[1].summary.preload.requests')" = 0
want "program+cs+dry: one request per outermost section, no grant" \
	"$(q locks '.results[2].summary.preload.requests')" = $((2 * n * iters)) \
	-a "$(q locks '.results[2].summary.preload.grants')" = 0
want "each repetition keeps the library's file (schema, placement, dry)" \
	"$(q locks '.results[3].repetitions[0].preload | "\(.schema) \(.placement) \(.dry)"')" = "slicepreload/1 pre true"
"$SB" compare --within "$TMP/locks.json" --baseline program --format json >"$TMP/cmp.json" 2>"$TMP/cmp.err"
want "compare --within pairs each arm with the program as it is, over the repetitions" \
	"$(jq -r '[.rows[] | select(.metric == "ops_per_sec") | "\(.b.workload):\(.a.workload):\(.a.n):\(.b.n)"] | join(" ")' "$TMP/cmp.json" 2>/dev/null)" \
	= "program+none:program:2:2 program+cs+dry:program:2:2 program+pre+dry:program:2:2"

run two '{"defaults": {"repetitions": 2, "events": [], "warmup_s": 0, "workload": ["program", "program+none"]},
 "runs": [{"command": ["echo", "v 5"], "metric": "v ([0-9]+)"}, {"command": ["echo", "v 7"], "metric": "v ([0-9]+)"}]}'
"$SB" compare --within "$TMP/two.json" --baseline program --format json >"$TMP/cmp2.json" 2>/dev/null
want "compare --within pairs arms of the same command only (5 with 5, 7 with 7)" \
	"$(jq -r '[.rows[] | select(.metric == "ops_per_sec") | "\(.a.value)/\(.b.value)"] | join(" ")' "$TMP/cmp2.json")" = "5/5 7/7"

run json '{"defaults": {"repetitions": 1, "events": []},
 "runs": [{"workload": "program", "command": ["jq", "-n", "{a: {b: [1, 2.5]}}"], "metric_json": "a.b.1"}]}'
want "metric_json: a dotted path with an index (2.5)" "$(q json '.results[0].summary.ops_per_sec.median')" = 2.5
# Output after a NUL byte is read like the rest: the NUL ends a line.
run nul '{"defaults": {"repetitions": 1, "events": [], "warmup_s": 0},
 "runs": [{"workload": "program", "command": ["sh", "-c", "printf '"'"'junk\\0count 7\\nmore\\0'"'"'"], "metric": "^count ([0-9]+)$"}]}'
want "metric: the value after a NUL byte is found (exit $rc, $(q nul '.results[0] | .status + " " + (.summary.ops_per_sec.median // .reason | tostring)'))" \
	"$(q nul '.results[0].summary.ops_per_sec.median')" = 7
# A server that exits at once served nothing: the repetition fails, named.
run srvgone '{"defaults": {"repetitions": 1, "events": [], "warmup_s": 0},
 "runs": [{"workload": "program", "server": ["sh", "-c", "echo gone >&2; exit 3"],
           "command": ["sh", "-c", "sleep 0.3; echo 5"], "metric": "([0-9]+)"}]}'
want "server: one that exits at once fails the run ($(q srvgone '.results[0] | .status + ": " + (.reason // "")'))" \
	"$(q srvgone '.results[0].status')" = failed -a -n "$(q srvgone '.results[0].reason | select(test("^server sh exited with status 3 before the command (ran|ended): gone"))')"

run last '{"defaults": {"repetitions": 1, "events": []},
 "runs": [{"workload": "program", "command": ["printf", "rate 1.5\\ninterim\\nrate 2e3\\n"], "metric": "^rate ([0-9.e+]+)$"},
          {"workload": "program", "command": ["echo", "rate x"], "metric": "rate (x)"}]}'
want "metric: the last match wins (2e3 after 1.5)" "$(q last '.results[0].summary.ops_per_sec.median')" = 2000
want "metric: a group that is not a number says what it matched" \
	"$(q last '.results[1].reason')" = 'metric: the group matched "x", not a number'

# A metric no reader can take (not finite, negative, or so large that
# the statistics overflow) fails its run, naming the output's line and the
# value as the program printed it.  Before: status ok and exit 0, and the
# result then failed validate (nan and inf missing, -5 a negative mean,
# 1e308 an infinite interval over two repetitions).
rate='"metric": "^rate (.*)$"'
run range '{"defaults": {"repetitions": 2, "events": [], "warmup_s": 0, "workload": "program"},
 "runs": [{"command": ["printf", "start\\nrate nan\\n"], '"$rate"'}, {"command": ["echo", "rate inf"], '"$rate"'},
          {"command": ["echo", "rate -5"], '"$rate"'}, {"command": ["echo", "rate 1e308"], '"$rate"'},
          {"command": ["echo", "{\"r\": -2.5}"], "metric_json": "r"},
          {"command": ["echo", "{\"r\": 1e308}"], "metric_json": "r"},
          {"command": ["echo", "rate 1e15"], '"$rate"'},
          {"command": ["echo", "took 1e-300"], "metric": "took (.*)", "metric_divides": 1000}]}'
rmsg() { q range ".results[$1] | .status + \": \" + .reason"; }
want "metric nan: failed, naming the line ($(rmsg 0))" \
	"$(rmsg 0)" = 'failed: metric: "nan" on line 2 of the output ("rate nan") is not a finite number'
want "metric inf: failed ($(rmsg 1))" \
	"$(rmsg 1)" = 'failed: metric: "inf" on line 1 of the output ("rate inf") is not a finite number'
want "metric -5: failed ($(rmsg 2))" \
	"$(rmsg 2)" = 'failed: metric: "-5" on line 1 of the output ("rate -5") is negative'
want "metric 1e308: failed ($(rmsg 3))" \
	"$(rmsg 3)" = 'failed: metric: "1e308" on line 1 of the output ("rate 1e308") is above 1e15'
want "metric_json -2.5: failed ($(rmsg 4))" \
	"$(rmsg 4)" = 'failed: metric_json: "r" in the output is -2.5: negative'
want "metric_json 1e308: failed ($(rmsg 5))" \
	"$(rmsg 5)" = 'failed: metric_json: "r" in the output is 1e+308: above 1e15'
want "metric_divides: 1000 / 1e-300 failed ($(rmsg 7))" \
	"$(rmsg 7)" = 'failed: metric_divides: 1000 / 1e-300 = 1e+303, above 1e15'
want "metric 1e15, the largest, is kept ($(q range '.results[6].status'))" \
	"$(q range '.results[6].summary.ops_per_sec.median')" = 1000000000000000
want "the result validates ($("$SB" validate "$TMP/range.json" 2>&1 | head -n 1))" \
	"$("$SB" validate "$TMP/range.json" >/dev/null 2>&1; echo $?)" = 0

run div '{"defaults": {"repetitions": 1, "events": []},
 "runs": [{"workload": "program", "command": ["echo", "total time: 0.25s"], "metric": "total time: +([0-9.]+)s", "metric_divides": 1000},
          {"workload": "program", "command": ["echo", "total time: 0s"], "metric": "total time: +([0-9.]+)s", "metric_divides": 1000}]}'
want "metric_divides: 1000 / 0.25 s = 4000 per second, the value found kept" \
	"$(q div '.results[0].summary.ops_per_sec.median') $(q div '.results[0].repetitions[0].metric_found')" = "4000 0.25"
want "metric_divides: a zero found is a failure that says so" \
	"$(q div '.results[1].reason')" = "metric_divides: the value found is 0, not > 0"

run from '{"defaults": {"repetitions": 1, "events": []},
 "runs": [{"workload": "program", "command": ["sh", "-c", "echo rate 7 >&2; echo rate 1"], "metric": "rate ([0-9]+)", "metric_from": "stderr"},
          {"workload": "program", "command": ["sleep", "0.5"], "metric_from": "wall", "metric_divides": 10}]}'
want "metric_from stderr reads the command's stderr (7, not stdout's 1)" "$(q from '.results[0].summary.ops_per_sec.median')" = 7
want "metric_from wall: 10 / the wall time of sleep 0.5 is near 20 ($(q from '.results[1].summary.ops_per_sec.median'))" \
	"$(q from '.results[1].summary.ops_per_sec.median | . > 15 and . <= 20')" = true

run pin '{"defaults": {"repetitions": 1, "events": [], "threads": 1},
 "runs": [{"workload": "program", "pin": "cpus:1", "command": ["grep", "Cpus_allowed_list", "/proc/self/status"],
  "metric": "Cpus_allowed_list:[[:space:]]+([0-9-]+)$"}]}'
want "pin cpus:1 is the program's affinity ($(q pin '.results[0].status') $(q pin '.results[0].summary.ops_per_sec.median'))" \
	"$(q pin '.results[0].summary.ops_per_sec.median')" = 1

run server '{"defaults": {"repetitions": 1, "events": [], "threads": 2, "warmup_s": 0.3, "noise": 1},
 "runs": [{"workload": "program+cs+dry", "server": ["'"$PT"'", "serve", "{threads}"], "preload_into": "server",
  "command": ["'"$PT"'", "locks", "1", "100"], "metric": "^count ([0-9]+)$"}]}'
want "a server beside its client, with noise: the client's metric, the server's counts" \
	"$(q server '.results[0].summary.ops_per_sec.median')" = 100 \
	-a "$(q server '.results[0].summary.preload.locks')" -gt 0 \
	-a "$(q server '.results[0].summary.preload.requests')" = "$(q server '.results[0].summary.preload.locks')"
want "the server was stopped and is gone" -z "$(pgrep -f "$PT serve" || true)"

run fail '{"defaults": {"repetitions": 1, "events": []},
 "runs": [{"workload": "program", "command": ["sh", "-c", "echo oops >&2; exit 3"], "metric": "(x)"},
          {"workload": "program", "command": ["echo", "no number here"], "metric": "rate ([0-9]+)"},
          {"workload": "program", "command": ["echo", "no number here"], "metric": "rate ([0-9]+)"}]}'
want "a failing command: its status and last stderr line" \
	"$(q fail '.results[0].status + ": " + .results[0].reason')" = "failed: sh exited with status 3: oops"
want "a metric not found: says so" \
	"$(q fail '.results[1].reason')" = "metric: /rate ([0-9]+)/ matched nothing in the program's output"

# A program this machine lacks (or cannot execute) is a missing feature,
# as a kernel without the extension is: the run is unsupported with the
# reason, and nothing is started.  Not a config error: the same config
# is checked on a host that lacks a program the guest's initramfs has.
touch "$TMP/noexec"
run missing '{"defaults": {"repetitions": 1, "events": [], "warmup_s": 0, "metric": "(x)"},
 "runs": [{"workload": "program+none", "command": ["/nonexistent/prog"]},
          {"workload": "program", "command": ["slicebench-no-such-program", "{threads}"]},
          {"workload": "program", "command": ["'"$TMP"'/noexec"]},
          {"workload": "program", "command": ["/tmp"]},
          {"workload": "program", "server": ["/nonexistent/server"], "command": ["sh", "-c", "touch '"$TMP"'/ran"]}]}'
want "missing programs: exit 0, every run unsupported ($(q missing '[.results[].status] | join(" ")'))" \
	"$rc" = 0 -a "$(q missing '[.results[].status] | unique | join(",")')" = unsupported
want "a path that does not exist: its error" \
	"$(q missing '.results[0].reason')" = "command: /nonexistent/prog: No such file or directory"
want "a name not on PATH: says so, with the PATH searched" \
	"$(q missing '.results[1].reason')" = "command: \"slicebench-no-such-program\" is not found in PATH ($PATH)"
want "a file without execute permission: says so" \
	"$(q missing '.results[2].reason')" = "command: $TMP/noexec: not executable (Permission denied)"
want "a directory: says so" \
	"$(q missing '.results[3].reason')" = "command: /tmp: a directory, not a program"
want "a missing server: named, and the command never started" \
	"$(q missing '.results[4].reason')" = "server: /nonexistent/server: No such file or directory" -a ! -e "$TMP/ran"

avail=$("$SB" info --json | jq -r .slice_extension.available)
reason=$("$SB" info --json | jq -r .slice_extension.reason)
run real '{"defaults": {"repetitions": 1, "events": [], "threads": 2},
 "runs": [{"workload": "program+cs", "command": ["'"$PT"'", "locks", "{threads}", "1000"], "metric": "^count ([0-9]+)$"}]}'
if [ "$avail" = true ]; then
	want "program+cs runs where the kernel has the extension" "$(q real '.results[0].status')" = ok
else
	want "program+cs is unsupported here, with the kernel's reason" \
		"$(q real '.results[0].status')" = unsupported -a -n "$(q real '.results[0].reason' | grep -F "$reason")"
fi

bad() { # bad NAME MESSAGE JSON: refused by --dry-run and by the run, naming the file
	local drc
	run "$1" "$3"
	"$SB" run --config "$TMP/$1.in.json" --dry-run >/dev/null 2>"$TMP/$1.dry"
	drc=$?
	if [ "$rc" = 2 ] && [ "$drc" = 2 ] && grep -qF -- "$TMP/$1.in.json: $2" "$TMP/$1.err" &&
		cmp -s "$TMP/$1.err" "$TMP/$1.dry" && [ ! -e "$TMP/$1.json" ]; then
		ok "program: $1 refused before any run: $(cat "$TMP/$1.err")"
	else
		notok "program: $1: rc=$rc dry-run=$drc, $(cat "$TMP/$1.err") / $(cat "$TMP/$1.dry") (wanted: $2)"
	fi
}
bad bad-regex 'runs[0].metric: "a(b" is not an extended regex' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric": "a(b"}]}'
bad no-group 'runs[0].metric: "rate [0-9]+" has no group' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric": "rate [0-9]+"}]}'
bad into 'runs[0].preload_into: "client" is not one of command, server' \
	'{"runs": [{"workload": "program+none", "command": ["true"], "preload_into": "client"}]}'
bad empty-arg 'runs[0].command: [1]: an empty argument' \
	'{"runs": [{"workload": "program", "command": ["echo", ""]}]}'
bad bad-from 'runs[0].metric_from: "both" is not one of stdout, stderr, wall' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric": "(x)", "metric_from": "both"}]}'
bad policy 'runs[0].policy: workload "program+cs" measures itself: it takes no lock, policy or dry' \
	'{"runs": [{"workload": "program+cs", "policy": "pre", "command": ["true"]}]}'
# Keys read together, checked on every point before anything runs (before:
# accepted by the check, each run failed at its start, or ran on a path
# read as another: "a..b" as "a.b")
bad no-command 'runs[0].command: []: the program'"'"'s argv needs at least the program' \
	'{"runs": [{"workload": "program", "command": [], "metric": "(x)"}]}'
bad no-command-label 'runs[1].command (label "second"): []: the program'"'"'s argv needs at least the program' \
	'{"defaults": {"workload": "program", "metric": "(x)"}, "runs": [{"command": ["true"]}, {"label": "second"}]}'
bad both-metrics 'runs[0].metric_json: "a": metric "([0-9])" is given too: give exactly one of metric (a regex) and metric_json (a path)' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric": "([0-9])", "metric_json": "a"}]}'
bad both-defaults 'defaults.metric_json (runs[0], label "xz"): "a": metric "(x)" is given too' \
	'{"defaults": {"workload": "program", "metric": "(x)", "metric_json": "a"}, "runs": [{"label": "xz", "command": ["true"]}]}'
bad no-metric 'runs[0].metric: "": needs exactly one of metric (a regex) and metric_json (a path), or metric_from "wall"' \
	'{"runs": [{"workload": "program", "command": ["true"]}]}'
bad path-dots 'runs[0].metric_json: "a..b": an empty name between two dots (write "a.b", "runs.0.rate")' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric_json": "a..b"}]}'
bad path-end 'runs[0].metric_json[1]: "a.": an empty name after the last dot' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric_json": ["a.b", "a."]}]}'
bad path-start 'runs[0].metric_json: ".a": an empty name before the first dot' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric_json": ".a"}]}'
bad wall-metric 'runs[0].metric: "(x)": metric_from "wall" takes no metric or metric_json' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric": "(x)", "metric_from": "wall"}]}'
bad into-none 'runs[0].preload_into: "server": server is [], no process to put the library into' \
	'{"runs": [{"workload": "program+none", "command": ["true"], "metric": "(x)", "preload_into": "server"}]}'
bad empty-program 'runs[0].command: [0]: an empty argument' \
	'{"runs": [{"workload": "program", "command": [""], "metric": "(x)"}]}'
bad env-key 'runs[0].env: unknown key' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric": "(x)", "env": ["A"]}]}'
bad timeout-negative 'runs[0].timeout_s: -1 is out of range 0..86400 s' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric": "(x)", "timeout_s": -1}]}'
run tiny '{"runs": [{"workload": "program", "command": ["sleep", "5"], "metric_from": "wall", "timeout_s": 1e-9}]}'
# Whether `sleep` was started before the watchdog fired depends on the
# host's speed: if it was, the reaper kills it and the reason says so.
tiny_left=$(q tiny '.results[0].left_behind // 0')
tiny_why="watchdog: no result after 1e-09 s (timeout_s), run killed"
[ "$tiny_left" = 0 ] || tiny_why="$tiny_why; $tiny_left process it left behind killed"
want "timeout_s: 1e-9 is honoured, by the watchdog ($(q tiny '.results[0].reason'))" \
	"$(q tiny '.results[0].reason')" = "$tiny_why" -a "$tiny_left" -le 1
bad timeout-huge 'runs[0].timeout_s: 1e+300 is out of range 0..86400 s' \
	'{"runs": [{"workload": "program", "command": ["true"], "metric": "(x)", "timeout_s": 1e300}]}'

check "validate accepts the program results" "$SB" validate "$TMP/locks.json"
jq '.results[2].summary.preload.grants = 99999999' "$TMP/locks.json" >"$TMP/badg.json"
"$SB" validate "$TMP/badg.json" 2>"$TMP/badg.err"
want "validate refuses more grants than requests" -n "$(grep -F 'results[2].summary.preload.grants: cannot exceed the requests' "$TMP/badg.err")"
jq 'del(.results[0].repetitions[1].metric)' "$TMP/locks.json" >"$TMP/badm.json"
"$SB" validate "$TMP/badm.json" 2>"$TMP/badm.err"
want "validate refuses a repetition without its metric" -n "$(grep -F 'results[0].repetitions[1].metric: must be a number' "$TMP/badm.err")"

# What a program leaves behind is killed with its run: a daemon it forked
# (a new session too), the children of a shell the watchdog killed, and a
# server's child that ignores SIGTERM.  Before, each was left running,
# re-parented to init (PR_SET_PDEATHSIG reaches only the direct child).
# The server's run waits (up to 5 s) until its server has forked that
# child: on a loaded host the command could end first and the server's
# shell be killed before it had a child to leave behind.
alive() { # alive PID: running, not a zombie
	local st
	st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}
P=$TMP/pids
mkdir -p "$P"
# shellcheck disable=SC2016 # $! and $$ belong to the programs' shells
run left '{"defaults": {"repetitions": 1, "events": [], "threads": 1, "warmup_s": 0, "duration_s": 0.1, "metric": "ops: ([0-9]+)"},
 "runs": [{"label": "daemon", "workload": "program",
           "command": ["sh", "-c", "sleep 300 </dev/null >/dev/null 2>&1 & echo $! >'"$P"'/daemon; echo ops: 5"]},
          {"label": "session", "workload": "program",
           "command": ["sh", "-c", "setsid sh -c '\''sleep 300 & echo $! >'"$P"'/session'\'' </dev/null >/dev/null 2>&1; echo ops: 5"]},
          {"label": "hang", "workload": "program", "timeout_s": 2,
           "command": ["sh", "-c", "sleep 300 & echo $! >'"$P"'/hang; wait"]},
          {"label": "term", "workload": "program",
           "server": ["sh", "-c", "trap \"\" TERM; sleep 300 & echo $! >'"$P"'/term; wait"],
           "command": ["sh", "-c", "i=0; while [ ! -s '"$P"'/term ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done; echo ops: 5"]}]}'
for c in daemon session hang term; do
	pid=$(cat "$P/$c" 2>/dev/null)
	if [ -z "$pid" ]; then
		notok "program: $c: the program did not say its child's pid"
	elif alive "$pid"; then
		notok "program: $c: its child $pid outlived the run ($(q left ".results[] | select(.label == \"$c\") | .status + \": \" + (.reason // \"\")"))"
		kill -KILL "$pid" 2>/dev/null
	else
		ok "program: $c: its child $pid is gone with the run"
	fi
done
want "daemon, session, term: each run ok and its repetition counts 1 left behind ($(q left '[.results[] | .status, (.repetitions[0].left_behind // 0)] | join(" ")'))" \
	"$(q left '[.results[0,1,3] | .status, (.repetitions[0].left_behind // 0)] | join(" ")')" = "ok 1 ok 1 ok 1"
want "hang: failed by the watchdog, which says what it killed ($(q left '.results[2].reason'))" \
	"$(q left '.results[2].reason')" = "watchdog: no result after 2 s (timeout_s), run killed; 2 processes it left behind killed" \
	-a "$(q left '.results[2].left_behind')" = 2
# The hang run's process was killed by the watchdog before it could
# remove its scratch directory (/tmp/slicebench-prog.PID.*): its parent
# removes it, so none is left of a run process that is gone.
stale=$(for d in /tmp/slicebench-prog.[0-9]*.*; do
	[ -d "$d" ] || continue
	p=${d#/tmp/slicebench-prog.}
	p=${p%%.*}
	alive "$p" || echo "$d"
done)
want "nothing is left of a killed run's scratch directory (${stale:-none})" -z "$stale"
want "left_behind, a result's and a repetition's, passes validate --strict ($("$SB" validate --strict "$TMP/left.json" 2>&1 | head -1))" \
	-n "$("$SB" validate --strict "$TMP/left.json" >/dev/null 2>&1 && echo ok)"
