#!/bin/bash
# Rerun the studies of FINDINGS.md: each study file configs/studies/NAME.json
# (its config in the QEMU guest with the patched kernel and on this host, the
# comparisons, and the plots).  What a study runs is its file's data
# (`slicebench study --help`); this script only carries it out.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$REPO/results/reference
STUDIES=()
WHERE=(vm host)
BOOTS=""
PLAN=""
SB=$REPO/build/slicebench

usage() {
	cat <<EOF
usage: scripts/studies.sh [--out DIR] [--only NAME[,NAME]] [--boots N] [--plan]
                          [--vm-only | --host-only | --reports-only]

Runs every study of configs/studies/ (NAME.json: its config, places,
preemption models with their kernel variant, boots, baselines, metrics and
question; build/slicebench study --help has the keys):
  DIR/NAME-vm.json     in the guest (scripts/vm.sh, patched kernel)
  DIR/NAME-vm-MODEL.json  instead, for a study with preemption models
                       ("models"): one boot per model, vm.sh --preempt MODEL
                       --variant VARIANT
  DIR/NAME-host.json   here (slice workloads are unsupported on a kernel
                       without the extension, with the kernel's reason)
  DIR/compare/NAME-within-PLACE-BASE.{md,json}  slicebench compare --within:
                       each workload against baseline BASE ("baselines") in
                       each place of "within" (vm, vm-MODEL, host)
  DIR/compare/NAME-within-PLACE-BASE-METRIC.{md,json}  the same for each of
                       "metrics" (interference: victim_p99)
  DIR/compare/NAME-host-vs-vm.{md,json} slicebench compare: host, guest
  DIR/compare/NAME-MODEL-vs-MODEL2.{md,json}  the guest's first model paired
                       with each other one
  DIR/plots/NAME/      slicebench plot of the results, answering the study's
                       "question" when it has one
--only NAME,...  these studies only (default: every file, by name).
--boots N runs every guest result N times, each in a fresh boot (default:
the study's "boots"): the first is NAME-vm.json, the others
DIR/boots/NAME-vm-2.json ... -N.json, and each --within comparison takes
them as --noise (the run-to-run spread beside the within-run interval; a
verdict holds only if both intervals agree).
--reports-only redoes the comparisons and plots from the results in DIR.
--plan prints every step's and report's command line (paths from the top
of the checkout) and runs, boots and writes nothing.
Then FINDINGS.md's numbers can be rechecked with scripts/findings-check.sh.
Default DIR: results/reference.  Exit: 0 done, 1 a step failed, 2 usage or
a bad study file.
EOF
}

bad() { echo "studies.sh: $*" >&2; exit 2; }
# a mistake in the options: one line and where to read more, not the help
misuse() { echo "studies.sh: $*" >&2; echo "try 'scripts/studies.sh --help'" >&2; exit 2; }
# need OPTION ARGS...: OPTION's value is there and not empty
need() { if [ $# -lt 2 ] || [ -z "$2" ]; then misuse "$1 needs a value"; fi; }
only_where=""
while [ $# -gt 0 ]; do
	case "$1" in
	--out) need "$@"; OUT=$2; shift 2 ;;
	--only) need "$@"; IFS=, read -r -a STUDIES <<<"$2,"; shift 2 ;;
	--boots)
		BOOTS=${2:-}
		[[ $BOOTS =~ ^[1-9][0-9]?$ ]] || misuse "--boots: '$BOOTS' is not a count from 1 to 99"
		shift 2 ;;
	--plan) PLAN=1; shift ;;
	--vm-only | --host-only | --reports-only)
		[ -z "$only_where" ] || [ "$only_where" = "$1" ] || misuse "$only_where and $1: give one of them"
		only_where=$1
		case "$1" in
		--vm-only) WHERE=(vm) ;;
		--host-only) WHERE=(host) ;;
		*) WHERE=() ;;
		esac
		shift ;;
	-h | --help) usage; exit 0 ;;
	*) misuse "unknown option '$1'" ;;
	esac
