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
trap 'rm -f "$edits"' EXIT

# The other fresh boots of a study (scripts/studies.sh --boots) are in boots/.
for f in "$DIR"/*.json "$DIR"/boots/*.json; do
	case $f in "$DIR/boots/*.json") continue ;; esac
	[ -e "$f" ] || { echo "not ok findings: no result files in $DIR"; exit 1; }
	if out=$("$SB" validate "$f" 2>&1); then
		echo "ok findings: $out"
	else
		echo "not ok findings: $out"
		fails=$((fails + 1))
	fi
done

# One marker per line of output: "LINE<TAB>QUOTED<TAB>FILE<TAB>JQ<TAB>FMT".
markers=$(grep -n -o -P '[^\s(\[]*<!-- = .*? -->' "$FINDINGS" |
	sed -E 's/^([0-9]+):(.*)<!-- = (.*) :: (.*) :: (.*) -->$/\1\t\2\t\3\t\4\t\5/')
while IFS=$'\t' read -r line quoted file expr fmt; do
	[ -n "$line" ] || continue
	n=$((n + 1))
	where="${FINDINGS##*/}:$line"
	if [ ! -f "$DIR/$file" ]; then
		echo "not ok findings: $where: $file is not in ${DIR##*/}/"
		fails=$((fails + 1))
		continue
	fi
	if ! v=$(jq -e -r "$expr" "$DIR/$file" 2>&1); then
		echo "not ok findings: $where: jq '$expr' on $file: $v"
		fails=$((fails + 1))
		continue
	fi
	if [ "$(wc -l <<<"$v")" -ne 1 ]; then
		echo "not ok findings: $where: jq '$expr' on $file gives $(wc -l <<<"$v") values, not one"
		fails=$((fails + 1))
		continue
	fi
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
done <<<"$markers"
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
