#!/usr/bin/env bash
# replicate.sh - the published numbers beside this machine's.
#   scripts/replicate.sh --results DIR [--targets FILE] [--out DIR]
# Reads the targets file (default configs/replicate/targets.json) and, per
# target, DIR/<config>.json (a result of configs/replicate/<config>.json).
# A ratio target's row comes from `slicebench compare --within RESULT
# --baseline CONTROL --format json`, CONTROL the target's "control" (the
# arm's dry control: a claim about the grants is judged against the same
# loop without them) or, for a claim about the request's cost ("about":
# "cost"), its published "baseline".  Its ratio, interval, MDE, equivalence
# test, A/A check and grant rate go to `slicebench verdict`, the one
# function every verdict on a published claim comes from
# (harness/report/claim.h has the rules): reproduced, contradicted, cannot
# tell (with its reason: no figure, not measured, control, mechanism,
# power, no interval) or not comparable (a different experiment: a thread
# count this machine oversubscribes where the source did not, a load per
# PU beyond load_tolerance_pct of the published one, or a preemption model
# the target requires).  Nothing is recomputed here.
# Writes OUT/replicate.txt, OUT/replicate.json and OUT/index.html with one
# gnuplot figure per target (OUT defaults to DIR/replicate).
# Exit: 0 done, 2 bad input (the file and key named).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=configs/replicate/targets.json results="" out=""
SB=${SB:-build/slicebench}
usage() { sed -n '2,3p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "replicate: $*" >&2; exit 2; }
# a mistake in the options: one line and where to read more, not the help
misuse() { echo "replicate: $*" >&2; echo "try 'scripts/replicate.sh --help'" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--targets | --results | --out)
		[ $# -ge 2 ] || misuse "$1 needs a value"
		[ -n "$2" ] || misuse "$1: an empty value"
		declare "${1#--}=$2"
		shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) misuse "unknown option '$1'" ;;
	esac
done
[ -n "$results" ] || misuse "--results DIR is required"
[ -d "$results" ] || die "$results: not a directory"
[ -f "$targets" ] || die "$targets: not a regular file"
[ -r "$targets" ] || die "$targets: cannot read"
[ -n "$out" ] || out="$results/replicate"
# before any work: the report is a directory of files
if [ -e "$out" ] && [ ! -d "$out" ]; then die "--out $out: exists and is not a directory"; fi

# Validate the targets file: the first bad key, named with its path.
err=$(jq -r --arg f "$targets" '
  def bad($p; $m): "\($f): \($p): \($m)";
  def num_or_null: type == "number" or type == "null";
  if type != "object" then bad("."; "must be an object")
  elif (.sources | type) != "object" then bad("sources"; "must be an object")
  elif (.targets | type) != "array" or (.targets | length) == 0 then bad("targets"; "must be a non-empty array")
  elif (.load_tolerance_pct | type) != "number" or .load_tolerance_pct < 0 then bad("load_tolerance_pct"; "\(.load_tolerance_pct | tojson) is not a number >= 0")
  else . as $d
  # the first index of each id, once: a scan of the targets before each one was
  # quadratic (5000 targets: 15 s)
  | (reduce (.targets | to_entries[] | select(.value.id? | type == "string")) as $e
      ({}; if has($e.value.id) then . else .[$e.value.id] = $e.key end)) as $first
  | [.targets | to_entries[] | .key as $i | .value as $t | "targets[\($i)]" as $p |
    # the keys scripts/replicate.jq reads: a misspelt one was ignored
    ["about", "arm", "baseline", "conditions", "config", "control", "count_path", "id", "kind", "metric", "path", "per",
     "published", "source", "threads_per_pu", "unit", "workload"] as $known |
    def count_or_null: . == null or (type == "number" and . > 0);
    if ($t | type) != "object" then bad($p; "must be an object")
    elif ($t | keys - $known | length) > 0 then bad("\($p).\($t | keys - $known | .[0])"; "unknown key (known: \($known | join(", ")))")
    elif ($t.id | type) != "string" then bad("\($p).id"; "must be a string")
    # an id names the figure files and is quoted in gnuplot commands
    elif ($t.id | test("^[A-Za-z0-9_-][A-Za-z0-9._-]*$") | not) then bad("\($p).id"; "\($t.id | tojson): only letters, digits, \".\", \"_\" and \"-\", not first \".\"")
    # and names files: NAME_MAX leaves room for the suffixes
    elif ($t.id | length) > 100 then bad("\($p).id"; "\($t.id[:32] | tojson)... is \($t.id | length) characters long, at most 100")
    elif $first[$t.id] != $i then bad("\($p).id"; "\($t.id | tojson) is already targets[\($first[$t.id])]")
    elif ($t.conditions.threads? | count_or_null | not) then bad("\($p).conditions.threads"; "\($t.conditions.threads | tojson) is not a number > 0 or null")
    elif ($t.conditions.cpus? | count_or_null | not) then bad("\($p).conditions.cpus"; "\($t.conditions.cpus | tojson) is not a number > 0 or null")
    elif ($t.threads_per_pu | count_or_null | not) then bad("\($p).threads_per_pu"; "\($t.threads_per_pu | tojson) is not a number > 0 or null")
    elif ($d.sources[$t.source?] | type) != "object" then bad("\($p).source"; "\($t.source | tojson) is not a key of sources")
    elif ($t.config | type) != "string" or ($t.config | test("^[a-z0-9-]+$") | not) then bad("\($p).config"; "\($t.config | tojson) is not a config name")
    elif ($t.conditions | type) != "object" then bad("\($p).conditions"; "must be an object")
    elif $t.kind == "ratio" then
      if ([$t.metric, $t.arm, $t.baseline] | map(type == "string") | all | not) then bad($p; "a ratio target needs metric, arm and baseline strings")
      elif ($t.published.ratio | num_or_null | not) or (($t.published.ratio // 1) <= 0) then bad("\($p).published.ratio"; "\($t.published.ratio | tojson) is not a positive number or null")
      else empty end
    elif $t.kind == "value" then
      if ([$t.workload, $t.path] | map(type == "string") | all | not) then bad($p; "a value target needs workload and path strings")
      elif ($t.published.value | num_or_null | not) then bad("\($p).published.value"; "\($t.published.value | tojson) is not a number or null")
      else empty end
    else bad("\($p).kind"; "\($t.kind | tojson) is not ratio or value") end][0] // empty
  end' "$targets" 2>&1) || die "$targets: $err"
[ -z "$err" ] || die "${err#replicate: }"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One compare per config, baseline and metric; the results' meta and the
# value targets' numbers.
echo '{}' >"$tmp/cmp.json"
echo '{}' >"$tmp/res.json"
while IFS=$'\t' read -r cfg base metric; do
	r="$results/$cfg.json"
	[ -f "$r" ] || continue
	# the checks every reader makes: a broken result is named, not
	# turned into "not measured here"
	"$SB" validate "$r" >/dev/null 2>"$tmp/verr" || die "$(grep -v '^slicebench validate: [0-9]* valid' "$tmp/verr" | head -n 1)"
	jq --arg c "$cfg" --slurpfile r "$r" '.[$c] = ($r[0] | {meta, results: [.results[] | {workload, status, reason, nthreads, summary: (.summary | {slice} // null)}]})' \
		"$tmp/res.json" >"$tmp/x" && mv "$tmp/x" "$tmp/res.json"
	[ -n "$base" ] || continue
	if "$SB" compare --within "$r" --baseline "$base" -m "$metric" -f json >"$tmp/c" 2>"$tmp/cerr"; then
		jq --arg k "$cfg|$base|$metric" --slurpfile c "$tmp/c" '.[$k] = $c[0]' "$tmp/cmp.json" >"$tmp/x"
	else
		jq --arg k "$cfg|$base|$metric" --rawfile e "$tmp/cerr" '.[$k] = {error: $e}' "$tmp/cmp.json" >"$tmp/x"
	fi
	mv "$tmp/x" "$tmp/cmp.json"
done < <(jq -r '.targets[] | [.config, (.control // .baseline // ""), (.metric // "")] | @tsv' "$targets" | sort -u)

jq -n --slurpfile T "$targets" --slurpfile C "$tmp/cmp.json" --slurpfile R "$tmp/res.json" \
	-f scripts/replicate.jq >"$tmp/in.json"
# Each target's verdict from the one function (harness/report/claim.c).
jq '[.rows[].claim_in]' "$tmp/in.json" | "$SB" verdict >"$tmp/v.json" ||
	die "slicebench verdict refused the claims (above)"
jq --slurpfile v "$tmp/v.json" '.rows |= [to_entries[] | (.value | del(.claim_in)) + $v[0][.key]]' \
	"$tmp/in.json" >"$tmp/replicate.json"

# The text table.
jq -r '
  def f: if . == null then "-" elif type == "number" then (. * 1000 | round / 1000 | tostring) else tostring end;
  def ours: if .ours == null then "-"
    elif .kind == "value" then (.ours.value | f)
    else "x\(.ours.ratio | f) [\(.ours.ci95[0] | f), \(.ours.ci95[1] | f)] at \(.ours.threads) threads" end;
  def pub: if .kind == "value" then (.published.value | f) else "x\(.published.ratio | f)" end + " (\(.published.as_published))";
  "published numbers beside this machine'"'"'s (targets: \(.sources | keys | join(", ")))",
  (([.rows[] | select(.machine)][0].machine // {}) | "machine: \(.pus // "?") PUs, \(.cpu // "?"), kernel \(.kernel // "?"), preemption \(.model // "?"), virtualization \(.virtualization // "?"), slice extension \(if .slice_extension then "available" else "unavailable" end)"),
  "",
  (.rows[] | "\(.id)  \(.verdict | ascii_upcase)",
    "  published  \(pub)",
    "  here       \(ours)\(if .ours.mde then "  MDE x\(.ours.mde | f)" else "" end)",
    "  why        \(.why)",
    (.differs[] | "  differs    \(.)"))' "$tmp/replicate.json" >"$tmp/replicate.txt"

# One figure per target: the published value beside ours with its
# interval, on a log axis around 1 for ratios (harness/report/gnuplot.c's
# terminals).  One gnuplot draws them all (a process per figure took 0.1 s
# a target); when it fails, each figure is drawn alone to name the ones
# that fail.
mkdir -p "$tmp/fig"
terms=("pngcairo size 480,320 noenhanced font 'Sans,10'|png"
	"svg size 480,320 noenhanced font 'Sans,10' background rgb 'white'|svg")
draw() { # draw ID: the gnuplot commands of its two images
	local t
	for t in "${terms[@]}"; do
		printf "reset\nset terminal %s\nset output '%s.%s'\nload '%s.gp'\nunset output\n" \
			"${t%|*}" "$1" "${t#*|}" "$1"
	done
}
ids=()
while IFS=$'\t' read -r id kind pub val lo hi; do
	if [ -z "$pub$val" ]; then
		echo "# no figure: neither a published nor a measured value" >"$tmp/fig/$id.dat"
		continue
	fi
	printf '# what | value | lo | hi\n1 published %s %s %s\n2 here %s %s %s\n' \
		"${pub:-NaN}" "${pub:-NaN}" "${pub:-NaN}" "${val:-NaN}" "${lo:-${val:-NaN}}" "${hi:-${val:-NaN}}" \
		>"$tmp/fig/$id.dat"
	{
		echo "set title '$id'; set xrange [0.5:2.5]; set xtics ('published' 1, 'here' 2)"
		if [ "$kind" = ratio ]; then
			echo "set logscale y; set ylabel 'arm / baseline'"
			echo "set arrow from 0.5,1 to 2.5,1 nohead dashtype 2"
		fi
		echo "plot '$id.dat' using 1:3:4:5 with yerrorbars pointtype 7 pointsize 1.5 notitle"
	} >"$tmp/fig/$id.gp"
	ids+=("$id")
	draw "$id" >>"$tmp/fig/all.gp"
done < <(jq -r '.rows[] | [.id, .kind, (.published.ratio // .published.value // ""),
	(.ours.ratio // .ours.value // ""), (.ours.ci95[0]? // ""), (.ours.ci95[1]? // "")] | @tsv' "$tmp/replicate.json")
if [ "${#ids[@]}" -gt 0 ] && ! (cd "$tmp/fig" && gnuplot all.gp) 2>>"$tmp/fig/gnuplot.log"; then
	for id in "${ids[@]}"; do
		(cd "$tmp/fig" && draw "$id" | gnuplot) 2>>"$tmp/fig/gnuplot.log" ||
			echo "replicate: figure $id: gnuplot failed (see $out/fig/gnuplot.log)" >&2
	done
fi
rm -f "$tmp/fig/all.gp"

# The page: where it ran, the table, each target's figure; the stylesheet
# of slicebench plot's reports (plots/templates/report.css), inlined.
jq -r --rawfile css plots/templates/report.css '
  def h: tostring | gsub("&"; "&amp;") | gsub("<"; "&lt;") | gsub(">"; "&gt;");
  def f: if . == null then "-" elif type == "number" then (. * 1000 | round / 1000 | tostring) else tostring end;
  def where: if .virtualization == "none" then "bare metal"
    elif .virtualization == "tcg" then "a TCG guest (QEMU emulating the CPU: timings are not a machine'"'"'s)"
    elif .virtualization == "other" then "a guest of an unnamed hypervisor"
    else "a \(.virtualization | ascii_upcase) guest" end;
  "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
  "<title>slicebench: replication</title>\n<style>\n\($css)</style></head><body>",
  "<h1>slicebench: the published numbers beside this machine'"'"'s</h1>",
  ([.rows[] | select(.machine) | .machine] | unique[] |
    "<p class=\"ext\">Ran on \(where | h): \(.pus // "?") PUs, \(.cpu // "?" | h), kernel \(.kernel // "?" | h), preemption \(.model // "?" | h)\(if .rt then " (PREEMPT_RT)" else "" end), slice extension \(if .slice_extension then "available" else "unavailable" end).</p>"),
  "<h2 id=\"question\">The question</h2><p class=\"question\">Does each published number hold here, measured the way its source measured it?</p>",
  "<table class=\"claims\" id=\"verdict-table\"><tr><th>target</th><th>published</th><th>here [95% CI]</th><th>MDE</th><th>verdict</th><th>why</th></tr>",
  (.rows[] | "<tr><td><a href=\"#\(.id | h)\">\(.id | h)</a></td><td>\(.published.as_published | h)</td><td>\(if .kind == "value" then (.ours.value | f) else "x\(.ours.ratio | f) [\(.ours.ci95[0]? | f), \(.ours.ci95[1]? | f)]" end | h)</td><td>\(.ours.mde? | f)</td><td><b>\(.verdict | h)</b></td><td>\(.why | h)</td></tr>"),
  "</table>",
  "<details><summary>How to read this table</summary><p>Verdicts: reproduced, contradicted, cannot tell (with its reason), not comparable (a different experiment). A claim about the extension is judged against its dry control. The rules are in harness/report/claim.h; every number on the left comes from configs/replicate/targets.json.</p></details>",
  (.rows[] | "<h2 id=\"\(.id | h)\">\(.id | h): \(.verdict | h)</h2>",
    "<figure><a href=\"fig/\(.id).svg\"><img src=\"fig/\(.id).png\" alt=\"\(.id | h): published beside here\"></a><figcaption>\(.why | h)</figcaption></figure>",
    "<details><summary>Source and conditions</summary><p>Source: \(.source as $s | $s | h) &mdash; conditions as published: \(.conditions | tojson | h)</p>",
    "<ul>\([.differs[] | "<li>\(h)</li>"] | join(""))</ul></details>"),
  "<h2>Sources</h2><ul>", (.sources | to_entries[] | "<li>\(.key | h): \(.value.who // "?" | h), \(.value.what | h); \(.value.where | h)</li>"), "</ul>",
  "</body></html>"' "$tmp/replicate.json" >"$tmp/index.html"

# Everything at once: a partial report never replaces a whole one.  The
# new report is copied whole beside the old one first (the copy is what a
# full disk fails), then renamed into place on that file system.
fail() { echo "replicate: $*" >&2; exit 1; }
mkdir -p "$out" || fail "--out $out: cannot create it"
stage=$(mktemp -d "$out/.new.XXXXXX") || fail "--out $out: cannot write in it"
# shellcheck disable=SC2064 # $stage is fixed now
trap "rm -rf '$tmp' '$stage'" EXIT
cp -R "$tmp/fig" "$tmp/replicate.json" "$tmp/replicate.txt" "$tmp/index.html" "$stage/" 2>"$tmp/cperr" ||
	fail "$out: the report was not written, the previous one is left as it was: $(tail -n 1 "$tmp/cperr")"
if [ -e "$out/fig" ]; then mv "$out/fig" "$stage/fig.old" || fail "$out/fig: cannot replace it"; fi
mv "$stage/fig" "$out/fig" || fail "$out/fig: cannot put the new figures in place"
for f in replicate.json replicate.txt index.html; do
	mv "$stage/$f" "$out/$f" || fail "$out/$f: cannot put it in place"
done
cat "$out/replicate.txt"
echo "replicate: $out/index.html" >&2
