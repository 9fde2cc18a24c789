#!/usr/bin/env bash
# slurm.sh - run a cluster plan (configs/plans/*.json) as Slurm array jobs,
# or the same plan one job after another on this machine.
#   scripts/slurm.sh --slurm PLAN.json [--partition P] [--resume] [--no-wait] [--results DIR]
#   scripts/slurm.sh --local PLAN.json [--resume] [--results DIR]
#   scripts/slurm.sh --status PLAN.json [--results DIR]
# One job = one config on one kernel on one node: an array task running the
# ordinary ./run.sh into DIR/<task>.json (DIR = results/<plan name>), with
# sbatch --exclusive so runs never share a machine.  One array job per
# machine class of the plan.  Waits with progress (done / running / pending
# / failed), then lists the failed tasks with their logs (DIR/logs/<task>.log);
# --resume resubmits only the tasks whose result is missing or failed.
# Exit: 0 every task done, 1 some failed, 2 usage or plan error.
set -euo pipefail

POLL_S=${SB_SLURM_POLL_S:-2}
# A task gone from squeue whose exit status has not appeared yet is given
# this long (shared filesystems publish files late) before it counts as failed.
GRACE_S=${SB_SLURM_GRACE_S:-30}

log() { printf 'slurm.sh: %s\n' "$*" >&2; }
die() { log "$*"; exit 2; }
# a mistake in the options: one line and where to read more, not the help
misuse() { log "$*"; echo "try 'scripts/slurm.sh --help'" >&2; exit 2; }
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }

# ---------------------------------------------------------------- one task
# Runs inside the allocation (sbatch --chdir=<checkout>), or from --local
# with the task id as argument.  Writes DIR/logs/<task>.rc when it ends.
task_main() {
	local dir=$1 id=${2:-${SLURM_ARRAY_TASK_ID:-}} rc=0
	[ -n "$id" ] || die "--task: no task id (not an array task?)"
	[ -x ./run.sh ] || die "--task: $PWD is not the slicebench checkout"
	local rcfile="$dir/logs/$id.rc"
	write_rc() {
		printf '%s\n' "$1" >"$rcfile.tmp.$$" && mv -f "$rcfile.tmp.$$" "$rcfile"
	}
	# Slurm sends TERM at the time limit and on scancel: record it, so the
	# waiting side reports the task failed at once instead of after GRACE_S.
	trap 'write_rc 143; exit 143' TERM INT

	local kind tid machine kernel rep config
	while IFS=$'\t' read -r kind tid machine kernel rep config; do
		[ "$kind" = job ] && [ "$tid" = "$id" ] && break
	done <"$dir/logs/jobs.tsv"
	if [ "${kind:-}" != job ] || [ "$tid" != "$id" ]; then
		log "task $id: not in $dir/logs/jobs.tsv"
		write_rc 2
		exit 2
	fi
	local out="$dir/$id.json"
	echo "task $id: machine=$machine kernel=$kernel rep=$rep config=$config" \
		"node=${SLURMD_NODENAME:-$(uname -n)} job=${SLURM_JOB_ID:-local} start=$(date -u +%FT%TZ)"
	# Fault injection for tests/t-slurm.sh: these task ids fail without running.
	case " ${SLICEBENCH_TEST_FAIL_TASKS:-} " in
	*" $id "*)
		echo "task $id: failing on purpose (SLICEBENCH_TEST_FAIL_TASKS)"
		write_rc 1
		exit 1
		;;
	esac
	rm -f "$out"
	if [ "$kernel" = host ]; then
		./run.sh --config "$config" --out "$out" --quiet --no-plot || rc=$?
	else
		local vm=() meta=() k v
		while IFS=$'\t' read -r k v; do
			[ "$k" = vm ] && vm+=("$v")
		done <"$dir/logs/jobs.tsv"
		# The guest's harness sees no SLURM_* variables: hand the
		# provenance over as --meta, the same keys the host harness records.
		for k in job_id:SLURM_JOB_ID array_job_id:SLURM_ARRAY_JOB_ID \
			array_task_id:SLURM_ARRAY_TASK_ID node:SLURMD_NODENAME \
			partition:SLURM_JOB_PARTITION; do
			v=${k#*:}
			if [ -n "${!v:-}" ]; then meta+=(--meta "slurm.${k%%:*}=${!v}"); fi
		done
		./run.sh --vm --config "$config" --out "$out" --no-plot --kernel "$kernel" \
			"${meta[@]}" "${vm[@]}" || rc=$?
	fi
	if [ "$rc" -eq 0 ] && [ ! -s "$out" ]; then
		echo "task $id: run.sh succeeded but wrote no $out"
		rc=1
	fi
	echo "task $id: exit $rc end=$(date -u +%FT%TZ)"
	write_rc "$rc"
	exit "$rc"
}

