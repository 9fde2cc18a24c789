#!/usr/bin/env bash
# bench.sh - what the harness itself costs: instrumentation overhead, the
# harness against a bare loop and the hardware floor, parity with
# `perf bench futex lock-pi`, scale in threads, and the suites' wall times.
#   harness/selfbench/bench.sh [--mode full|smoke] [--out-dir DIR] [--out FILE] [--runs N]
#                      [--only SECTION,...] [--min-share F]
#   harness/selfbench/bench.sh --table RESULT.json     (the table of an earlier run)
#   harness/selfbench/bench.sh --spread RESULT.json... (harness/bare across runs)
# Writes DIR/<utc>-<host>.json ({"schema": "slicebench/1", "kind": "bench"})
# and prints the table.  --runs N (make bench BENCH_RUNS=N) runs the whole
# bench N separate times, one document each, then writes
# DIR/<utc>-<host>-spread.json ("kind": "bench-spread") and prints each
# run's harness/bare ratio and their spread.  `make bench` runs it; `make
# check` runs the smoke mode, which only keeps this script from rotting:
# its numbers mean nothing.  Each section is a file of harness/selfbench/bench/;
# --only runs those named (overhead hvb placement floor parity switch probe
# drift scale suite), the machine's meta always.  --min-share: the CPU
# share of its window under which an arm's window drops its round
# (rounds.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

BUILD=${BUILD:-build}
SB=$BUILD/slicebench
BIN=$BUILD/selfbench
mode=full outdir=results/bench out="" only="" min_share=""
sections=(overhead hvb placement floor parity switch probe drift scale suite)

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }

# shellcheck source=harness/selfbench/bench/report.sh
. harness/selfbench/bench/report.sh
runs=1
while [ $# -gt 0 ]; do
	case "$1" in
	--mode) mode=${2:-}; shift 2 ;;
	--out-dir) outdir=${2:-}; shift 2 ;;
	--out) out=${2:-}; shift 2 ;;
	--runs) runs=${2:-}; shift 2 ;;
	--only) only=${2:-}; shift 2 ;;
	--min-share) min_share=${2:-}; shift 2 ;;
	--table) table "${2:?--table needs a file}"; exit 0 ;;
	--spread)
		shift
		[ $# -gt 0 ] || { echo "bench.sh: --spread needs result files" >&2; exit 2; }
		W=$(mktemp)
		spread_doc "$@" >"$W" && spread_table "$W"
		rm -f "$W"
		exit 0
		;;
	-h | --help) usage; exit 0 ;;
	*) echo "bench.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
case "$mode" in
full)
	# 7 alternating pairs: the t interval on 6 degrees of freedom is
	# 2.45 sigma/sqrt(7), tight enough to resolve 2% on this noisy VM.
	pairs=7 dur=1 warm=0.2 perf_s=1 sb_s=1
	parity=(shipped matched-1 matched slack1 nohalt)
	ovh_wl=(spin-tas futex adaptive slice-spin)
	hvb_wl=(spin-tas futex adaptive)
	# Sections 2 and 2b: 15 rotating rounds of 0.25 s windows.
	pr_rounds=15 pr_dur=0.25 pr_warm=0.05
	# placements=(): every one `slicebench list` names (below)
	pc_locks=(tas adaptive mcs) placements=()
	scale_n=(1 2 8 32 128 512)
	;;
smoke)
	pairs=2 dur=0.05 warm=0.02 perf_s=1 sb_s=0.3
	parity=(matched)
	ovh_wl=(spin-tas slice-spin)
	hvb_wl=(spin-tas)
	pr_rounds=2 pr_dur=0.05 pr_warm=0.02
	pc_locks=(tas) placements=(pre)
	scale_n=(1 2 8)
	;;
