#!/bin/bash
# Recheck FINDINGS.md and its study pages (docs/findings/*.md) against the
# committed reference results.
#
# Every number the pages quote from a result carries a short source id
# right after it, as an HTML comment (invisible when rendered):
#
#   +4.2%<!--s17-->
#
# and docs/findings/sources.tsv resolves the id: the result file (in the
# reference directory; NAME.json is read as NAME.json.gz where only that
# is stored), a jq expression and a printf format.  The check evaluates the
# expression on that file, formats the value and requires the text right
# before the comment (up to the previous blank, "(" or "[") to be exactly
# that.  It first validates every result file of the directory with
# `slicebench validate`, and every id of the table must be cited.  Output:
# one ok / not ok line per check.
#
# After a rerun, `--update` writes each recomputed value in place of the
# quoted one (the comment stays) and prints every change: the prose
# around the numbers is then the author's to reread.
#   scripts/findings-check.sh [--update] [--sources TSV] [PAGE.md ...] [RESULT-DIR]
# Without pages: FINDINGS.md and docs/findings/*.md, and every id cited.
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
update=0 SOURCES=$REPO/docs/findings/sources.tsv DIR=$REPO/results/reference
pages=()
while [ $# -gt 0 ]; do
	case "$1" in
	--update) update=1; shift ;;
	--sources) SOURCES=${2:?--sources needs a file}; shift 2 ;;
	*) if [ -d "$1" ]; then DIR=$1; else pages+=("$1"); fi; shift ;;
	esac
done
all=0
if [ "${#pages[@]}" -eq 0 ]; then
	pages=("$REPO/FINDINGS.md" "$REPO"/docs/findings/*.md)
	all=1
fi
SB=${SB:-$REPO/build/slicebench}
fails=0
edits=$(mktemp)
markers=$(mktemp)
trap 'rm -f "$edits" "$markers" "$markers".*' EXIT
[ -f "$SOURCES" ] || { echo "not ok findings: no source table $SOURCES"; exit 1; }

# The other fresh boots of a study (scripts/studies.sh --boots) are in boots/.
# A reference result is stored as NAME.json.gz; a source names NAME.json.
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

# One cited number per line: "INDEX<TAB>PAGE<TAB>LINE<TAB>QUOTED<TAB>ID",
# then joined with the table: "... FILE<TAB>JQ<TAB>FMT" ("?" FILE: an
# id the table does not have).
for p in "${pages[@]}"; do
	grep -n -o -P '[^\s(\[]*<!--s[0-9]+-->' "$p" |
		sed -E "s|^([0-9]+):(.*)<!--(s[0-9]+)-->\$|${p//|/\\|}\t\1\t\2\t\3|"
done | awk -F'\t' -v OFS='\t' 'NR == FNR { if ($1 !~ /^#/) { f[$1] = $2; j[$1] = $3; m[$1] = $4 } next }
	{ print FNR, $1, $2, $3, $4, ($4 in f ? f[$4] : "?"), j[$4], m[$4] }' "$SOURCES" - >"$markers"
n=$(wc -l <"$markers")

# Each file is read by one jq, which evaluates all of its numbers: m(EXPR)
# gives "v<TAB>the one value as jq -r prints it", or why there is none.
# A program that does not compile (one bad expression) falls back to one
# jq per number, so the bad one is named.
# shellcheck disable=SC2016 # jq's
JQDEF='def m(f): try ([f] | if length != 1 then "n\t\(length)"
	elif .[0] == null or .[0] == false then "e\t\(.[0] | tojson)"
	else (.[0] | if type == "string" then . else tojson end) as $v |
		if ($v | contains("\n")) then "n\t\($v | split("\n") | length)" else "v\t\($v)" end end)
	catch "e\t\(. | tostring | gsub("[\t\n]"; " "))";'
cut -f6 "$markers" | sort -u | while IFS= read -r file; do
	awk -F'\t' -v f="$file" '$6 == f' "$markers" >"$markers.one"
	path=$DIR/$file
	[ -f "$path" ] || path=$path.gz
	if [ "$file" = "?" ]; then
		while IFS=$'\t' read -r i _; do printf '%s\tu\t\n' "$i"; done <"$markers.one"
		continue
	fi
	if [ ! -f "$path" ]; then
		while IFS=$'\t' read -r i _; do printf '%s\tx\t\n' "$i"; done <"$markers.one"
		continue
	fi
	prog=$JQDEF$(cut -f7 "$markers.one" | sed 's/^/m(/; s/$/),/' | tr '\n' ' ')
	prog=${prog%, }
	# a gzipped result is read as it is stored
	if gzip -cdf "$path" | jq -r "$prog" >"$markers.out" 2>/dev/null &&
		[ "$(wc -l <"$markers.out")" = "$(wc -l <"$markers.one")" ]; then
		paste <(cut -f1 "$markers.one") "$markers.out"
	else
		while IFS=$'\t' read -r i _ _ _ _ _ expr _; do
			if r=$(gzip -cdf "$path" | jq -r "${JQDEF}m($expr)" 2>&1); then
				printf '%s\t%s\n' "$i" "$r"
			else
				printf '%s\te\t%s\n' "$i" "$(tr '\n\t' '  ' <<<"$r")"
			fi
		done <"$markers.one"
	fi
done | sort -n -k1,1 >"$markers.val"

while IFS=$'\t' read -r _ page line quoted id file expr fmt <&3 && IFS=$'\t' read -r _ kind v <&4; do
	where="${page##*/}:$line"
	case "$kind" in
	u)
		echo "not ok findings: $where: $id is not in ${SOURCES##*/}"
		fails=$((fails + 1))
		continue ;;
	x)
		echo "not ok findings: $where: $file is not in ${DIR##*/}/ ($id)"
		fails=$((fails + 1))
		continue ;;
	n)
		echo "not ok findings: $where: jq '$expr' on $file gives $v values, not one ($id)"
		fails=$((fails + 1))
		continue ;;
	v) ;;
	*)
		echo "not ok findings: $where: jq '$expr' on $file: $v ($id)"
		fails=$((fails + 1))
		continue ;;
	esac
	# shellcheck disable=SC2059 # the format is the source's
	if ! want=$(printf "$fmt" "$v" 2>&1); then
		echo "not ok findings: $where: format '$fmt' does not take '$v' ($id: $file $expr)"
		fails=$((fails + 1))
		continue
	fi
	if [ "$quoted" = "$want" ]; then
		echo "ok findings: $where: $quoted = $id: $file $expr"
	elif [ "$update" = 1 ]; then
		echo "updated findings: $where: '$quoted' -> '$want' ($id: $file $expr)"
		printf '%s\t%s\t%s\t%s\t%s\n' "$page" "$line" "$quoted" "$want" "$id" >>"$edits"
	else
		echo "not ok findings: $where: the page says '$quoted', $file gives '$want' ($id: $expr)"
		fails=$((fails + 1))
	fi