if [ "${1:-}" = --task ]; then
	[ $# -ge 2 ] || die "--task DIR [ID]"
	task_main "${@:2}"
fi

# ------------------------------------------------------------ the plan side
cd "$(dirname "$0")/.."
root=$PWD
mode="" plan="" partition="" resume=0 wait=1 dir=""
while [ $# -gt 0 ]; do
	case "$1" in
	--slurm | --local | --status)
		mode=${1#--}
		[ $# -ge 2 ] || misuse "$1 needs PLAN.json"
		plan=$2; shift 2 ;;
	--partition) [ $# -ge 2 ] || misuse "--partition needs a value"; partition=$2; shift 2 ;;
	--results) [ $# -ge 2 ] || misuse "--results needs a directory"; dir=$2; shift 2 ;;
	--resume) resume=1; shift ;;
	--no-wait) wait=0; shift ;;
	-h | --help) usage; exit 0 ;;
	*) misuse "unknown option '$1'" ;;
	esac
done
[ -n "$mode" ] || misuse "one of --slurm, --local or --status PLAN.json is required"
if [ "$mode" = local ] && [ -n "$partition" ]; then misuse "--partition needs --slurm"; fi
[ -x build/slicebench ] || make -s all
sb=build/slicebench

tsv=$("$sb" plan "$plan" --tsv ${dir:+--results "$dir"}) || exit 2
IFS=$'\t' read -r _ name pdir ppart time_min max_par <<<"$(head -n 1 <<<"$tsv")"
# The plan's vm_args, checked by vm.sh itself before anything runs: a
# typo would otherwise fail every guest task, after its kernel build.
vmargs=()
while IFS=$'\t' read -r k v; do
	if [ "$k" = vm ]; then vmargs+=("$v"); fi
done <<<"$tsv"
if [ "${#vmargs[@]}" -gt 0 ]; then
	cfg0=$(awk -F'\t' '$1 == "job" { print $6; exit }' <<<"$tsv")
	# with each VM kernel of the plan (what vm.sh allows depends on it:
	# --preempt none, --variant), or vm.sh's default when it has none
	kerns=$(awk -F'\t' '$1 == "job" && $4 != "host" && !seen[$4]++ { print $4 }' <<<"$tsv")
	for k in ${kerns:-""}; do
		scripts/vm.sh --config "$cfg0" --out check.json ${k:+--kernel "$k"} "${vmargs[@]}" --check-options ||
			die "$plan: vm_args: refused by scripts/vm.sh${k:+ with kernel $k} (above)"
	done
fi
[ "$ppart" = - ] && ppart=""
mkdir -p "$pdir/logs"
dir=$(cd "$pdir" && pwd)
logs=$dir/logs

# Parallel arrays over the plan's jobs, indexed by task id.
ids=()
declare -A jmachine=() jdesc=()
declare -A mconstraint=() mpartition=()
machines=() sbatch_extra=()
while IFS=$'\t' read -r kind a b c d e; do
	case "$kind" in
	job) ids+=("$a"); jmachine[$a]=$b; jdesc[$a]="$b $c rep $d $e" ;;
	machine)
		# "-" stands for empty: read(1) would merge adjacent tabs.
		machines+=("$a")
		mconstraint[$a]=$b mpartition[$a]=$c
		if [ "$b" = - ]; then mconstraint[$a]=""; fi
		if [ "$c" = - ]; then mpartition[$a]=""; fi ;;
	sbatch) sbatch_extra+=("$a") ;;
	esac
done <<<"$tsv"

