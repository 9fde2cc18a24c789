#!/usr/bin/env bash
# tier: host
# t-slurm.sh - plans on a real Slurm: plan validation, then a one-node
# slurm-wlm + munge started in a temp directory runs configs/plans/ci.json
# (3 array tasks of configs/ci.json, exclusive) with task 1 failing on
# purpose; the failure is reported with its log, --resume reruns only that
# task, and all three results carry their Slurm job and task ids.  Then an
# array of 4 tasks at once fetches Debian's image into one empty cache.  The
# daemons this test starts are stopped by pid, also when it fails.
# needs: none (the array's tasks make their own empty cache)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/slurm/cluster.sh
. "$(dirname "$0")/slurm/cluster.sh"

# ------------------------------------------------ plan validation (no Slurm)
bad() { # bad NAME EXPECTED-MESSAGE-REGEX JSON [PLAN-OPTION...]
	local f="$TMP/$1.json"
	printf '%s' "$3" >"$f"
	"$SB" plan "$f" --dry-run "${@:4}" >"$TMP/out" 2>"$TMP/err"
	local rc=$? msg
	msg=$(cat "$TMP/err")
	if [ "$rc" -eq 2 ] && grep -Eq -- "$2" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		ok "plan: $1 -> exit 2, \"$msg\""
	else
		notok "plan: $1: rc=$rc msg=\"$msg\" (wanted /$2/)"
	fi
}
bad syntax "$TMP/syntax.json:1:[0-9]+: " '{"configs": [}'
bad no-configs 'configs: required' '{"kernels": ["host"]}'
bad unknown-key 'kernel: unknown key \(did you mean "kernels"\?\)' '{"configs": ["configs/ci.json"], "kernel": ["host"]}'
bad bad-kernel 'kernels\[1\]: unknown kernel "vm" \(known: host, patched, debian\)' \
	'{"configs": ["configs/ci.json"], "kernels": ["host", "vm"]}'
bad missing-config 'configs\[0\]: configs/nope.json: ' '{"configs": ["configs/nope.json"]}'
printf '%s' '{"runs": [{"thread": 2}]}' >"$TMP/badcfg.json"
bad config-error "configs\\[0\\]: $TMP/badcfg.json: runs\\[0\\]\\.thread: unknown key" \
	"{\"configs\": [\"$TMP/badcfg.json\"]}"
bad twice 'configs\[1\]: "configs/ci.json" is listed twice' '{"configs": ["configs/ci.json", "configs/ci.json"]}'
bad reps 'repetitions: 0 is out of range 1\.\.1000' '{"configs": ["configs/ci.json"], "repetitions": 0}'
bad slurm-key 'slurm\.partiton: unknown key \(did you mean "partition"\?\)' \
	'{"configs": ["configs/ci.json"], "slurm": {"partiton": "x"}}'
bad machine-name 'machines\[0\]\.name: "a b": only letters' '{"configs": ["configs/ci.json"], "machines": [{"name": "a b"}]}'
bad machine-dup 'machines\[1\]\.name: "x" is already machines\[0\]' \
	'{"configs": ["configs/ci.json"], "machines": [{"name": "x"}, {"name": "x"}]}'
# Found trying plans as a demanding user would: before, each of these
# passed validation and failed later, or silently did something else.
C='"configs": ["configs/ci.json"]'
bad sbatch-array 'slurm\.sbatch_args\[1\]: "--array=0-9": --array is not allowed here: scripts/slurm\.sh sets it' \
	"{$C, \"slurm\": {\"sbatch_args\": [\"--qos=x\", \"--array=0-9\"]}}"
bad sbatch-abbrev 'slurm\.sbatch_args\[0\]: "--out=x\.log": --output is not allowed here' \
	"{$C, \"slurm\": {\"sbatch_args\": [\"--out=x.log\"]}}"
bad sbatch-short 'slurm\.sbatch_args\[0\]: "-D": --chdir is not allowed here' \
	"{$C, \"slurm\": {\"sbatch_args\": [\"-D\", \"/tmp\"]}}"
bad sbatch-partition 'slurm\.sbatch_args\[0\]: "-pbig": --partition is not allowed here: use slurm\.partition or machines\[\]\.partition' \
	"{$C, \"slurm\": {\"sbatch_args\": [\"-pbig\"]}}"
bad sbatch-empty 'slurm\.sbatch_args\[0\]: an empty argument' "{$C, \"slurm\": {\"sbatch_args\": [\"\"]}}"
bad sbatch-script 'slurm\.sbatch_args\[1\]: "long" is not an option and follows none that takes a value' \
	"{$C, \"slurm\": {\"sbatch_args\": [\"--qos=x\", \"long\"]}}"