done
if [ "${#STUDIES[@]}" = 0 ]; then
	for f in "$REPO"/configs/studies/*.json; do
		[ -f "$f" ] || continue
		f=${f##*/}
		# a stray file (an editor's copy, a note) is no study: said, and
		# the studies run without it
		if ! [[ ${f%.json} =~ ^[a-z0-9][a-z0-9-]*$ ]]; then
			echo "studies.sh: configs/studies/$f: not a study name (letters, digits, '-'): skipped" >&2
			continue
		fi
		STUDIES+=("${f%.json}")
	done
fi
files=()
for s in "${STUDIES[@]}"; do
	# a name, not a path: configs/plans/ci.json is a plan, not a study
	[[ $s =~ ^[a-z0-9][a-z0-9-]*$ ]] || bad "--only: '$s' is not a study name (letters, digits, '-')"
	[ -f "$REPO/configs/studies/$s.json" ] || bad "no configs/studies/$s.json"
	files+=("configs/studies/$s.json")
done
if [ -e "$OUT" ] && [ ! -d "$OUT" ]; then bad "--out $OUT: exists and is not a directory"; fi
make -C "$REPO" -s

# The study files, validated (a bad one: its file and key, exit 2) and
# read into one table per key, indexed by study (and place).
declare -A CONFIG QUESTION SBOOTS TIMEOUT SPLACES VMARGS WITHIN BASELINES METRICS PREEMPT VARIANT
tsv=$(cd "$REPO" && "$SB" study --tsv "${files[@]}") || exit $?
while IFS=$'\t' read -r kind s a b c d; do
	case $kind in
	study) CONFIG[$s]=$a QUESTION[$s]=$b SBOOTS[$s]=$c TIMEOUT[$s]=$d ;;
	place) SPLACES[$s]+="$a " PREEMPT[$s:$a]=$b VARIANT[$s:$a]=$c ;;
	vmarg) VMARGS[$s]+="$a"$'\n' ;;
	within) WITHIN[$s]+="$a " ;;
	baseline) BASELINES[$s]+="$a " ;;
	metric) METRICS[$s]+="$a " ;;
	esac
done <<<"$tsv"

# x COMMAND...: runs it, or under --plan prints it after $PFX, with the
# checkout's path left out.
PFX=""
x() {
	if [ -z "$PLAN" ]; then
		"$@"
		return
	fi
	local a line=$PFX
	for a in "$@"; do
		a=${a//"$REPO"\//}
		line+=" $(printf '%q' "$a")"
	done
	echo "$line"
}

# Where the rerun is: a line per step (study i of N, guest or host, elapsed,
# time left).  The estimate is the configs' planned windows (run --dry-run)
# scaled, once a step has finished, by how long the finished steps took
# against their plan; the guest adds a boot and the kernel's selftest.
VM_OVERHEAD_S=40
planned() { # planned seconds of study $1's config in place $2
	local p
	p=$("$SB" run --config "$REPO/${CONFIG[$1]}" --planned-s 2>/dev/null)
	[ "$2" = host ] || p=$((${p:-0} + VM_OVERHEAD_S))
	echo "${p:-0}"
}
# The places study $1 runs in this time: "host", "vm" or "vm-MODEL".
places() {
	local p
	for p in ${SPLACES[$1]}; do
		case " ${WHERE[*]+"${WHERE[*]}"} " in *" ${p%%-*} "*) echo "$p" ;; esac
	done
}
# The guest results of study $1, whether they run this time or not.
vm_places() {
	local p
	for p in ${SPLACES[$1]}; do [ "$p" = host ] || echo "$p"; done
}
boots() { # boots STUDY PLACE: how many results the place writes
	if [ "$2" = host ]; then echo 1; else echo "${BOOTS:-${SBOOTS[$1]}}"; fi
}
result() { # result STUDY PLACE K: the file, from DIR
	if [ "$3" -gt 1 ]; then echo "boots/$1-$2-$3.json"; else echo "$1-$2.json"; fi
}
vm_opts() { # vm_opts STUDY PLACE: vm.sh's options beside --config and --out
	local -a o=(--timeout "${TIMEOUT[$1]}" --meta "study=$1")
	[ "$2" = vm ] || o+=(--preempt "${PREEMPT[$1:$2]}" --variant "${VARIANT[$1:$2]}")
	local a
	while IFS= read -r a; do [ -z "$a" ] || o+=("$a"); done <<<"${VMARGS[$1]-}"
	printf '%s\n' "${o[@]}"
}
steps=() plan=()
declare -A WILL # the files the steps write (--plan: reports over them)
for s in "${STUDIES[@]}"; do
	for w in $(places "$s"); do
		n=$(boots "$s" "$w")
		for ((k = 1; k <= n; k++)); do
			steps+=("$s:$w:$k")
			plan+=("$(planned "$s" "$w")")
			WILL[$(result "$s" "$w" "$k")]=1
		done
		# vm.sh checks the guest's options itself before anything runs:
		# a study's vm_args typo would otherwise end its boot.
		if [ "$w" != host ]; then
			readarray -t o < <(vm_opts "$s" "$w")
			"$REPO/scripts/vm.sh" --config "$REPO/${CONFIG[$s]}" --out check.json "${o[@]}" \
				--check-options || bad "configs/studies/$s.json: refused by scripts/vm.sh (above)"
		fi
	done