# A task's state from the files: done (result + exit 0), failed (exit != 0),
# or "" when it has not ended (or never ran).
file_state() {
	local id=$1 rc
	[ -f "$logs/$id.rc" ] || return 0
	rc=$(cat "$logs/$id.rc")
	if [ "$rc" = 0 ] && [ -s "$dir/$id.json" ]; then echo "done"; else echo failed; fi
}

if [ -f "$logs/jobs.tsv" ] && ! diff -q <(grep '^job' "$logs/jobs.tsv") <(grep '^job' <<<"$tsv") >/dev/null; then
	die "$dir holds a different plan's jobs (see $logs/jobs.tsv): use another --results or remove it"
fi

# ------------------------------------------------------------------ states
declare -A state=() gone_since=() jobof=()
for id in "${ids[@]}"; do
	[ -f "$logs/$id.job" ] && jobof[$id]=$(cat "$logs/$id.job")
done

# squeue rows "ARRAYJOB TASK STATE" of this user's jobs; 1 if squeue failed.
# Not -j: squeue rejects ids of jobs the controller has already forgotten.
queued() {
	squeue -h -r --me -o '%A %K %t' 2>/dev/null
}

refresh() {
	local id s q now
	declare -A inq=()
	now=$(date +%s)
	local known=0
	if [ "$mode" != local ] && command -v squeue >/dev/null && q=$(queued); then
		local aj tk st
		known=1
		while read -r aj tk st; do
			if [ -n "$aj" ]; then inq["$aj/$tk"]=$st; fi
		done <<<"$q"
	fi
	for id in "${ids[@]}"; do
		s=$(file_state "$id")
		if [ -z "$s" ] && [ -n "${jobof[$id]:-}" ]; then
			case "${inq["${jobof[$id]}/$id"]:-}" in
			PD) s=pending ;;
			"")
				# squeue did not answer: keep what we knew.
				if [ "$known" = 0 ]; then s=${state[$id]:-pending}; continue; fi
				# Ended (or never started) without an exit status yet.
				[ -n "${gone_since[$id]:-}" ] || gone_since[$id]=$now
				if [ $((now - gone_since[$id])) -ge "$GRACE_S" ]; then s=failed; else s=running; fi ;;
			*) s=running ;;
			esac
		fi
		state[$id]=${s:-missing}
	done
}

count() { # count STATE -> how many tasks are in it
	local n=0 id
	for id in "${ids[@]}"; do [ "${state[$id]}" = "$1" ] && n=$((n + 1)); done
	echo "$n"
}

progress() {
	printf '%s: %d tasks: %d done, %d running, %d pending, %d failed' "$name" "${#ids[@]}" \
		"$(count "done")" "$(count running)" "$(count pending)" "$(count failed)"
	[ "$(count missing)" -eq 0 ] || printf ', %d not submitted' "$(count missing)"
	echo
}

report() {
	local id n=0
	for id in "${ids[@]}"; do
		[ "${state[$id]}" = failed ] || continue
		n=$((n + 1))
		local rc="no exit status (killed, or the node failed)"
		[ -f "$logs/$id.rc" ] && rc="exit $(cat "$logs/$id.rc")"
		echo "failed: task $id (${jdesc[$id]}): $rc, log $logs/$id.log"
	done
	if [ "$n" -gt 0 ]; then
		local again="--$mode"
		[ "$mode" = status ] && again=--slurm
		echo "rerun the failed tasks: ./run.sh $again $plan --resume${dir:+ --results $dir}"
		return 1
	fi
	if [ "$(count "done")" -ne "${#ids[@]}" ]; then
		echo "$name: $(( ${#ids[@]} - $(count "done") )) of ${#ids[@]} tasks not finished"
		return 1
	fi
	echo "$name: all ${#ids[@]} results in $dir/"
}

if [ "$mode" = status ]; then
	refresh
	progress
	report
	exit $?
fi

# ------------------------------------------------------- choose the tasks
refresh
todo=()
for id in "${ids[@]}"; do
	case "${state[$id]}" in
	done) ;;
	missing | failed) todo+=("$id") ;;
	*) ;; # still pending or running: left to its submission
	esac
done
if [ "$resume" = 0 ] && [ "${#todo[@]}" -ne "${#ids[@]}" ]; then
	die "$dir already has results or queued tasks of this plan: --resume to finish it, or remove $dir"
