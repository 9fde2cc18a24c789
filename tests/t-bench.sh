#!/usr/bin/env bash
# tier: host
# alone: it measures the harness
# t-bench.sh - `make bench` in its smoke mode, so the bench cannot rot: the
# result has the bench envelope and every section, and the numbers are
# positive.  Targets are not checked: they belong to `make bench` on a quiet
# machine, not to make check on a noisy one.
# shellcheck disable=SC2016 # $names in single quotes are jq's
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}

if ! make -s bench-bin BUILD="$BUILD" >"$TMP/build.log" 2>&1; then
	notok "bench: programs build ($(tail -n 1 "$TMP/build.log"))"
	exit 0
fi
ok "bench: programs build"
t0=$(date +%s)
if BUILD=$BUILD harness/selfbench/bench.sh --mode smoke --out "$TMP/bench.json" >"$TMP/table.md" 2>"$TMP/err.log"; then
	ok "bench: smoke run finished in $(($(date +%s) - t0)) s"
else
	notok "bench: smoke run failed: $(tail -n 2 "$TMP/err.log" | tr '\n' ' ')"
	exit 0
fi
f=$TMP/bench.json
check "bench: envelope schema slicebench/1, kind bench, meta from info" \
	jq -e '.schema == "slicebench/1" and .kind == "bench" and (.meta.kernel.release | length > 0)
	       and .meta.bench.mode == "smoke"' "$f"
# On a sanitizer build the harness's loops carry the instrumentation and
# the bare programs' do not: same code and offsets are the plain build's
# claim (this test on it, and t-loopsame.sh).
same='all(.alignment.loops[]; .same_code and .offset64.harness == 0 and .offset64.bare == 0)'
case "$BUILD" in
*san-*) same='true'
	echo "# bench: $BUILD is a sanitizer build: the loops' same-code check is left to the plain build" ;;
esac
check "bench: meta names the CPU, its microcode or why not, the compiler and the loops' alignment" \
	jq -e '.meta.bench.machine | (.cpu_model | length > 0) and (.compiler | length > 0)
	       and (.microcode != null or (.microcode_reason | length > 0))
	       and .alignment.loop_function_bytes == 64 and (.alignment.loops | length > 0)
	       and '"$same" "$f"
# The spread of two runs that are one and the same document: zero.  A cell
# is the ratio [95% CI], then the rounds dropped if any.
cell='[0-9.]+ \[[0-9., ]+\](, [0-9]+ dropped, [0-9]+ of [0-9]+ kept)?'
if harness/selfbench/bench.sh --spread "$f" "$f" >"$TMP/spread.md" 2>"$TMP/spread.err"; then
	check "bench: --spread of one run twice shows both runs and a zero spread" \
		grep -Eq "^\\| spin-tas \\| $cell \\| $cell \\| 0 \\|" "$TMP/spread.md"
	model=$(jq -r .meta.bench.machine.cpu_model "$f")
	check "bench: --spread names the machine ($model) above the table" \
		grep -qF "Machine: $model (family " "$TMP/spread.md"
else
	notok "bench: --spread failed: $(tail -n 1 "$TMP/spread.err")"
fi
runs_refused() {
	local out rc=0
	out=$(harness/selfbench/bench.sh --runs 0 2>&1) || rc=$?
	[ "$rc" = 2 ] && grep -q "positive integer, not '0'" <<<"$out"
}
check "bench: --runs 0 refused with exit 2 and the value named" runs_refused
for s in overhead harness_vs_bare placement_cost floor parity drift scale scale_fit suite machine_load; do
	check "bench: section $s present" jq -e --arg s "$s" 'any(.results[]; .section == $s)' "$f"
done
check "bench: overhead ops/s and ratios positive" \
	jq -e '[.results[] | select(.section == "overhead" and .status == "ok")] | length > 0 and
	       all(.[]; (.ops_per_sec | [.bare, .sampled, .every] | flatten | all(. > 0))
	                and .sampled_vs_bare.median > 0 and .sampled_vs_bare.ci95_lo > 0
	                and .every_vs_bare.median > 0)' "$f"
check "bench: an unsupported workload carries its reason" \
	jq -e 'all(.results[] | select(.status == "unsupported"); .reason | length > 0)' "$f"
hvb=$(jq -c '[.results[] | select(.section == "harness_vs_bare") | {workload, status, reason,
	cpu: (.ops_per_cpu_s // null)}]' "$f")
check "bench: harness vs bare ratio and ns per op positive ($hvb)" \
	jq -e 'all(.results[] | select(.section == "harness_vs_bare"); .harness_vs_bare.median > 0
	       and .ns_per_op.harness > 0 and .ns_per_op.bare > 0)' "$f"
check "bench: harness vs bare has per-CPU-second windows, paired, for both arms" \
	jq -e 'all(.results[] | select(.section == "harness_vs_bare");
	       (.ops_per_cpu_s.harness | length) == (.ops_per_cpu_s.bare | length) and
	       (.ops_per_cpu_s.harness | length) == .harness_vs_bare.n and
	       (.ops_per_cpu_s | [.harness, .bare] | flatten | all(. > 0)))' "$f"
