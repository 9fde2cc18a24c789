#!/bin/bash
# Rerun the studies of FINDINGS.md: each config in the QEMU guest with the
# patched kernel and on this host, the comparisons, and the plots.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$REPO/results/reference
STUDIES=(syscall-vs-atomic rostedt-2023 guzik-question interference contention preempt-regression)
WHERE=(vm host)
BOOTS=1
SB=$REPO/build/slicebench

usage() {
	cat <<EOF
usage: scripts/studies.sh [--out DIR] [--only NAME[,NAME]] [--boots N]
                          [--vm-only | --host-only | --reports-only]

Runs configs/NAME.json for every study (${STUDIES[*]}):
  DIR/NAME-vm.json     in the guest (scripts/vm.sh, patched kernel)
  DIR/NAME-vm-MODEL.json  instead, for a study with preemption models as an
                       axis (contention: lazy full; preempt-regression: none
                       voluntary lazy full, the first two on the kernel
                       variant none): one boot per model,
                       vm.sh --preempt MODEL
  DIR/NAME-host.json   here (slice workloads are unsupported on a kernel
                       without the extension, with the kernel's reason)
  DIR/compare/NAME-within-vm-BASE.{md,json}  slicebench compare --within:
                       each workload against baseline BASE in the guest
  DIR/compare/NAME-within-vm-BASE-METRIC.{md,json}  the same for the
                       victim's latency (interference: victim_p99)
  DIR/compare/NAME-host-vs-vm.{md,json} slicebench compare: host, guest
  DIR/compare/NAME-MODEL-vs-MODEL2.{md,json}  the guest's models paired
  DIR/compare/contention-within-host-BASE.{md,json}  the dry controls
                       against the baseline on this host
  DIR/plots/NAME/      slicebench plot of both results, answering
                       configs/questions/NAME.json when there is one
--boots N runs every guest result N times, each in a fresh boot: the first
is NAME-vm.json, the others DIR/boots/NAME-vm-2.json ... -N.json, and each
--within comparison takes them as --noise (the run-to-run spread beside
the within-run interval; a verdict holds only if both intervals agree).
--reports-only redoes the comparisons and plots from the results in DIR.
Then FINDINGS.md's numbers can be rechecked with scripts/findings-check.sh.
Default DIR: results/reference.  Exit: 0 done, 1 a step failed, 2 usage.
EOF
}

bad() { echo "studies.sh: $*" >&2; exit 2; }
# need OPTION ARGS...: OPTION's value is there and not empty
need() { if [ $# -lt 2 ] || [ -z "$2" ]; then bad "$1 needs a value"; fi; }
only_where=""
while [ $# -gt 0 ]; do
	case "$1" in
	--out) need "$@"; OUT=$2; shift 2 ;;
	--only) need "$@"; IFS=, read -r -a STUDIES <<<"$2,"; shift 2 ;;
	--boots)
		BOOTS=${2:-}
		[[ $BOOTS =~ ^[1-9][0-9]?$ ]] || bad "--boots: '$BOOTS' is not a count from 1 to 99"
		shift 2 ;;
	--vm-only | --host-only | --reports-only)
		[ -z "$only_where" ] || [ "$only_where" = "$1" ] || bad "$only_where and $1: give one of them"
		only_where=$1
		case "$1" in
		--vm-only) WHERE=(vm) ;;
		--host-only) WHERE=(host) ;;
		*) WHERE=() ;;
		esac
		shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "studies.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
for s in "${STUDIES[@]}"; do
	# a name, not a path: configs/plans/ci.json is a plan, not a study
	[[ $s =~ ^[a-z0-9][a-z0-9-]*$ ]] || bad "--only: '$s' is not a study name (letters, digits, '-')"
	[ -f "$REPO/configs/$s.json" ] || bad "no configs/$s.json"
done
if [ -e "$OUT" ] && [ ! -d "$OUT" ]; then bad "--out $OUT: exists and is not a directory"; fi
make -C "$REPO" -s
mkdir -p "$OUT"