fi
if [ "$resume" = 1 ]; then
	q=$(count pending) r=$(count running)
	[ $((q + r)) -eq 0 ] || log "resume: $((q + r)) tasks are still queued or running: left alone"
	log "resume: ${#todo[@]} of ${#ids[@]} tasks to run"
fi
# Atomically: tasks of an earlier submission may be reading it right now.
printf '%s\n' "$tsv" >"$logs/jobs.tsv.tmp.$$"
mv -f "$logs/jobs.tsv.tmp.$$" "$logs/jobs.tsv"
cp -f "$plan" "$logs/plan.json"
for id in "${todo[@]}"; do
	rm -f "$dir/$id.json" "$logs/$id.rc" "$logs/$id.job"
	[ -f "$logs/$id.log" ] && mv -f "$logs/$id.log" "$logs/$id.log.prev"
	unset "gone_since[$id]"
done

# ------------------------------------------------------------------ local
if [ "$mode" = local ]; then
	k=0
	for id in "${todo[@]}"; do
		k=$((k + 1))
		t0=$(date +%s)
		log "[$k/${#todo[@]}] task $id: ${jdesc[$id]}"
		( "$root/scripts/slurm.sh" --task "$dir" "$id" ) >"$logs/$id.log" 2>&1 || true
		refresh
		log "[$k/${#todo[@]}] task $id: ${state[$id]} ($(($(date +%s) - t0)) s)"
	done
	refresh
	progress
	report
	exit $?
fi

# ------------------------------------------------------------------ slurm
command -v sbatch >/dev/null || die "sbatch not found: install slurm-wlm (or use --local)"
# "0-2,5,7-9": the --array list of the given (sorted) task ids.
ranges() {
	local out="" lo="" hi="" i
	for i in "$@"; do
		if [ -n "$hi" ] && [ "$i" -eq $((hi + 1)) ]; then hi=$i; continue; fi
		[ -z "$lo" ] || out+="${out:+,}$lo$([ "$lo" = "$hi" ] || echo "-$hi")"
		lo=$i hi=$i
	done
	[ -z "$lo" ] || out+="${out:+,}$lo$([ "$lo" = "$hi" ] || echo "-$hi")"
	echo "$out"
}

for m in "${machines[@]}"; do
	sel=()
	for id in "${todo[@]}"; do
		if [ "${jmachine[$id]}" = "$m" ]; then sel+=("$id"); fi
	done
	[ "${#sel[@]}" -gt 0 ] || continue
	spec=$(ranges "${sel[@]}")
	[ "$max_par" -gt 0 ] && spec+="%$max_par"
	part=${partition:-${mpartition[$m]:-$ppart}}
	args=(--parsable --job-name="sb-$name-$m" --array="$spec" --exclusive --nodes=1 --ntasks=1
		--chdir="$root" --output="$logs/%a.log")
	[ -n "$part" ] && args+=(--partition="$part")
	[ -n "${mconstraint[$m]}" ] && args+=(--constraint="${mconstraint[$m]}")
	[ "$time_min" -gt 0 ] && args+=(--time="$time_min")
	args+=("${sbatch_extra[@]}")
	jid=$(sbatch "${args[@]}" "$root/scripts/slurm.sh" --task "$dir") || die "sbatch failed for machine class $m"
	jid=${jid%%;*} # --parsable prints "jobid[;cluster]"
	for id in "${sel[@]}"; do
		echo "$jid" >"$logs/$id.job"
		jobof[$id]=$jid
	done
	echo "$(date -u +%FT%TZ) $jid $m --array=$spec ${part:+--partition=$part}" >>"$logs/submissions"
	log "submitted array job $jid: machine $m, tasks $spec${part:+, partition $part}"
done

if [ "$wait" = 0 ]; then
	log "not waiting: ./run.sh --slurm $plan --resume later, or scripts/slurm.sh --status $plan"
	exit 0
fi
t0=$(date +%s) last="" last_t=0
while :; do
	refresh
	line=$(progress)
	now=$(date +%s)
	# A line per change, and one a minute while nothing changes.
	if [ "$line" != "$last" ] || [ $((now - last_t)) -ge 60 ]; then
		log "$line [$((now - t0)) s]"
		last=$line last_t=$now
	fi
	[ $(($(count running) + $(count pending))) -gt 0 ] || break
	sleep "$POLL_S"
done
report