done
[ -n "$PLAN" ] || mkdir -p "$OUT"
nsteps=${#steps[@]} step=0 done_plan=0 done_real=0 t_start=$(date +%s)
eta() { # seconds left before step $1 (0-based) starts
	local i left=0
	for ((i = $1; i < nsteps; i++)); do left=$((left + plan[i])); done
	[ "$done_plan" -gt 0 ] && left=$((left * done_real / done_plan))
	echo "$left"
}
fmt_s() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
on_exit() {
	local rc=$?
	[ "$rc" = 0 ] || [ "$nsteps" = 0 ] ||
		echo "studies.sh: stopped (exit $rc) in step $step of $nsteps after $(fmt_s $(($(date +%s) - t_start))); results so far in $OUT" >&2
}
trap on_exit EXIT
[ "$nsteps" = 0 ] || echo "studies.sh: $nsteps steps, about $(fmt_s "$(eta 0)") planned" >&2

# have FILE: the result is in DIR, or (--plan) a step writes it
have() { [ -f "$OUT/$1" ] || { [ -n "$PLAN" ] && [ -n "${WILL[$1]-}" ]; }; }

run_step() { # run_step STUDY PLACE K N
	local s=$1 w=$2 k=$3 n=$4 f where
	f=$OUT/$(result "$s" "$w" "$k")
	case $w in
	host) where=host ;;
	vm) where="guest, patched kernel" ;;
	*) where="guest, patched kernel, variant ${VARIANT[$s:$w]}, preempt=${PREEMPT[$s:$w]}" ;;
	esac
	[ "$n" = 1 ] || where="$where, boot $k of $n"
	PFX="step $((step + 1))/$nsteps $s $w:"
	[ -n "$PLAN" ] || [ "$k" = 1 ] || mkdir -p "$OUT/boots"
	[ -n "$PLAN" ] ||
		echo "studies.sh: [$((step + 1))/$nsteps] $s ($where): elapsed $(fmt_s $(($(date +%s) - t_start))), about $(fmt_s "$(eta "$step")") left" >&2
	t0=$(date +%s)
	if [ "$w" != host ]; then
		readarray -t o < <(vm_opts "$s" "$w")
		x "$REPO/scripts/vm.sh" --config "$REPO/${CONFIG[$s]}" --out "$f" "${o[@]}"
	else
		(cd "$REPO" && x "$SB" run --config "${CONFIG[$s]}" --out "$f" --force --quiet \
			--meta "study=$s")
		# A published result keeps the host's kernel release and
		# config, not its boot command line (site-specific).
		[ -n "$PLAN" ] ||
			{ jq '.meta.cmdline = "(omitted in published results)"' "$f" >"$f.tmp" && mv "$f.tmp" "$f"; }
	fi
	took=$(($(date +%s) - t0))
	[ -n "$PLAN" ] ||
		echo "studies.sh: [$((step + 1))/$nsteps] $s ($where) took $(fmt_s "$took") (planned $(fmt_s "${plan[step]}"))" >&2
	done_plan=$((done_plan + plan[step])) done_real=$((done_real + took))
	step=$((step + 1))
}