bad name-long 'name: "a{32}\.\.\." is 101 characters long, at most 100' \
	"{$C, \"name\": \"$(printf 'a%.0s' $(seq 101))\"}"
bad config-alias 'configs\[1\]: "\./configs/ci\.json" is configs\[0\] \("configs/ci\.json"\) by another name' \
	'{"configs": ["configs/ci.json", "./configs/ci.json"]}'
bad config-empty 'configs\[0\]: an empty path$' '{"configs": [""]}'
bad results-empty '^slicebench plan: --results "": must not be empty' "{$C}" --results ""
bad vm-kernel 'vm_args\[0\]: "--kernel": --kernel is not allowed here: use kernels' \
	"{$C, \"vm_args\": [\"--kernel\", \"/boot/vmlinuz\"]}"
# vm_args vm.sh refuses: said by vm.sh before anything runs (the plan has a
# host kernel only, so a check that let it through would run ci.json here,
# not build a kernel)
printf '%s' "{$C, \"vm_args\": [\"--smp\", \"0\"]}" >"$TMP/vmbad.json"
scripts/slurm.sh --local "$TMP/vmbad.json" --results "$TMP/vmbad" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "plan: vm_args [--smp, 0] refused by vm.sh before any task (exit $rc: $(head -n 1 "$TMP/err"))" \
	test "$rc" = 2 -a "$(head -n 1 "$TMP/err")" = "vm.sh: --smp: 0 is out of range 1..255" -a ! -e "$TMP/vmbad"
