#!/usr/bin/env bash
# tier: quick
# t-plot.sh - `plot` on a real ci.json run: every plot with data renders
# (gnuplot exit 0, non-empty PNG and SVG), the plots without data are left
# out of index.html (their note a comment), and it references every file.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v gnuplot >/dev/null; then
	notok "plot: all: gnuplot is not installed (gnuplot-nox, from scripts/install-deps.sh check)"
	exit 0
fi
res="$TMP/ci.json"
if ! "$SB" run --config configs/ci.json --out "$res" --quiet 2>"$TMP/err"; then
	notok "plot: ci.json run failed: $(cat "$TMP/err")"
	exit 1
fi
# A two-point cs_ns sweep, so the throughput-vs-cs plot has a line.
printf '%s' '{"defaults": {"duration_s": 0.05, "warmup_s": 0.01, "repetitions": 2,
  "threads": 2}, "runs": [{"workload": ["futex", "spin-tas"], "cs_ns": [0, 2000]}]}' >"$TMP/cs.json"
"$SB" run --config "$TMP/cs.json" --out "$TMP/cs-res.json" --quiet 2>/dev/null

out="$TMP/report"
"$SB" plot "$res" --baseline spin-tas --out "$out" 2>"$TMP/err"
rc=$?
check "plot: one ci.json result exits 0 (rc=$rc)" test "$rc" -eq 0
for p in answer-spin-tas throughput_threads hold_ns acquire_ns victim_ccdf counters; do
	check "plot: $p.png and .svg rendered from ci.json" test -s "$out/$p.png" -a -s "$out/$p.svg" -a -s "$out/$p.dat"
	check "plot: index.html shows $p.png" grep -q "src=\"$p.png\"" "$out/index.html"
	check "plot: index.html links $p.svg" grep -q "href=\"$p.svg\"" "$out/index.html"
done

# Small multiples: blocks are "# PANEL | SERIES"; no panel has more than
# six series, though ci.json runs nine workloads at one thread per PU.
most=$(grep -h '^# .* | ' "$out/throughput_threads.dat" "$out/hold_ns.dat" |
	awk -F' [|] ' '{n[$1]++} END {m = 0; for (p in n) if (n[p] > m) m = n[p]; print m}')
check "plot: at most 6 series in any panel (most: $most)" test "$most" -ge 1 -a "$most" -le 6
check "plot: the nine 1x workloads are split into spinning and sleeping panels" \
	grep -q '^# .*sleeping locks | futex$' "$out/throughput_threads.dat"
# Panel titles name only what varies: ci.json varies cs_ns and victim,
# holds think_ns fixed, and its pin follows from threads.
hdr=$(grep -h '^# .* | ' "$out/throughput_threads.dat" "$out/hold_ns.dat")
check "plot: panels are named by cs_ns, which varies" grep -q 'cs_ns=100' <<<"$hdr"
check "plot: no panel names think_ns, which does not vary" test -z "$(grep 'think_ns=' <<<"$hdr")"
check "plot: no panel names pin, which follows from threads" test -z "$(grep 'pin=' <<<"$hdr")"
check "plot: throughput_threads panels do not name threads, its x axis" \
	test -z "$(grep -h '^# .*threads=' "$out/throughput_threads.dat")"
# The answer figure holds exactly the rows compare --within finds.
"$SB" compare --within "$res" --baseline spin-tas -f json -o "$TMP/within.json" 2>/dev/null
want=$(jq '[.rows[] | select(.ratio != null)] | length' "$TMP/within.json")
got=$(grep -vc '^#\|^$' "$out/answer-spin-tas.dat")
check "plot: answer figure has one row per compared pair ($got of $want)" test "$got" -eq "$want" -a "$want" -gt 0
check "plot: details.html has the verdict table of the baseline" \
	grep -q '<h3 id="cmp0">each workload against spin-tas in ci: [0-9]* improved' "$out/details.html"
check "plot: index.html links it with its counts" \
	grep -q '<li><a href="details.html#cmp0">each workload against spin-tas in ci</a>: [0-9]* improved' "$out/index.html"
check "plot: index.html has the study's description" \
	grep -q "<p class=\"desc\">$(jq -r .config.description "$res" | cut -c1-40)" "$out/index.html"