*) echo "bench.sh: --mode must be full or smoke" >&2; exit 2 ;;
esac
# Sections 2 and 2b: a round an arm hardly ran in is dropped and redone
# (rounds.sh says why 1%, and why 3 redos).
pr_min_share=${min_share:-0.01} pr_redo=3
[[ $pr_min_share =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
	{ echo "bench.sh: --min-share must be a number >= 0, not '$pr_min_share'" >&2; exit 2; }
for sec in ${only//,/ }; do
	[[ " ${sections[*]} " == *" $sec "* ]] ||
		{ echo "bench.sh: --only: no section '$sec' (${sections[*]})" >&2; exit 2; }
done
want() { [ -z "$only" ] || [[ ,$only, == *,$1,* ]]; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench.sh: --runs must be a positive integer, not '$runs'" >&2; exit 2; }
# N separate runs: each a bench of its own (its own processes, its own
# document), one after the other, then their spread.
if [ "$runs" -gt 1 ]; then
	[ -z "$out" ] || { echo "bench.sh: --out names one document; with --runs use --out-dir" >&2; exit 2; }
	stem=$outdir/$(date -u +%Y%m%dT%H%M%SZ)-$(uname -n)
	files=()
	for ((r = 1; r <= runs; r++)); do
		printf 'bench: run %d of %d\n' "$r" "$runs" >&2
		"$0" --mode "$mode" --out "$stem-run$r.json" --runs 1 --only "$only" --min-share "$pr_min_share"
		files+=("$stem-run$r.json")
	done
	spread_doc "${files[@]}" >"$stem-spread.json.tmp"
	mv "$stem-spread.json.tmp" "$stem-spread.json"
	spread_table "$stem-spread.json"
	echo "bench: $stem-spread.json" >&2
	exit 0
fi
for b in "$SB" "$BIN/bare" "$BIN/sleepcost" "$BIN/switchcost" "$BIN/ratio" "$BIN/writecost" "$BIN/driftcheck"; do
	[ -x "$b" ] || { echo "bench.sh: $b missing: run 'make bench'" >&2; exit 2; }
done
# The placements as `slicebench list` names the policies: all but the
# baseline (none) and the abusers, which never give a grant back.
if [ ${#placements[@]} -eq 0 ]; then
	mapfile -t placements < <("$SB" list |
		awk '/^policies /{p = 1; next} p && !NF {p = 0} p && $1 != "none" && $2 != "abuser:" {print $1}')
	[ ${#placements[@]} -gt 0 ] || { echo "bench.sh: slicebench list names no placement" >&2; exit 2; }
fi
# shellcheck source=harness/selfbench/bench/lib.sh
. harness/selfbench/bench/lib.sh
# shellcheck source=harness/selfbench/bench/rounds.sh
. harness/selfbench/bench/rounds.sh
bench_t0=$(date +%s.%N) busy0=$(cpu_s)

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
RES=$W/results.jsonl # one result object per line, assembled at the end
: >"$RES"
# Sections 2, 2b and 3 pin to the first PU the harness may use, and 2 and
# 2b run the one run object, harness/selfbench/configs/hvb.json, which loopsame.sh
# runs under callgrind too: the harness loop it names is the one bare.c runs.
cpu0=$("$SB" info --json | jq '.topology.allowed_cpus | if type == "array" then .[0]
	else (tostring | capture("^(?<n>[0-9]+)").n | tonumber) end')
hb=$(jq -c --argjson d "$pr_dur" --argjson w "$pr_warm" '. + {duration_s: $d, warmup_s: $w}' \
	harness/selfbench/configs/hvb.json)

# The sections, one file each, in this shell: they share the mode's
# settings above, the result list and what an earlier one measured (the
# floor divides section 2's ns per operation by its xadd, if it ran).
floor_locks="{}"
# shellcheck source=harness/selfbench/bench/overhead.sh
! want overhead || . harness/selfbench/bench/overhead.sh
# shellcheck source=harness/selfbench/bench/hvb.sh
! want hvb || . harness/selfbench/bench/hvb.sh
# shellcheck source=harness/selfbench/bench/placement.sh
! want placement || . harness/selfbench/bench/placement.sh
# shellcheck source=harness/selfbench/bench/floor.sh
! want floor || . harness/selfbench/bench/floor.sh
# shellcheck source=harness/selfbench/bench/parity.sh
! want parity || . harness/selfbench/bench/parity.sh
# shellcheck source=harness/selfbench/bench/switch.sh
! want switch || . harness/selfbench/bench/switch.sh
# shellcheck source=harness/selfbench/bench/probe.sh
! want probe || . harness/selfbench/bench/probe.sh
# shellcheck source=harness/selfbench/bench/drift.sh
! want drift || . harness/selfbench/bench/drift.sh
# shellcheck source=harness/selfbench/bench/scale.sh
! want scale || . harness/selfbench/bench/scale.sh
# shellcheck source=harness/selfbench/bench/suite.sh
! want suite || . harness/selfbench/bench/suite.sh
# shellcheck source=harness/selfbench/bench/machine.sh
. harness/selfbench/bench/machine.sh

# --- The document and the table -------------------------------------------
[ -n "$out" ] || out="$outdir/$(date -u +%Y%m%dT%H%M%SZ)-$(uname -n).json"
mkdir -p "$(dirname "$out")"
jq -n --slurpfile m "$W/meta.json" --slurpfile r <(jq -s . "$RES") --arg mode "$mode" --argjson mach "$machine" \
	--arg utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	'{schema: "slicebench/1", kind: "bench",
	  meta: ($m[0] + {utc: $utc, bench: {mode: $mode, command: "make bench BENCH_MODE=\($mode)", machine: $mach}}),
	  results: $r[0]}' >"$out.tmp"
mv "$out.tmp" "$out"
table "$out"
echo "bench: $out" >&2