# Where the rerun is: a line per step (study i of N, guest or host, elapsed,
# time left).  The estimate is the configs' planned windows (run --dry-run)
# scaled, once a step has finished, by how long the finished steps took
# against their plan; the guest adds a boot and the kernel's selftest.
VM_OVERHEAD_S=40
planned() { # planned seconds of configs/$1.json in place $2
	local p
	p=$("$SB" run --config "$REPO/configs/$1.json" --dry-run 2>&1 >/dev/null |
		sed -n 's/.* runs, \([0-9]*\) s planned$/\1/p')
	[ "$2" = host ] || p=$((${p:-0} + VM_OVERHEAD_S))
	echo "${p:-0}"
}
# The preemption models a study runs under in the guest, one boot each
# (vm.sh --preempt; the harness records the model in force in
# meta.preemption).  Linux 7.3 on x86 offers full and lazy only.  Empty:
# one boot under the kernel's default, the result named NAME-vm.json.
models() {
	case $1 in
	contention) echo lazy full ;;
	preempt-regression) echo none voluntary lazy full ;;
	*) echo "" ;;
	esac
}
# The guest kernel variant a model needs: none and voluntary are gone from
# 7.x on x86 (7dadeaa6e851) and need the variant "none" (vm.sh --variant
# none, kernel/build.sh --variant none); the others run on the default.
variant_for() {
	case $1 in
	none | voluntary) echo none ;;
	*) echo default ;;
	esac
}
# Where study $1 runs: "host", "vm" or one "vm-MODEL" per model.
places() {
	local w m
	for w in "${WHERE[@]+"${WHERE[@]}"}"; do
		if [ "$w" = vm ] && [ -n "$(models "$1")" ]; then
			for m in $(models "$1"); do echo "vm-$m"; done
		else
			echo "$w"
		fi
	done
}
steps=() plan=()
for s in "${STUDIES[@]}"; do
	for w in $(places "$s"); do
		n=1
		[ "$w" = host ] || n=$BOOTS
		for ((k = 1; k <= n; k++)); do
			steps+=("$s:$w:$k")
			plan+=("$(planned "$s" "$w")")
		done
	done
done
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

# The workloads each study's --within comparisons are relative to.
baselines() {
	case $1 in
	rostedt-2023) echo spin-tas slice-dry ;;
	interference) echo spin-tas ;;
	guzik-question) echo adaptive slice-adaptive-dry ;;
	contention) echo spin-tas mcs+none adaptive ;;
	preempt-regression) echo spin-tas pg-spin+none ;;
	*) echo "" ;;
	esac
}

# The victim's latency, compared beside the throughput where a study has
# a victim (compare's metric names).
latency_metrics() {
	case $1 in
	interference) echo victim_p99 ;;
	*) echo "" ;;
	esac
}