# One colour per lock everywhere: futex draws in #009E73 both in the
# answer figure and in the throughput panels, spin-tas in #0072B2.
for p in answer-spin-tas throughput_threads; do
	check "plot: $p.svg draws futex in its colour" grep -q "rgb(  0, 158, 115)" "$out/$p.svg"
done
check "plot: throughput_threads.svg draws tas in its colour" \
	grep -q "rgb(  0, 114, 178)" "$out/throughput_threads.svg"
"$SB" plot "$res" --baseline no-such-workload --out "$TMP/report-nb" 2>"$TMP/err-nb"
check "plot: an absent baseline skips the answer with the reason" \
	grep -q 'answer-no-such-workload skipped: no comparison against no-such-workload: ci: no results of baseline workload "no-such-workload"' "$TMP/err-nb"

# The style table: params "lock"/"policy" decide the colour when a result
# has them; an unknown name without them gets a fallback that is neither
# of the known locks'.
jq '.results |= map(select(.workload == "spin-tas") | .workload = "my-lock" |
	.params.lock = "ticket" | .params.policy = "none")' "$res" >"$TMP/keyed.json"
jq '.results |= map(select(.workload == "spin-tas") | .workload = "my-lock" |
	del(.params.lock, .params.policy, .params.dry))' "$res" >"$TMP/unkeyed.json"
"$SB" plot "$TMP/keyed.json" --out "$TMP/keyed" 2>/dev/null
"$SB" plot "$TMP/unkeyed.json" --out "$TMP/unkeyed" 2>/dev/null
check "plot: params.lock=ticket draws in ticket's colour" \
	grep -q "rgb(213,  94,   0)" "$TMP/keyed/throughput_threads.svg"
check "plot: params.lock=ticket does not draw in tas's colour" \
	test -z "$(grep "rgb(  0, 114, 178)" "$TMP/keyed/throughput_threads.svg")"
check "plot: an unknown workload gets neither lock's colour" \
	test -z "$(grep -e "rgb(  0, 114, 178)" -e "rgb(213,  94,   0)" "$TMP/unkeyed/throughput_threads.svg")"
"$SB" plot "$TMP/unkeyed.json" --out "$TMP/unkeyed2" 2>/dev/null
check "plot: an unknown workload gets the same look every time" \
	cmp -s "$TMP/unkeyed/throughput_threads.svg" "$TMP/unkeyed2/throughput_threads.svg"
check "plot: PNG files are PNG" test "$(head -c 8 "$out/throughput_threads.png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n'
for p in throughput_cs ext_tradeoff compare; do
	# a skipped figure is not shown: its note is a comment of the page
	if grep -q "^<!-- $p skipped: [^ ]" "$out/index.html" &&
		! grep -q -e "id=\"$p\"" -e "href=\"#$p\"" "$out/index.html"; then
		ok "plot: $p skipped: not shown, its note a comment of index.html"
	else
		notok "plot: $p skipped: shown, or no note in index.html"
	fi
	check "plot: $p has no image when skipped" test ! -e "$out/$p.png"
	check "plot: $p skip is reported on stderr" grep -q "$p skipped: " "$TMP/err"
done
check "plot: index.html has the meta summary" grep -q "kernel $(uname -r)" "$out/index.html"
# An extension sweep where one workload ran at a single length (the
# PREEMPT_RT study's slice-dry): its line has one point, and gnuplot 5.4
# crashed (SIGSEGV) on the labels pass below the points, which had none.
"$SB" plot results/reference/interference-rt-vm-lazy.json.gz --out "$TMP/ext1" 2>"$TMP/ext1.err"
check "plot: an extension sweep with a one-point line draws ext_tradeoff ($(grep -o 'ext_tradeoff: .*' "$TMP/ext1.err" | head -c 80))" \
	test -s "$TMP/ext1/ext_tradeoff.png" -a -s "$TMP/ext1/ext_tradeoff.svg"
check "plot: no temp file left in the output" test -z "$(find "$out" -name '*.tmp.*' -o -name '.*.log')"