# The dropped-round rule (harness/selfbench/bench/rounds.sh), as the run applied it:
# every kept window has operations and its share of CPU, every dropped try
# names an arm without them, and the counts agree with the windows.
check "bench: harness vs bare keeps only windows that ran, and counts the dropped rounds" \
	jq -e 'all(.results[] | select(.section == "harness_vs_bare" and .status == "ok");
	       .params.duration_s as $d | .dropped.min_cpu_share as $m
	       | .rounds.kept == .harness_vs_bare.n and .rounds.planned == (.rounds.kept + .rounds.left_out)
	       and .rounds.dropped == (.dropped.windows | length) and $m == 0.01 and .dropped.max_redo == 3
	       and (.windows | [.harness, .bare] | flatten | all(.ops > 0 and .cpu_s >= $m * $d))
	       and all(.dropped.windows[].empty[]; .ops <= 0 or .cpu_s < $m * $d))' "$f"
# Real starvation cannot be ordered up: a share no window reaches (2, twice
# the window) drops every try of every round, so the bounds show exactly.
if harness/selfbench/bench.sh --mode smoke --only hvb --min-share 2 --out "$TMP/drop.json" >"$TMP/drop.md" 2>"$TMP/drop.err"; then
	check "bench: an arm under the share drops its round, redone 3 times then left out, no ratio" \
		jq -e '[.results[].section] == ["harness_vs_bare", "machine_load"] and
		       ([.results[] | select(.section == "harness_vs_bare")] | all(.[];
		       .status == "failed" and .harness_vs_bare == null
		       and .rounds == {planned: 2, kept: 0, dropped: 8, left_out: 2}
		       and ([.dropped.windows[] | [.round, .try]] == [[0,0],[0,1],[0,2],[0,3],[1,0],[1,1],[1,2],[1,3]])
		       and all(.dropped.windows[]; [.empty[].arm] | sort == ["bare", "harness"])
		       and (.reason | startswith("0 of 2 rounds kept: 2 had an arm hardly run in each of 4 tries"))))' \
		"$TMP/drop.json"
	check "bench: the table row of the starved comparison says why" \
		grep -q '^| harness_vs_bare | spin-tas | failed | .*under 200% of its window' "$TMP/drop.md"
else
	notok "bench: --only hvb --min-share 2 failed: $(tail -n 2 "$TMP/drop.err" | tr '\n' ' ')"
fi
bad_opt() { # bad_opt OPTION VALUE MESSAGE: refused with exit 2, the value named
	local out rc=0
	out=$(harness/selfbench/bench.sh --mode smoke "$1" "$2" 2>&1) || rc=$?
	[ "$rc" = 2 ] && grep -qF "$3" <<<"$out"
}
check "bench: --only with an unknown section refused with exit 2, the name given" \
	bad_opt --only hvb,flor "no section 'flor'"
check "bench: --min-share that is no number refused with exit 2, the value given" \
	bad_opt --min-share 1% "a number >= 0, not '1%'"
# The real placement runs only where the kernel grants; here it must carry
# the harness's reason, and the dry control must be measured either way.
check "bench: each placement's dry control costed against no request, the real one run or refused with a reason" \
	jq -e '[.results[] | select(.section == "placement_cost")] |
	       any(.[]; .arm == "dry" and .status == "ok" and .against == "none" and .ratio.gmean > 0
	           and .ns_per_op.arm > 0) and
	       all(.[] | select(.arm == "real"); (.status == "ok" and (.against | endswith("+dry")))
	           or (.reason | length > 0))' "$f"
check "bench: floor xadd and line round trip positive" \
	jq -e '.results[] | select(.section == "floor") | .xadd_ns > 0 and
	       (.line_roundtrip_ns > 0 or .line_roundtrip_status == "unsupported")' "$f"
if command -v perf >/dev/null; then
	check "bench: parity perf and slicebench ops/s positive, usleep(1) timed" \
		jq -e 'all(.results[] | select(.section == "parity"); .status == "ok" and
		       (.ops_per_sec.perf | all(. > 0)) and (.ops_per_sec.slicebench | all(. > 0))
		       and .usleep1.mean_ns > 0)' "$f"
else
	notok "bench: parity with perf: perf is not installed (scripts/install-deps.sh check installs linux-perf)"
fi
check "bench: scale wall, RSS, JSON size and write time positive" \
	jq -e '[.results[] | select(.section == "scale")] | length >= 3 and
	       all(.[]; .wall_s > 0 and .max_rss_kib > 0 and .json_bytes > 0 and .write_s > 0)' "$f"
check "bench: JSON grows with threads" \
	jq -e '.results[] | select(.section == "scale_fit") | .bytes_per_thread > 0' "$f"
# Whether the doubled loop was caught is the machine's to keep (a
# benchmark); that it ran and reported its ratios is the script's.
check "bench: the calibration check ran on a loop at twice its rate and reported its ratios" \
	jq -e '.results[] | select(.section == "drift") | .status == "ok" and .hold_ratio > 0 and
	       .think_ratio > 0 and (.met | type) == "boolean" and .tries == 1' "$f"
check "bench: every suite row measured, skipped or reported with a reason" \
	jq -e 'all(.results[] | select(.section == "suite");
	       (.status == "ok" and .wall_s > 0) or (.reason | length > 0))' "$f"
table_has_all() {
	local s
	for s in overhead "harness vs bare" "placement" floor parity "calibration check" scale suite machine; do
		grep -q "^| $s" "$TMP/table.md" || return 1
	done
}
check "bench: table printed with every section" table_has_all