printf '%s' "{$C, \"slurm\": {\"sbatch_args\": [\"--qos\", \"long\", \"-A\", \"a\", \"--time-min=5\", \"--parsable\"]}}" >"$TMP/sbok.json"
check "plan: sbatch_args with values and options the driver leaves alone pass" "$SB" plan "$TMP/sbok.json"
for p in configs/plans/*.json; do
	n=$("$SB" plan "$p" --dry-run 2>"$TMP/err" | grep -c '^[0-9]')
	check "plan: $p validates and expands to $n jobs" test "$n" -gt 0
done
printf '%s' '{"configs": ["configs/ci.json", "configs/quick.json"], "kernels": ["host", "debian"],
  "repetitions": 2, "machines": [{"name": "a", "constraint": "fa"}, {"name": "b"}]}' >"$TMP/m.json"
# 2 machines x 2 repetitions x 2 configs x 2 kernels, repetitions outside
# configs and kernels so rounds interleave.
if "$SB" plan "$TMP/m.json" --tsv | awk -F'\t' '$1 == "job" { print $2, $3, $4, $5, $6 }' >"$TMP/jobs" &&
	[ "$(wc -l <"$TMP/jobs")" -eq 16 ] &&
	[ "$(sed -n 1p "$TMP/jobs")" = "0 a host 1 configs/ci.json" ] &&
	[ "$(sed -n 5p "$TMP/jobs")" = "4 a host 2 configs/ci.json" ] &&
	[ "$(sed -n 9p "$TMP/jobs")" = "8 b host 1 configs/ci.json" ]; then
	ok "plan: machines x repetitions x configs x kernels = 16 jobs, rounds interleaved"
else
	notok "plan: matrix expansion: $(tr '\n' ';' <"$TMP/jobs")"
fi

# --------------------------------------------------------- a real Slurm
need() {
	command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged &&
		command -v runuser && command -v ss
}
if ! need >/dev/null; then
	if [ "$(id -u)" -eq 0 ]; then
		echo "# installing slurm-wlm munge"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >"$TMP/apt.log" 2>&1 ||
			tail -n 3 "$TMP/apt.log"
	fi
	if ! need >/dev/null; then
		notok "slurm: plan on a one-node cluster: slurm-wlm/munge are not installed (run scripts/install-deps.sh check as root)"
		exit 0
	fi
fi
if [ "$(id -u)" -ne 0 ]; then
	notok "slurm: plan on a one-node cluster: needs root (slurmd runs jobs as their user); run make check as root"
	exit 0
fi
trap 'cluster_stop; rm -rf "$TMP"' EXIT
t0=$(date +%s)
chmod 711 "$TMP" # for munged, which runs as munge
if ! cluster_start "$TMP/cluster" 2>"$TMP/err"; then
	notok "slurm: one-node cluster started: $(cat "$TMP/err")"
	exit 1
fi
ok "slurm: one-node cluster up (munged, slurmctld, slurmd: pids ${CL_PIDS[*]}) in $(($(date +%s) - t0)) s"

res=$TMP/results/ci
t0=$(date +%s)
SLICEBENCH_TEST_FAIL_TASKS=1 SB_SLURM_POLL_S=1 ./run.sh --slurm configs/plans/ci.json \
	--results "$res" >"$TMP/out" 2>"$TMP/err"
rc=$?
t1=$(date +%s)
check "slurm: a failed task makes the run exit 1 (rc=$rc, $((t1 - t0)) s)" test "$rc" -eq 1
[ "$rc" -eq 1 ] || { sed "s/^/# /" "$TMP/err"; exit 1; }
if grep -q "^failed: task 1 (.*log $res/logs/1.log" "$TMP/out" && [ "$(grep -c '^failed:' "$TMP/out")" -eq 1 ]; then
	ok "slurm: task 1 alone is listed failed, with its log"
else
	notok "slurm: failed list: $(cat "$TMP/out")"
fi
check "slurm: progress lines name done/running/pending/failed" \
	grep -Eq 'ci: 3 tasks: [0-9]+ done, [0-9]+ running, [0-9]+ pending, [0-9]+ failed' "$TMP/err"
check "slurm: the failed task's log says why" grep -q 'failing on purpose' "$res/logs/1.log"
jid1=$(awk 'NR == 1 { print $2 }' "$res/logs/submissions")
check "slurm: one array job for the 3 tasks (job $jid1)" \
	test "$(awk 'NR == 1 { print $3, $4 }' "$res/logs/submissions")" = "any --array=0-2"
check "slurm: no result for the failed task" test ! -e "$res/1.json"

# Exclusive allocation: the runs (1 thread per PU each) never overlapped.
if awk '/^task [0-9]+: machine=/ { sub(/.*start=/, ""); s = $0 } /^task [0-9]+: exit/ { sub(/.*end=/, ""); print s, $0 }' \
	"$res"/logs/0.log "$res"/logs/2.log | sort | awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $2 } END { exit bad }'; then
	ok "slurm: --exclusive: tasks 0 and 2 ran one after the other"
else
	notok "slurm: tasks 0 and 2 overlapped on the node"
fi
sum_before=$(cat "$res/0.json" "$res/2.json" | md5sum)

t0=$(date +%s)
SB_SLURM_POLL_S=1 ./run.sh --slurm configs/plans/ci.json --results "$res" --resume --partition sbtest >"$TMP/out2" 2>"$TMP/err2"
rc=$?
t2=$(date +%s)
check "slurm: --resume exits 0 ($((t2 - t0)) s)" test "$rc" -eq 0
check "slurm: --resume reran only task 1" grep -q 'resume: 1 of 3 tasks to run' "$TMP/err2"
check "slurm: --resume submitted --array=1 to --partition sbtest" test "$(awk 'NR == 2 { print $3, $4, $5 }' "$res/logs/submissions")" = "any --array=1 --partition=sbtest"
check "slurm: tasks 0 and 2 untouched by --resume" test "$(cat "$res/0.json" "$res/2.json" | md5sum)" = "$sum_before"
jid2=$(awk 'NR == 2 { print $2 }' "$res/logs/submissions")
node=$(hostname -s)
for t in 0 1 2; do
	want=$jid1
	[ "$t" = 1 ] && want=$jid2
	# shellcheck disable=SC2016 # jq variables
	if jq -e --arg a "$want" --argjson t "$t" --arg n "$node" '
		.schema == "slicebench/1" and .config.name == "ci" and (.results | length > 0)
		and (.meta.slurm.array_job_id | tostring) == $a
		and (.meta.slurm.array_task_id | tostring) == ($t | tostring)
		and (.meta.slurm.job_id | tostring | length > 0)
		and .meta.slurm.node == $n and .meta.slurm.partition == "sbtest"
		and all(.results[] | select(.params.policy == "none" or .params.dry); .status == "ok")' \
		"$res/$t.json" >/dev/null 2>&1; then
		ok "slurm: $t.json is a valid result of array job $want, task $t, node $node"
	else
		notok "slurm: $t.json: $(jq -c .meta.slurm "$res/$t.json" 2>&1)"
	fi
done
check "slurm: the 3 tasks have distinct job ids" \
	test "$(for t in 0 1 2; do jq .meta.slurm.job_id "$res/$t.json"; done | sort -u | wc -l)" -eq 3
scripts/slurm.sh --status configs/plans/ci.json --results "$res" >"$TMP/out3" 2>&1
check "slurm: --status: all 3 done" grep -q 'ci: 3 tasks: 3 done, 0 running, 0 pending, 0 failed' "$TMP/out3"
./run.sh --slurm configs/plans/ci.json --results "$res" >/dev/null 2>"$TMP/err4"
rc=$?
check "slurm: resubmitting a finished plan without --resume is refused (exit $rc)" \
	test "$rc" -eq 2 -a -n "$(grep -- '--resume to finish it' "$TMP/err4")"

# Merge: plot takes the results directory, where someone has built it.
check "slurm: plot renders the results directory" "$SB" plot "$res/" --out "$TMP/plots/"

# ------------------------------------- a Slurm array on one empty cache
# The first array of guest runs on a fresh node: every task fetches
# Debian's image into the one shared cache at the same moment.  Before the
# cache had locks, two such users failed ("private apt-get update failed",
# "download ... produced no .deb").  A gate makes the four tasks meet
# before any starts the fetch, so they are known to run together (a task
# left waiting there says Slurm ran them one after the other); the exit
# codes are the controller's record of each task and each task's log.
if [ "${SLICEBENCH_VM_TESTS:-1}" = 0 ]; then
	ok "slurm: an array of 4 on one empty cache # SKIP left out by SLICEBENCH_VM_TESTS=0 (it fetches Debian's image)"
else
	A=$TMP/array
	AC=$(mktemp -d "$TMP/cache.XXXXXX")
	mkdir -p "$A"
	cat >"$A/task.sh" <<'TASK'
#!/bin/bash
t=$SLURM_ARRAY_TASK_ID
touch "$AGATE/$t"
for _ in $(seq 600); do
	[ "$(find "$AGATE" -type f | wc -l)" -ge 4 ] && break
	sleep 0.1
done
n=$(find "$AGATE" -type f | wc -l)
[ "$n" -ge 4 ] || { echo "task $t: gate: only $n of 4 tasks running after 60 s"; exit 3; }
rc=0
kernel/build.sh --debian-image >"$AOUT/$t.out" || rc=$?
echo "task $t: exit=$rc"
exit "$rc"
TASK
	mkdir -p "$A/gate" "$A/out"
	t0=$(date +%s)
	jid=$(SLICEBENCH_CACHE=$AC AGATE=$A/gate AOUT=$A/out sbatch --parsable --array=0-3 --partition=sbshare \
		--ntasks=1 --mem=64 --chdir="$PWD" --output="$A/%a.log" "$A/task.sh" 2>"$TMP/err") ||
		notok "slurm: array submitted: $(cat "$TMP/err")"
	for _ in $(seq 600); do
		[ -z "$(squeue -h -j "$jid" 2>/dev/null)" ] && break
		sleep 0.5
	done
	# one line a task: "TASK STATE EXIT:SIGNAL", as the controller has it
	scontrol -o show job "$jid" 2>/dev/null |
		sed -nE 's/.*ArrayTaskId=([0-9]+) .*JobState=([A-Z_]+) .*ExitCode=([0-9]+:[0-9]+).*/\1 \2 \3/p' |
		sort -n >"$A/states"
	want=$(printf '%s COMPLETED 0:0\n' 0 1 2 3)
	check "slurm: array $jid of 4 on one empty cache: each task COMPLETED, exit 0:0 ($(($(date +%s) - t0)) s; $(tr '\n' ';' <"$A/states"))" \
		test "$(cat "$A/states")" = "$want"
	logs=$(for t in 0 1 2 3; do grep -h '^task ' "$A/$t.log" 2>/dev/null || echo "task $t: no log"; done)
	check "slurm: ... and each task's log says exit=0 ($(tr '\n' ';' <<<"$logs"))" \
		test "$logs" = "$(printf 'task %s: exit=0\n' 0 1 2 3)"
	img=$(tail -n 1 "$A/out/0.out" 2>/dev/null)
	same=$(for t in 0 1 2 3; do tail -n 1 "$A/out/$t.out" 2>/dev/null; done | sort -u | wc -l)
	check "slurm: ... all 4 name one vmlinuz ($img), a bzImage" \
		test "$same" = 1 -a "$(head -c 2 "$img" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 4d5a
	check "slurm: ... one image in the cache, complete, downloaded and unpacked once" \
		test "$(find "$AC/debian-image" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)" = 1 -a \
		-f "$(dirname "$img")/.done" -a \
		"$(find "$AC/deb" -name 'linux-binary-*.deb' | wc -l)" = 1 -a \
		-z "$(find "$AC" -name '.partial-*' -o -name '*.part-*' | head -n 1)" -a \
		"$(grep -l 'unpacking linux-binary' "$A"/?.log | wc -l)" = 1
fi

pids=("${CL_PIDS[@]}")
check "slurm: stopped the daemons it started" cluster_stop
alive=()
for p in "${pids[@]}"; do cl_alive "$p" && alive+=("$p"); done
check "slurm: no munged/slurmctld/slurmd of this test left (${alive[*]:-none})" test "${#alive[@]}" -eq 0