# The comparisons and plots of study $1, from inside DIR with bare file
# names: the reports name the files, never the directory they were made in.
reports() {
	local s=$1 v b m fmt nf k j
	PFX="report $s:"
	[ -n "$PLAN" ] || { cd "$OUT" && mkdir -p compare; }
	local -a vms within ins bl q noise
	readarray -t vms < <(vm_places "$s")
	within=()
	for v in ${WITHIN[$s]-}; do
		if [ "$v" = vm ]; then within+=("${vms[@]}"); else within+=(host); fi
	done
	for v in "${within[@]+"${within[@]}"}"; do
		have "$s-$v.json" || continue
		# The other boots of this place, as the run-to-run noise.
		noise=()
		for ((k = 2; k <= 99; k++)); do
			nf=boots/$s-$v-$k.json
			if have "$nf"; then noise+=(--noise "$nf"); fi
		done
		for b in ${BASELINES[$s]-}; do
			for fmt in markdown json; do
				x "$SB" compare --exploratory --within "$s-$v.json" --baseline "$b" -f $fmt \
					"${noise[@]+"${noise[@]}"}" -o "compare/$s-within-$v-$b.${fmt/markdown/md}"
			done
			# Each further metric (a victim's latency) in its own tables:
			# its own Holm family beside the throughput's.
			for m in ${METRICS[$s]-}; do
				for fmt in markdown json; do
					x "$SB" compare --exploratory --within "$s-$v.json" --baseline "$b" -m "$m" -f $fmt \
						"${noise[@]+"${noise[@]}"}" \
						-o "compare/$s-within-$v-$b-$m.${fmt/markdown/md}"
				done
			done
		done
	done
	# Every table here is exploratory (each row at alpha, labelled so):
	# a study's primary contrasts are its question's
	# (configs/questions/NAME.json), which its report answers, sharing
	# alpha among them.
	for v in "${vms[@]+"${vms[@]}"}"; do
		if have "$s-$v.json" && have "$s-host.json"; then
			for fmt in markdown json; do
				x "$SB" compare --exploratory "$s-host.json" "$s-$v.json" -f $fmt \
					-o "compare/$s-host-vs-$v.${fmt/markdown/md}"
			done
		fi
		# The A/A checks of the study's dry controls (compare's
		# aa_checks), beside the verdicts that rest on them: one report
		# per guest place, from the first baseline that has them.
		[ -z "$PLAN" ] || continue
		for b in ${BASELINES[$s]-}; do
			j=compare/$s-within-$v-$b.json
			[ -f "$j" ] || continue
			jq -r --arg s "$s" --arg v "$v" '.aa_checks[] | "studies.sh: A/A \($s) (\($v)): \(.control) vs \(.real) at \(.nthreads) threads: \(.verdict) (ratio \(.ratio // "none"))"' "$j" >&2
			break
		done
	done
	# The same points under two preemption models, paired: the first model
	# (the study file's first, e.g. none) against each other one.
	for ((k = 1; k < ${#vms[@]}; k++)); do
		if ! have "$s-${vms[0]}.json" || ! have "$s-${vms[k]}.json"; then continue; fi
		for fmt in markdown json; do
			x "$SB" compare --exploratory "$s-${vms[0]}.json" "$s-${vms[k]}.json" -f $fmt \
				-o "compare/$s-${vms[0]#vm-}-vs-${vms[k]#vm-}.${fmt/markdown/md}"
		done
	done
	ins=()
	for v in "${vms[@]+"${vms[@]}"}" host; do
		if have "$s-$v.json"; then ins+=("$s-$v.json"); fi
	done
	# --reports-only over a directory without this study's results.
	if [ "${#ins[@]}" = 0 ]; then
		echo "studies.sh: $s: no result in $OUT: no comparisons, no plots" >&2
		return 0
	fi
	bl=()
	for b in ${BASELINES[$s]-}; do bl+=(--baseline "$b"); done
	# The study's question: the report's verdict table and first figure.
	q=()
	[ "${QUESTION[$s]}" = - ] || q=(--question "$REPO/${QUESTION[$s]}")
	x "$SB" plot "${ins[@]}" "${bl[@]+"${bl[@]}"}" "${q[@]+"${q[@]}"}" --out "plots/$s"
}

for s in "${STUDIES[@]}"; do
	for w in $(places "$s"); do
		n=$(boots "$s" "$w")
		for ((k = 1; k <= n; k++)); do run_step "$s" "$w" "$k" "$n"; done
	done
	(reports "$s")
done
