#!/usr/bin/env bash
# tier: host
# t-loopsame.sh - the bench's harness and bare arms run the same hot loop:
# for each workload of its harness-vs-bare section, the two programs' loop
# functions disassemble to the same instructions at the same offsets, start
# on a 64-byte boundary, and callgrind counts the same instructions on the
# same path per operation in each (exact counts, whatever the host's speed
# or load).  The control: the harness's own sampled and bare loop kinds,
# which differ by the sampling countdown, must read as different.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}

if ! make -s bench-bin BUILD="$BUILD" >"$TMP/build.log" 2>&1; then
	notok "loopsame: programs build ($(tail -n 1 "$TMP/build.log"))"
	exit 0
fi
if ! command -v valgrind >/dev/null; then
	notok "loopsame: valgrind is not installed (scripts/install-deps.sh check installs it)"
	exit 0
fi
wls=(spin-tas futex adaptive)
if ! BUILD=$BUILD harness/selfbench/loopsame.sh --callgrind "${wls[@]}" >"$TMP/same.jsonl" 2>"$TMP/err.log"; then
	notok "loopsame: ran ($(tail -n 2 "$TMP/err.log" | tr '\n' ' '))"
	exit 0
fi
for wl in "${wls[@]}"; do
	r=$(jq -c --arg w "$wl" 'select(.workload == $w)' "$TMP/same.jsonl")
	check "loopsame: $wl: the loop function is in both programs ($(jq -c .function <<<"$r"))" \
		jqe '.instructions > 20' <<<"$r"
	check "loopsame: $wl: same instructions at the same offsets ($(jq -r '.diff | gsub("\n"; " / ")' <<<"$r"))" \
		jqe '.same_code' <<<"$r"
	check "loopsame: $wl: both functions start on a 64-byte boundary ($(jq -c .offset64 <<<"$r"))" \
		jqe '.offset64.harness == 0 and .offset64.bare == 0' <<<"$r"
	cg=$(jq -c '.callgrind | del(.hot_path_offsets)' <<<"$r")
	check "loopsame: $wl: the harness run measured ($(jq -r .harness.status <<<"$cg"))" \
		jqe '.harness.status == "ok"' <<<"$cg"
	# The hottest instruction runs once per operation: the bare program's
	# own count of its operations (warm-up and window) says so, give or
	# take the loop's pass at each of its phase changes.
	check "loopsame: $wl: callgrind counts one loop pass per operation ($(jq -c '.bare | [.ops, .total_ops]' <<<"$cg"))" \
		jqe '.bare.total_ops > 100000 and (.bare.ops - .bare.total_ops | fabs) <= 3' <<<"$cg"
	check "loopsame: $wl: same path, same instructions per untimed operation ($(jq -c '[.harness.hot_instructions, .bare.hot_instructions]' <<<"$cg"))" \
		jqe '.same_hot_path and .harness.hot_instructions == .bare.hot_instructions
		       and .harness.hot_instructions > 5' <<<"$cg"
	# Averaged over all operations, the timed one in sample_every and its
	# histogram adds (branches on the value timed) come in: within 0.1.
	# With the timed operations averaged in, the two arms' counts move with
	# how many operations the host let each run between samples (0.04
	# apart on a quiet host, 0.17 at load 8): shown, not judged.
	echo "# loopsame: $wl: instructions per operation, timed ones included: $(jq -c '[.harness.ir_per_op, .bare.ir_per_op]' <<<"$cg")"
	check "loopsame: $wl: instructions per operation, timed ones included, counted in both" \
		jqe '.harness.ir_per_op > 0 and .bare.ir_per_op > 0' <<<"$cg"
done
# The control: two loops that differ by two instructions per operation
# (the countdown of the sampled kind) must not compare as the same.
harness/selfbench/loopsame.sh --dis "$BUILD/slicebench" tas_POL_NONE_LOOP_SAMPLED_WL_SIMPLE >"$TMP/s.dis"
harness/selfbench/loopsame.sh --dis "$BUILD/slicebench" tas_POL_NONE_LOOP_BARE_WL_SIMPLE >"$TMP/b.dis"
differ() { [ -s "$1" ] && [ -s "$2" ] && ! cmp -s "$1" "$2"; }
check "loopsame: control: the sampled and bare loop kinds disassemble differently" \
	differ "$TMP/s.dis" "$TMP/b.dis"
