#!/usr/bin/env bash
# run.sh - the entry point.
#   ./run.sh [--config FILE] [--out FILE.json] [--quiet] [--no-plot]
#   ./run.sh --vm [--config FILE] [--out FILE.json] [vm options, see scripts/vm.sh --help]
#   ./run.sh --replicate [--vm] [--configs DIR] [--out DIR]   published numbers beside yours
#   ./run.sh --slurm PLAN.json [--partition P] [--resume] [--no-wait] [--results DIR]
#   ./run.sh --local PLAN.json [--resume] | --status PLAN.json
# Installs missing Debian packages when root, builds if needed, runs the
# suite (configs/quick.json by default), writes results/<utc>-<host>-<kernel>.json,
# prints the table and renders plots/<run>/.
set -euo pipefail
cd "$(dirname "$0")"

usage() {
	sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
}

# A mistake in the options: one line and where to read more, not the help.
misuse() {
	echo "run.sh: $*" >&2
	echo "try './run.sh --help'" >&2
	exit 2
}

# value OPTION ARGS...: OPTION must have a value (set -u would otherwise
# stop with "$2: unbound variable").
value() {
	if [ $# -lt 2 ]; then
		misuse "$1 needs a value"
	fi
}

# A host run whose slice rows were unsupported ends with the two ways to
# a kernel that has the extension; the table's first line gave the reason,
# which --quiet left out.
ways_forward() {
	local why
	why=$(jq -r '[.results[] | select(.status == "unsupported" and .params.policy != "none"
		and .params.policy != null and .params.dry != true) | .reason][0] // empty' "$1")
	[ -n "$why" ] || return 0
	[ -z "$quiet" ] || echo "slice extension: did not run: $why" >&2
	echo "the slice workloads need a kernel with the extension:" >&2
	echo "  way 1, the guest with the patched kernel:  ./run.sh --vm --config $2" >&2
	echo "  way 2, a kernel for this machine: docs/bare-metal.md, then ./run.sh --config $2 (build/slicebench info lists what else is missing)" >&2
}

mode=host config=configs/quick.json out="" quiet="" plot=1 replicate=0 rconfigs=configs/replicate
pass=()
while [ $# -gt 0 ]; do
	case "$1" in
	--config) value "$@"; config=$2; shift 2 ;;
	--out) value "$@"; out=$2; shift 2 ;;
	--quiet) quiet=--quiet; shift ;;
	--no-plot) plot=0; shift ;;
	--vm) mode=vm; shift ;;
	--replicate) replicate=1; shift ;;
	--configs) value "$@"; rconfigs=$2; shift 2 ;;
	--slurm | --local | --status) value "$@"; mode=${1#--}; pass+=("$2"); shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*)
		if [ "$mode" = host ]; then
			misuse "unknown option '$1'"
		fi
		pass+=("$1"); shift ;;
	esac
done

# --replicate's --out is a directory, made before the dependencies and
# the build: a file there ended in mkdir's own error after them
if [ "$replicate" = 1 ] && [ -n "$out" ]; then
	if [ -e "$out" ] && [ ! -d "$out" ]; then
		echo "run.sh: --out $out: exists and is not a directory (--replicate writes a result per config into it)" >&2
		exit 2
	fi
	if ! err=$(mkdir -p -- "$out" 2>&1); then
		echo "run.sh: --out $out: cannot create the directory: ${err##*: }" >&2
		exit 2
	fi
fi
case "$mode" in
vm) scripts/install-deps.sh vm ;;
*) scripts/install-deps.sh run ;;
esac
# The build says where it is, one line per object (a first build compiles
# about 100 files), and passes warnings and errors through as they come.
if ! make -q --no-print-directory all >/dev/null 2>&1; then
	echo "run.sh: building build/slicebench" >&2
	make --no-print-directory all 2>&1 | awk '
		/^(cc|clang) / { for (i = 1; i <= NF; i++) if ($i == "-o") { n++; printf "  [%d] %s\n", n, $(i + 1); fflush(); next } }
		{ print; fflush() }' >&2
fi

stamp=$(date -u +%Y%m%dT%H%M%SZ)
# --replicate: every config of the replication kit into one directory (a
# config that fails leaves its targets "not measured"), then the report.
if [ "$replicate" = 1 ]; then
	case "$mode" in host | vm) ;; *) echo "run.sh: --replicate runs on the host or with --vm" >&2; exit 2 ;; esac
	[ -n "$out" ] || out="results/replicate-${stamp}-$(uname -n)-$mode"
	mkdir -p "$out"
	for c in "$rconfigs"/*.json; do
		[ "$(basename "$c")" != targets.json ] || continue
		r="$out/$(basename "$c")"
		echo "replicate: $c" >&2
		if [ "$mode" = vm ]; then
			scripts/vm.sh --config "$c" --out "$r" $quiet "${pass[@]}" || echo "replicate: $c failed" >&2
		else
			build/slicebench run --config "$c" --out "$r" $quiet || echo "replicate: $c failed" >&2
		fi
	done
	exec scripts/replicate.sh --targets "$rconfigs/targets.json" --results "$out"
fi
case "$mode" in
host)
	if [ -z "$out" ]; then
		# slicebench's own default naming: -2, -3... for a second run
		# started in the same second (its write is create-or-fail).
		base="results/${stamp}-$(uname -n)-$(uname -r)" n=1
		out="$base.json"
		while [ -e "$out" ] || [ -L "$out" ]; do
			n=$((n + 1))
			out="$base-$n.json"
		done
	fi
	build/slicebench run --config "$config" --out "$out" $quiet
	ways_forward "$out" "$config"
	;;
vm)
	[ -n "$out" ] || out="results/${stamp}-$(uname -n)-vm.json"
	scripts/vm.sh --config "$config" --out "$out" $quiet "${pass[@]}"
	;;
slurm | local | status)
	exec scripts/slurm.sh "--$mode" "${pass[@]}"
	;;
esac

# The report; the figures a short suite has no data for are listed in it,
# not here.  Its answer is the config's question where one has it
# (configs/questions/quick.json: each slice workload against its dry
# control), then each workload against spin-tas.
if [ "$plot" = 1 ] && build/slicebench plot --help >/dev/null 2>&1; then
	name=$(basename "$out" .json)
	question=()
	q="configs/questions/$(basename "$config")"
	[ ! -f "$q" ] || question=(--question "$q")
	err=$(mktemp)
	if build/slicebench plot "$out" "${question[@]}" --baseline spin-tas --out "plots/$name" 2>"$err"; then
		echo "plots: plots/$name/index.html" >&2
	else
		cat "$err" >&2
	fi
	rm -f "$err"
fi
