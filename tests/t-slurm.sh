#!/usr/bin/env bash
# t-slurm.sh - plans on a real Slurm: plan validation, then a one-node
# slurm-wlm + munge started in a temp directory runs configs/plans/ci.json
# (3 array tasks of configs/ci.json, exclusive) with task 1 failing on
# purpose; the failure is reported with its log, --resume reruns only that
# task, and all three results carry their Slurm job and task ids.  The
# daemons this test starts are stopped by pid, also when it fails.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/slurm/cluster.sh
. "$(dirname "$0")/slurm/cluster.sh"

# ------------------------------------------------ plan validation (no Slurm)
bad() { # bad NAME EXPECTED-MESSAGE-REGEX JSON
	local f="$TMP/$1.json"
	printf '%s' "$3" >"$f"
	"$SB" plan "$f" --dry-run >/dev/null 2>"$TMP/err"
	local rc=$? msg
	msg=$(cat "$TMP/err")
	if [ "$rc" -eq 2 ] && grep -Eq -- "$2" "$TMP/err"; then
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

pids=("${CL_PIDS[@]}")
check "slurm: stopped the daemons it started" cluster_stop
alive=()
for p in "${pids[@]}"; do cl_alive "$p" && alive+=("$p"); done
check "slurm: no munged/slurmctld/slurmd of this test left (${alive[*]:-none})" test "${#alive[@]}" -eq 0
