#!/usr/bin/env bash
# dose-response.sh - the extension's effect against how often it fired:
# each point of a dose-response result (configs/dose-response.json),
# slice-spin over its dry control with its 95% interval (slicebench compare
# --within, baseline slice-dry) against the arm's grants per 1000
# acquisitions, one series per threads-per-PU and critical section, the
# extension length written beside each point.  gnuplot draws it.
#   scripts/dose-response.sh RESULT.json[.gz] OUT.svg
# Exit: 0 done, 2 bad input.
set -euo pipefail
cd "$(dirname "$0")/.."
SB=${SB:-build/slicebench}
[ $# -eq 2 ] || { echo "dose-response: usage: scripts/dose-response.sh RESULT.json OUT.svg; try 'scripts/dose-response.sh --help'" >&2; exit 2; }
case "$1" in -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ -f "$1" ] || { echo "dose-response: $1: no such file" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$SB" compare --within "$1" --baseline slice-dry -f json >"$tmp/c.json" 2>"$tmp/err" ||
	{ echo "dose-response: $(head -n 1 "$tmp/err")" >&2; exit 2; }
# one block per series (threads per PU, cs_ns), gnuplot's index
jq -r '[.rows[] | select(.b.workload == "slice-spin" and .b.label != "1x") |
	{s: "\(.b.label) cs \((.point | capture("cs_ns=(?<c>[0-9]+)").c))",
	 g: .b.grants_per_1000_ops, r: .ratio, lo: .ratio_ci95[0], hi: .ratio_ci95[1],
	 e: (.point | capture("slice_ext_nsec=(?<e>[0-9]+)").e | tonumber / 1000)}]
	| group_by(.s)[] | "# \(.[0].s)", (.[] | "\(.g) \(.r) \(.lo) \(.hi) \(.e)"), "", ""' \
	"$tmp/c.json" >"$tmp/d.dat"
titles=$(jq -r '[.rows[] | select(.b.workload == "slice-spin" and .b.label != "1x") |
	"\(.b.label) cs \((.point | capture("cs_ns=(?<c>[0-9]+)").c))"] | unique | join("|")' "$tmp/c.json")
[ -n "$titles" ] || { echo "dose-response: $1: no slice-spin row against slice-dry above 1x" >&2; exit 2; }
{
	echo "set terminal svg size 720,480 noenhanced font 'Sans,11' background rgb 'white'"
	echo "set output '$tmp/out.svg'"
	echo "set title 'slice-spin / slice-dry against how often the extension fired (labels: extension, us in the guest)'"
	echo "set xlabel 'grants per 1000 acquisitions (user-seen)'; set ylabel 'ratio, 95% interval'"
	echo "set logscale y; set yrange [0.4:5]; set key top left; set grid"
	echo "set arrow from graph 0, first 1 to graph 1, first 1 nohead dashtype 2"
	printf 'plot '
	i=0
	IFS='|' read -ra ts <<<"$titles"
	for t in "${ts[@]}"; do
		[ $i -eq 0 ] || printf ', '
		printf "'%s' index %d using 1:2:3:4 with yerrorbars pointtype %d title '%s', '' index %d using 1:2:(sprintf('%%g', \$5)) with labels offset 1.5,0.5 notitle" \
			"$tmp/d.dat" "$i" $((i + 5)) "$t" "$i"
		i=$((i + 1))
	done
	echo
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp" 2>"$tmp/gp.err" || { echo "dose-response: gnuplot: $(head -n 1 "$tmp/gp.err")" >&2; exit 1; }
mv "$tmp/out.svg" "$2"
echo "dose-response: $2"