done 3<"$markers" 4<"$markers.val"

# Every id of the table is cited somewhere (checked over all the pages).
if [ "$all" = 1 ]; then
	for id in $(grep -v '^#' "$SOURCES" | cut -f1 | sort | comm -23 - <(cut -f5 "$markers" | sort -u)); do
		echo "not ok findings: ${SOURCES##*/}: $id is cited by no page"
		fails=$((fails + 1))
	done
fi

if [ -s "$edits" ]; then
	# Page by page, line by line, the quoted value right before its own id.
	for p in $(cut -f1 "$edits" | sort -u); do
		tmp=$(mktemp "$p.XXXXXX")
		PAGE=$p EDITS=$edits perl -ne '
			BEGIN { open(my $e, "<", $ENV{EDITS}) or die "$ENV{EDITS}: $!";
				while (<$e>) { chomp; my ($p, $l, $q, $w, $id) = split /\t/, $_, 5;
					push @{$ed{$l}}, [$q, $w, $id] if $p eq $ENV{PAGE}; } }
			for my $x (@{$ed{$.} || []}) {
				my ($q, $w, $id) = @$x;
				s/(^|[\s(\[])\Q$q<!--$id-->\E/$1$w<!--$id-->/g;
			}
			print;' "$p" >"$tmp" && mv "$tmp" "$p"
	done
fi
if [ "$n" -eq 0 ]; then
	echo "not ok findings: no sourced numbers in ${pages[*]##*/}"
	fails=$((fails + 1))
fi
[ "$fails" -eq 0 ]