# Several inputs: the comparison chart and table, and the cs_ns line.
out2="$TMP/report2"
"$SB" plot "$res" tests/fixtures/base.json "$TMP/cs-res.json" --out "$out2" 2>"$TMP/err2"
rc=$?
check "plot: three inputs exit 0 (rc=$rc)" test "$rc" -eq 0
check "plot: compare.png rendered" test -s "$out2/compare.png" -a -s "$out2/compare.svg"
check "plot: throughput_cs.png rendered from the cs_ns sweep" test -s "$out2/throughput_cs.png"
check "plot: details.html has the comparison table" grep -q '<table class="compare">' "$out2/details.html"
n=$(grep -o 'src="[a-z_]*\.png"' "$out2/index.html" | wc -l)
m=$(find "$out2" -name '*.png' | wc -l)
check "plot: index.html references each of the $m PNG files ($n)" test "$n" -eq "$m"
for f in "$out2"/*.png "$out2"/*.svg; do
	b=${f##*/}
	grep -q "\"$b\"" "$out2/index.html" || notok "plot: index.html misses $b"
done

# A directory input, bad input and a broken template.
mkdir -p "$TMP/dir"
cp "$res" "$TMP/dir/a.json"
"$SB" plot "$TMP/dir" --out "$TMP/report3" 2>/dev/null
check "plot: a results directory renders" test -s "$TMP/report3/throughput_threads.png"
printf '{"schema": "slicebench/1", "meta": {}, "results": [{"workload": "futex", "params": {}, "status": "failed", "reason": "killed by SIGSEGV"}]}' >"$TMP/nodata.json"
"$SB" plot "$TMP/nodata.json" --out "$TMP/report4" 2>/dev/null
rc=$?
check "plot: a result without data exits 0, every plot skipped (rc=$rc)" \
	test "$rc" -eq 0 -a "$(grep -c '^<!-- .* skipped: ' "$TMP/report4/index.html")" -ge 8
"$SB" plot "$TMP/missing.json" --out "$TMP/report5" 2>"$TMP/err"
check "plot: a missing input exits 2 naming it" test $? -eq 2 -a -n "$(grep missing.json "$TMP/err")"
# no --out: plots/RUN/ under the working directory, RUN the result's name
mkdir -p "$TMP/cwd"
(cd "$TMP/cwd" && "$(realpath "$OLDPWD/$SB" 2>/dev/null || realpath "$SB")" plot "$(realpath "$OLDPWD/$res" 2>/dev/null || realpath "$res")" >/dev/null 2>&1)
check "plot: no --out renders into plots/$(basename "$res" .json)/" test -s "$TMP/cwd/plots/$(basename "$res" .json)/index.html"
: >"$TMP/afile"
"$SB" plot "$res" --out "$TMP/afile" 2>"$TMP/err"
rc=$?
check "plot: --out FILE exits 2 (rc=$rc)" test "$rc" -eq 2
check "plot: --out FILE gives one clear line" \
	test "$(cat "$TMP/err")" = "slicebench plot: --out $TMP/afile: exists and is not a directory"
check "plot: --out FILE leaves the file alone" test ! -s "$TMP/afile"
"$SB" plot "$res" --out "$TMP/afile/sub" 2>"$TMP/err"
rc=$?
check "plot: --out under a file exits 2 with one line (rc=$rc)" \
	test "$rc" -eq 2 -a "$(wc -l <"$TMP/err")" -eq 1 -a -n "$(grep 'afile/sub: .*Not a directory' "$TMP/err")"
