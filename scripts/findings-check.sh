#!/bin/bash
# Recheck FINDINGS.md against the committed reference results.
#
# Every number FINDINGS.md quotes from a result carries its source right
# after it, as an HTML comment (invisible when rendered):
#
#   +4.2%<!-- = rostedt-2023-vm.json :: JQ-EXPRESSION :: PRINTF-FORMAT -->
#
# The check evaluates the jq expression on that file (in the reference
# directory), formats the value with the printf format and requires the
# text right before the comment (up to the previous blank, "(" or "[") to
# be exactly that.  It first validates every result file of the directory
# with `slicebench validate`.  Output: one ok / not ok line per check.
#
# After a rerun, `--update` writes each recomputed value in place of the
# quoted one (the comment stays) and prints every change: the prose
# around the numbers is then the author's to reread.
#   scripts/findings-check.sh [--update] [FINDINGS.md [RESULT-DIR]]
set -uo pipefail

update=0
[ "${1:-}" != --update ] || { update=1; shift; }
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FINDINGS=${1:-$REPO/FINDINGS.md}
DIR=${2:-$REPO/results/reference}
SB=${SB:-$REPO/build/slicebench}
fails=0 n=0
edits=$(mktemp)

# The other fresh boots of a study (scripts/studies.sh --boots) are in boots/.
# A reference result is stored as NAME.json.gz; a marker names NAME.json.
shopt -s nullglob
results=("$DIR"/*.json "$DIR"/*.json.gz "$DIR"/boots/*.json "$DIR"/boots/*.json.gz)
shopt -u nullglob
[ "${#results[@]}" -gt 0 ] || { echo "not ok findings: no result files in $DIR"; exit 1; }
for f in "${results[@]}"; do
	if out=$("$SB" validate "$f" 2>&1); then
		echo "ok findings: $out"
	else
		echo "not ok findings: $out"
		fails=$((fails + 1))
	fi
done

# One marker per line: "INDEX<TAB>LINE<TAB>QUOTED<TAB>FILE<TAB>JQ<TAB>FMT".
markers=$(mktemp)
trap 'rm -f "$edits" "$markers" "$markers".*' EXIT
grep -n -o -P '[^\s(\[]*<!-- = .*? -->' "$FINDINGS" |
	sed -E 's/^([0-9]+):(.*)<!-- = (.*) :: (.*) :: (.*) -->$/\1\t\2\t\3\t\4\t\5/' |
	awk -F'\t' 'NF == 5 { print NR "\t" $0 }' >"$markers"
n=$(wc -l <"$markers")

# Each file is read by one jq, which evaluates all of its markers: m(EXPR)
# gives {v: the one value as jq -r prints it}, or why there is none.  A
# program that does not compile (one bad expression) falls back to one jq
# per marker, so the bad one is named.
# shellcheck disable=SC2016 # jq's
JQDEF='def m(f): try ([f] | if length != 1 then "n\t\(length)"
	elif .[0] == null or .[0] == false then "e\t\(.[0] | tojson)"
	else (.[0] | if type == "string" then . else tojson end) as $v |
		if ($v | contains("\n")) then "n\t\($v | split("\n") | length)" else "v\t\($v)" end end)
	catch "e\t\(. | tostring | gsub("[\t\n]"; " "))";'
cut -f4 "$markers" | sort -u | while IFS= read -r file; do
	awk -F'\t' -v f="$file" '$4 == f' "$markers" >"$markers.one"
	path=$DIR/$file
	[ -f "$path" ] || path=$path.gz
	if [ ! -f "$path" ]; then
		while IFS=$'\t' read -r i _; do printf '%s\tx\t\n' "$i"; done <"$markers.one"
		continue
	fi
	prog=$JQDEF$(cut -f5 "$markers.one" | sed 's/^/m(/; s/$/),/' | tr '\n' ' ')
	prog=${prog%, }
	# a gzipped result is read as it is stored
	if gzip -cdf "$path" | jq -r "$prog" >"$markers.out" 2>/dev/null &&
		[ "$(wc -l <"$markers.out")" = "$(wc -l <"$markers.one")" ]; then
		paste <(cut -f1 "$markers.one") "$markers.out"
	else
		while IFS=$'\t' read -r i _ _ _ expr _; do
			if r=$(gzip -cdf "$path" | jq -r "${JQDEF}m($expr)" 2>&1); then
				printf '%s\t%s\n' "$i" "$r"
			else
				printf '%s\te\t%s\n' "$i" "$(tr '\n\t' '  ' <<<"$r")"
			fi
		done <"$markers.one"
	fi
done | sort -n -k1,1 >"$markers.val"

while IFS=$'\t' read -r _ line quoted file expr fmt <&3 && IFS=$'\t' read -r _ kind v <&4; do
	where="${FINDINGS##*/}:$line"
	case "$kind" in
	x)
		echo "not ok findings: $where: $file is not in ${DIR##*/}/"
		fails=$((fails + 1))
		continue ;;
	n)
		echo "not ok findings: $where: jq '$expr' on $file gives $v values, not one"
		fails=$((fails + 1))
		continue ;;
	v) ;;
	*)
		echo "not ok findings: $where: jq '$expr' on $file: $v"
		fails=$((fails + 1))
		continue ;;
	esac
	# shellcheck disable=SC2059 # the format is the marker's
	if ! want=$(printf "$fmt" "$v" 2>&1); then
		echo "not ok findings: $where: format '$fmt' does not take '$v' ($file $expr)"
		fails=$((fails + 1))
		continue
	fi
	if [ "$quoted" = "$want" ]; then
		echo "ok findings: $where: $quoted = $file $expr"
	elif [ "$update" = 1 ]; then
		echo "updated findings: $where: '$quoted' -> '$want' ($file $expr)"
		printf '%s\t%s\t%s\t%s\n' "$line" "$quoted" "$want" "$file :: $expr :: $fmt" >>"$edits"
	else
		echo "not ok findings: $where: FINDINGS.md says '$quoted', $file gives '$want' ($expr)"
		fails=$((fails + 1))
	fi
done 3<"$markers" 4<"$markers.val"
if [ -s "$edits" ]; then
	# Line by line, the quoted value right before its own comment only.
	tmp=$(mktemp "$FINDINGS.XXXXXX")
	EDITS=$edits perl -ne '
		BEGIN { open(my $e, "<", $ENV{EDITS}) or die "$ENV{EDITS}: $!";
			while (<$e>) { chomp; my ($l, $q, $w, $m) = split /\t/, $_, 4;
				push @{$ed{$l}}, [$q, $w, $m]; } }
		for my $x (@{$ed{$.} || []}) {
			my ($q, $w, $m) = @$x;
			s/(^|[\s(\[])\Q$q<!-- = $m -->\E/$1$w<!-- = $m -->/g;
		}
		print;' "$FINDINGS" >"$tmp" && mv "$tmp" "$FINDINGS"
fi
if [ "$n" -eq 0 ]; then
	echo "not ok findings: no sourced numbers in ${FINDINGS##*/}"
	fails=$((fails + 1))
fi
[ "$fails" -eq 0 ]
