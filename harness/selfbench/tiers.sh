#!/usr/bin/env bash
# tiers.sh - `make bench-tiers`: how long each test tier takes here, RUNS
# separate times (a benchmark, not a test: the figures are the machine's).
#
#   harness/selfbench/tiers.sh [--runs N] [--tiers "check-quick check check-san"]
#                      [--out FILE.json]
#
# Each run is the tier's make target from its start (packages already
# installed, objects already built: what a developer re-running it pays),
# timed by the wall clock; its closing "N passed ..., N failed" line is
# kept beside the time.  The table goes to stdout; --out also writes the
# runs as JSON (jq), through a temp file renamed into place.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=3 TIERS="check-quick check check-san" OUT=""
die() { echo "tiers.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) [ $# -ge 2 ] || die "--runs needs a value"; RUNS=$2; shift 2 ;;
	--tiers) [ $# -ge 2 ] || die "--tiers needs a value"; TIERS=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || die "--out needs a value"; OUT=$2; shift 2 ;;
	*) die "unknown option '$1' (--runs N, --tiers LIST, --out FILE)" ;;
	esac
done
[[ "$RUNS" =~ ^[1-9][0-9]?$ ]] || die "--runs: '$RUNS' is not 1..99"
for t in $TIERS; do
	case "$t" in check-quick | check | check-san | check-all) ;;
	*) die "--tiers: '$t' is not one of check-quick, check, check-san, check-all" ;;
	esac
done
command -v jq >/dev/null || die "jq is not installed (scripts/install-deps.sh run)"

rows=$(mktemp)
log=$(mktemp)
trap 'rm -f "$rows" "$log"' EXIT
printf '| tier | run | seconds | closing line |\n|---|--:|--:|---|\n'
for t in $TIERS; do
	for i in $(seq 1 "$RUNS"); do
		t0=$(date +%s.%N)
		rc=0
		make --no-print-directory "$t" >"$log" 2>&1 || rc=$?
		s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
		last=$(grep -E '^[0-9]+ passed' "$log" | tail -n 1)
		printf '| %s | %d | %s | %s%s |\n' "$t" "$i" "$s" "${last:-no closing line}" \
			"$([ "$rc" = 0 ] || echo " (exit $rc)")"
		jq -nc --arg tier "$t" --argjson run "$i" --argjson s "$s" --arg line "$last" \
			--argjson rc "$rc" '{tier: $tier, run: $run, seconds: $s, closing: $line, exit: $rc}' >>"$rows"
	done
done
if [ -n "$OUT" ]; then
	[ ! -e "$OUT" ] || [ -f "$OUT" ] || die "--out: '$OUT' exists and is not a regular file"
	tmp=$(mktemp "$(dirname "$OUT")/.tiers.XXXXXX")
	jq -s --arg host "$(uname -n)" --arg kernel "$(uname -r)" --argjson cpus "$(nproc)" \
		'{kind: "tiers", meta: {host: $host, kernel: $kernel, cpus: $cpus}, runs: .}' "$rows" >"$tmp"
	mv -f "$tmp" "$OUT"
fi