for s in "${STUDIES[@]}"; do
	for w in $(places "$s"); do
		n=1
		[ "$w" = host ] || n=$BOOTS
		for ((k = 1; k <= n; k++)); do
			f=$OUT/$s-$w.json
			if [ "$k" -gt 1 ]; then
				mkdir -p "$OUT/boots"
				f=$OUT/boots/$s-$w-$k.json
			fi
			case $w in
			host) where=host ;;
			vm) where="guest, patched kernel" ;;
			*) where="guest, patched kernel, variant $(variant_for "${w#vm-}"), preempt=${w#vm-}" ;;
			esac
			[ "$n" = 1 ] || where="$where, boot $k of $n"
			echo "studies.sh: [$((step + 1))/$nsteps] $s ($where): elapsed $(fmt_s $(($(date +%s) - t_start))), about $(fmt_s "$(eta "$step")") left" >&2
			t0=$(date +%s)
			if [ "$w" != host ]; then
				pre=()
				[ "$w" = vm ] || pre=(--preempt "${w#vm-}" --variant "$(variant_for "${w#vm-}")")
				"$REPO/scripts/vm.sh" --config "$REPO/configs/$s.json" --out "$f" --timeout 1500 \
					--meta "study=$s" "${pre[@]+"${pre[@]}"}"
			else
				(cd "$REPO" && "$SB" run --config "configs/$s.json" --out "$f" --force --quiet \
					--meta "study=$s")
				# A published result keeps the host's kernel release and
				# config, not its boot command line (site-specific).
				jq '.meta.cmdline = "(omitted in published results)"' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
			fi
			took=$(($(date +%s) - t0))
			echo "studies.sh: [$((step + 1))/$nsteps] $s ($where) took $(fmt_s "$took") (planned $(fmt_s "${plan[step]}"))" >&2
			done_plan=$((done_plan + plan[step])) done_real=$((done_real + took))
			step=$((step + 1))
		done
	done
	# From inside DIR, with bare file names: the reports name the files,
	# never the directory they were made in.
	(
		cd "$OUT"
		mkdir -p compare
		vms=()
		for m in $(models "$s"); do vms+=("vm-$m"); done
		[ "${#vms[@]}" -gt 0 ] || vms=(vm)
		# contention's dry controls run on the host too: there they are
		# the cost of the request's stores on real CPUs.
		within=("${vms[@]}")
		[ "$s" != contention ] || within+=(host)
		for v in "${within[@]}"; do
			# The other boots of this place, as the run-to-run noise.
			noise=()
			for nf in boots/"$s-$v"-[0-9]*.json; do
				[ -f "$nf" ] && noise+=(--noise "$nf")
			done
			for b in $(baselines "$s"); do
				[ -f "$s-$v.json" ] || continue
				for fmt in markdown json; do
					"$SB" compare --within "$s-$v.json" --baseline "$b" -f $fmt \
						"${noise[@]+"${noise[@]}"}" \
						-o "compare/$s-within-$v-$b.${fmt/markdown/md}"
				done
			done
			# Latency metrics of a study with a victim, in their own
			# tables (their own Holm family beside the throughput's).
			for m in $(latency_metrics "$s"); do
				for b in $(baselines "$s"); do
					[ -f "$s-$v.json" ] || continue
					for fmt in markdown json; do
						"$SB" compare --within "$s-$v.json" --baseline "$b" -m "$m" -f $fmt \
							"${noise[@]+"${noise[@]}"}" \
							-o "compare/$s-within-$v-$b-$m.${fmt/markdown/md}"
					done
				done
			done
			if [ "$v" != host ] && [ -f "$s-$v.json" ] && [ -f "$s-host.json" ]; then
				for fmt in markdown json; do
					"$SB" compare "$s-host.json" "$s-$v.json" -f $fmt \
						-o "compare/$s-host-vs-$v.${fmt/markdown/md}"
				done
			fi
		done
		# The A/A checks of the study's dry controls (compare's aa_checks),
		# beside the verdicts that rest on them: one report per guest
		# model, from the first baseline that has them.
		for v in "${vms[@]}"; do
			for b in $(baselines "$s"); do
				j=compare/$s-within-$v-$b.json
				[ -f "$j" ] || continue
				jq -r --arg s "$s" --arg v "$v" '.aa_checks[] | "studies.sh: A/A \($s) (\($v)): \(.control) vs \(.real) at \(.nthreads) threads: \(.verdict) (ratio \(.ratio // "none"))"' "$j" >&2
				break
			done
		done
		# The same points under two preemption models, paired.
		if [ "${#vms[@]}" = 2 ] && [ -f "$s-${vms[0]}.json" ] && [ -f "$s-${vms[1]}.json" ]; then
			for fmt in markdown json; do
				"$SB" compare "$s-${vms[0]}.json" "$s-${vms[1]}.json" -f $fmt \
					-o "compare/$s-${vms[0]#vm-}-vs-${vms[1]#vm-}.${fmt/markdown/md}"
			done
		fi
		ins=()
		for w in "${vms[@]}" host; do [ -f "$s-$w.json" ] && ins+=("$s-$w.json"); done
		bl=()
		for b in $(baselines "$s"); do bl+=(--baseline "$b"); done
		# --reports-only over a directory without this study's results.
		if [ "${#ins[@]}" = 0 ]; then
			echo "studies.sh: $s: no result in $OUT: no comparisons, no plots" >&2
			exit 0
		fi
		# The study's question (configs/questions/NAME.json): the report's
		# verdict table and first figure.
		q=()
		[ ! -f "$REPO/configs/questions/$s.json" ] || q=(--question "$REPO/configs/questions/$s.json")
		"$SB" plot "${ins[@]}" "${bl[@]+"${bl[@]}"}" "${q[@]+"${q[@]}"}" --out "plots/$s"
	)
done