mkdir -p "$TMP/tmpl"
cp plots/templates/*.gp "$TMP/tmpl/"
echo 'plot no_such_function(x)' >"$TMP/tmpl/counters.gp"
"$SB" plot "$res" --out "$TMP/report6" --templates "$TMP/tmpl" 2>"$TMP/err"
rc=$?
check "plot: a failing gnuplot exits 1 and says so (rc=$rc)" \
	test "$rc" -eq 1 -a -n "$(grep 'counters: gnuplot (png) exited' "$TMP/err")"
check "plot: the failure is in index.html" grep -q 'class="failed"' "$TMP/report6/index.html"

# The syscall-vs-atomic study's answer: each primitive's cost, and the
# ratio it asks for in the panel's title.
ref=$(ref_json syscall-vs-atomic-vm)
"$SB" plot "$ref" --out "$TMP/prims" 2>/dev/null
want=$(jq -r '.results[0].summary.primitives | [.gettid, .xadd] | map(.tsc_cycles_per_op.mean) |
	"\(.[0] / .[1] * 10 | round / 10)"' "$ref")
nprim=$(jq '[.results[0].summary.primitives[] | objects | select(.tsc_cycles_per_op.mean > 0)] | length' "$ref")
check "plot: answer-primitives rendered from the syscall-vs-atomic reference" \
	test -s "$TMP/prims/answer-primitives.png" -a -s "$TMP/prims/answer-primitives.svg"
check "plot: answer-primitives titles its panel gettid / xadd = $want" \
	grep -q "^# gettid / xadd = $want | gettid$" "$TMP/prims/answer-primitives.dat"
got=$(grep -vc '^#\|^$' "$TMP/prims/answer-primitives.dat")
check "plot: answer-primitives has one dot per primitive ($got of $nprim)" test "$got" -eq "$nprim" -a "$nprim" -ge 5
check "plot: answer-primitives is not drawn without primitives results" test ! -e "$out/answer-primitives.png"

# A FIFO, a symlink and a directory where plot writes its files: each of
# those plots fails with the reason, nothing blocks, nothing is replaced.
hostile="$TMP/hostile"
mkdir -p "$hostile"
mkfifo "$hostile/throughput_threads.dat"
ln -s /dev/null "$hostile/hold_ns.png"
mkdir "$hostile/acquire_ns.svg"
timeout 120 "$SB" plot "$res" --out "$hostile" >/dev/null 2>"$TMP/hostile.err"
rc=$?
check "plot: a FIFO, a symlink and a directory among its outputs: no hang (exit $rc, 1 = plots failed)" test "$rc" -eq 1
check "plot: ... the FIFO is named, with the policy" grep -q "throughput_threads.dat\" is a FIFO: an output must be a new path or a regular file" "$TMP/hostile.err"
check "plot: ... the FIFO, the symlink and the directory are left as they were" \
	test -p "$hostile/throughput_threads.dat" -a -L "$hostile/hold_ns.png" -a -d "$hostile/acquire_ns.svg"
check "plot: ... the other plots still render" test -s "$hostile/victim_ccdf.png"

# A CCDF's step line runs to the end of the last bucket: the point where
# the fraction above reaches 0 (off a log axis) keeps the level before it.
# One bucket is a level line at 1 across the bucket, not a lone point.
jq '.results |= [.[0] | (.params.workload = "one-bucket" | .workload = "one-bucket" | .histograms.hold_ns = [[77824, 4096, 5]]),
                 (.params.workload = "two-buckets" | .workload = "two-buckets" | .histograms.hold_ns = [[1000, 100, 3], [2000, 100, 1]])]' \
	"$res" >"$TMP/buckets.json"
"$SB" plot "$TMP/buckets.json" --out "$TMP/buckets" >/dev/null 2>"$TMP/buckets.err"
pts=$(awk '/^#/ {b++} !/^#/ && NF {printf "%s%s:%s %s", sep, b, $1, $2; sep=","}' "$TMP/buckets/hold_ns.dat")
check "plot: CCDF points of one bucket and of two ($pts)" \
	test "$pts" = "1:77824 1,1:81920 1,2:1000 1,2:1100 0.25,2:2100 0.25"

# Two victim probes that differ in their policy are two panels, never one
# series: merged, the CCDFs of an OTHER and a FIFO probe drew one step
# line that climbed back to 1 halfway.  Every CCDF block runs right and
# down.
jq '.results |= [[.[] | select(.params.victim | type == "object")][0] |
                 ., (.params.victim.policy = "fifo" | .params.victim.priority = 50)]' \
	"$res" >"$TMP/victims.json"
"$SB" plot "$TMP/victims.json" --out "$TMP/victims" >/dev/null 2>"$TMP/victims.err"
panels=$(grep -c '^# .*victim=\(other\|fifo\) |' "$TMP/victims/victim_ccdf.dat")
check "plot: an OTHER and a FIFO victim probe are two panels, named by the policy ($panels)" test "$panels" -eq 2
back=$(awk '/^#/ {px = -1; py = 2; next} NF {if ($1 <= px || $2 > py) n++; px = $1; py = $2} END {print n + 0}' \
	"$TMP/victims/victim_ccdf.dat" "$out/victim_ccdf.dat" "$out/hold_ns.dat" "$out/acquire_ns.dat")
check "plot: every CCDF step line runs right and down ($back points step back)" test "$back" -eq 0
