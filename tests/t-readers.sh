#!/usr/bin/env bash
# tier: quick san
# t-readers.sh - validate, compare and plot read only regular files (a FIFO
# named *.json never hangs them), and validate checks every invariant a
# reader relies on, naming the file the bad result came from.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
base=tests/fixtures/base.json

mkdir -p "$TMP/dir" "$TMP/plots"
cp "$base" "$TMP/dir/a.json"
mkfifo "$TMP/dir/b.json" "$TMP/f.json"
# reader DESC PATTERN CMD...: exit 2 within 5 s, the message matches.
reader() {
	local d=$1 pat=$2 rc
	shift 2
	timeout 5 "$@" >/dev/null 2>"$TMP/err"
	rc=$?
	check "readers: $d: exit 2 (got $rc, 124 = hung): \"$(head -c 200 "$TMP/err")\"" test "$rc" -eq 2
	check "readers: $d: names the FIFO" grep -q "$pat" "$TMP/err"
}
reader "validate FIFO.json" "f.json: a FIFO, not a result file" "$SB" validate "$TMP/f.json"
reader "validate DIR with a FIFO *.json" "b.json: a FIFO, not a result file" "$SB" validate "$TMP/dir"
reader "compare FILE FIFO.json" "f.json: a FIFO" "$SB" compare "$base" "$TMP/f.json"
reader "compare FILE DIR-with-FIFO" "b.json: a FIFO" "$SB" compare "$base" "$TMP/dir"
reader "plot FIFO.json" "f.json: a FIFO" "$SB" plot "$TMP/f.json" --out "$TMP/plots/"

# tamper NAME JQ PATTERN: the edited base must be refused with PATTERN.
tamper() {
	local name=$1 prog=$2 pat=$3 rc
	jq "$prog" "$base" >"$TMP/$name.json"
	"$SB" validate "$TMP/$name.json" >/dev/null 2>"$TMP/err"
	rc=$?
	check "validate: $name: exit 2 (got $rc): \"$(head -n 1 "$TMP/err")\"" test "$rc" -eq 2
	check "validate: $name: says \"$pat\"" grep -qF "$pat" "$TMP/err"
}
tamper negative-mean '.results[0].summary.ops_per_sec |= (.mean = -5)' \
	"results[0].summary.ops_per_sec.mean: must not be negative"
tamper negative-everything '.results[0].summary.ops_per_sec |= with_entries(.value = -1 * .value)' \
	"summary.ops_per_sec.min: must not be negative"
tamper min-above-max '.results[0].summary.ops_per_sec |= (.min = .max + 1)' \
	"results[0].summary.ops_per_sec: min is above max"
tamper median-outside '.results[1].summary.ops_per_sec |= (.median = .max * 2 | .ci95_hi = .max * 3)' \
	"results[1].summary.ops_per_sec: mean or median outside min..max"
tamper mean-outside-interval '.results[0].summary.ops_per_sec |= (.ci95_lo = .mean * 1.01 | .ci95_hi = .mean * 1.02)' \
	"results[0].summary.ops_per_sec: mean outside its own 95% interval"
# The interval is the mean's: a skewed set of repetitions puts the median
# below it (a 20-repetition run in the guest, median 16.98 M under an
# interval 17.04-21.30 M around a mean of 19.17 M), which is no error.
jq '.results[0].summary.ops_per_sec |= (.min = 10 | .median = 16.98 | .mean = 19.17 | .ci95_lo = 17.04 | .ci95_hi = 21.30 | .max = 28.65)' \
	"$base" >"$TMP/skewed.json"
check "validate: a median below the mean's interval is accepted ($("$SB" validate "$TMP/skewed.json" 2>&1 | head -n 1))" \
	"$SB" validate "$TMP/skewed.json"
tamper negative-rep '.results[0].repetitions[2].ops_per_sec = -3' \
	"results[0].repetitions[2].ops_per_sec: must be a number >= 0"
tamper nan-like-string '.results[0].summary.ops_per_sec.max = "NaN"' \
	"results[0].summary.ops_per_sec.max: must be a number (got \"NaN\")"
tamper primitives-hides-ops '.results[0].summary.primitives = {"x": {}} | .results[0].summary.ops_per_sec.mean = -1' \
	"results[0].summary.ops_per_sec.mean: must not be negative"
tamper primitives-bad '.results[0].summary = {"primitives": {"gettid": {"ns_per_op": {"n": 3, "mean": 5, "median": 5, "min": 9, "max": 4, "ci95_lo": 4, "ci95_hi": 6}}}}' \
	"summary.primitives.gettid.ns_per_op: min is above max"
tamper negative-hold '.results[0].summary.hold_ns.min = -1' \
	"results[0].summary.hold_ns.min: must not be negative"

# validate --strict also holds a result to what the harness writes: the
# run keys in the key table's ranges and types, each repetition's rate its
# ops over its window; and validate refuses negative slice counts, no
# threads, no PUs and two results with one id.  Before: all accepted.
# sbase: base with windows that match its rates (the fixture's do not).
jq '.results[].repetitions[] |= (.wall_s = .ops / .ops_per_sec)' "$base" >"$TMP/sbase.json"
check "validate --strict: base with matching windows is accepted ($("$SB" validate --strict "$TMP/sbase.json" 2>&1 | head -n 1))" \
	"$SB" validate --strict "$TMP/sbase.json"
# strict NAME BASE JQ MESSAGE: exit 2, the message with the file
strict() {
	local name=$1 from=$2 prog=$3 want=$4 rc
	jq "$prog" "$from" >"$TMP/$name.json"
	"$SB" validate --strict "$TMP/$name.json" >/dev/null 2>"$TMP/err"
	rc=$?
	check "validate --strict: $name: exit 2 (got $rc): \"$(head -n 1 "$TMP/err")\"" test "$rc" -eq 2
	check "validate --strict: $name: says \"$want\"" grep -qxF "slicebench validate: $TMP/$name.json: $want" "$TMP/err"
}
strict negative-grants "$(ref_json slice-durations-vm)" '.results[0].summary.slice.grants = -4' \
	"results[0].summary.slice.grants: must not be negative (got -4)"
strict negative-cs "$TMP/sbase.json" '.results[0].params.cs_ns = -100' \
	"results[0].params.cs_ns: -100 is out of range 0..100000000 ns (got -100)"
strict holder-string "$TMP/sbase.json" '.results[0].params.holder_trace_us = "5"' \
	'results[0].params.holder_trace_us: must be an integer (got "5")'
strict nthreads-0 "$TMP/sbase.json" '.results[0].nthreads = 0' \
	"results[0].nthreads: must be a whole number >= 1 (got 0)"
strict nthreads-negative "$TMP/sbase.json" '.results[1].nthreads = -2' \
	"results[1].nthreads: must be a whole number >= 1 (got -2)"
strict pus-0 "$TMP/sbase.json" '.meta.topology.pus = 0' \
	"meta.topology.pus: must be a whole number >= 1 (got 0)"
strict duplicate-id "$TMP/sbase.json" '.results[2].id = 0' \
	"results[2].id: repeats the id of results[0] (got 0)"
strict repetitions-1e9 "$TMP/sbase.json" '.results[0].params.repetitions = 1e9' \
	"results[0].params.repetitions: 1000000000 is out of range 1..1000 (got 1000000000)"
strict rate-x1e6 "$TMP/sbase.json" '.results[0].repetitions[1].ops_per_sec *= 1e6' \
	"results[0].repetitions[1].ops_per_sec: is not ops / wall_s (994000) (got 994000000000)"

# A bad file in a directory is named itself, with its own index.
jq '.results[1].summary.ops_per_sec.min = -7' "$base" >"$TMP/dir/c.json"
rm -f "$TMP/dir/b.json"
"$SB" validate "$TMP/dir" >/dev/null 2>"$TMP/err"
rc=$?
check "validate: DIR with one bad file: exit 2 (got $rc), names it: \"$(head -n 1 "$TMP/err")\"" \
	grep -qF "$TMP/dir/c.json: results[1].summary.ops_per_sec.min: must not be negative" "$TMP/err"
check "validate: the reference results still validate" "$SB" validate results/reference

# compare and plot run validate's checks on their inputs: a value they
# would have to skip stops them with the file, the key path and the value,
# before any output.
jq '.results[0].repetitions[1].ops_per_sec = "fast"' "$base" >"$TMP/str.json"
strmsg="$TMP/str.json: results[0].repetitions[1].ops_per_sec: must be a number (got \"fast\")"
# refuses DESC CMD...: exit 2, the message above, nothing on stdout.
refuses() {
	local d=$1 rc
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "readers: $d: string ops_per_sec: exit 2 (got $rc), names file, key and value: \"$(head -n 1 "$TMP/err")\"" \
		grep -qF "$strmsg" "$TMP/err"
	check "readers: $d: exit status 2 and nothing on stdout" test "$rc" -eq 2 -a ! -s "$TMP/out"
}
refuses "compare BASE BAD" "$SB" compare "$base" "$TMP/str.json"
refuses "compare BAD BASE --format json" "$SB" compare "$TMP/str.json" "$base" --format json
refuses "compare --within BAD" "$SB" compare --within "$TMP/str.json" --baseline spin-tas
refuses "compare --within --noise BAD" "$SB" compare --within "$base" --baseline spin-tas --noise "$TMP/str.json"
mkdir -p "$TMP/strplots"
refuses "plot BAD" "$SB" plot "$TMP/str.json" --out "$TMP/strplots/"
check "readers: plot BAD: no partial output" test -z "$(ls -A "$TMP/strplots")"

# A point with 5,000 repetitions is compared on all of them: base's second
# result with ops/s SCALE * (1e6 + i mod 1000) in repetition i.
big() {
	jq --argjson s "$2" '.results = [.results[1]
		| .params.repetitions = 5000
		| .repetitions = [range(5000) as $i | .repetitions[0]
			| .ops_per_sec = $s * (1000000 + ($i % 1000)) | .ops = .ops_per_sec * .wall_s]
		| .summary.ops_per_sec = { n: 5000, mean: ($s * 1000499.5), median: ($s * 1000499.5),
			min: ($s * 1000000), max: ($s * 1000999), stddev: ($s * 288.7),
			ci95_lo: ($s * 1000491.5), ci95_hi: ($s * 1000507.5) }]' "$base" >"$1"
}
big "$TMP/big-a.json" 1
big "$TMP/big-b.json" 1.1
check "readers: the 5,000-repetition result validates" "$SB" validate "$TMP/big-a.json" "$TMP/big-b.json"
"$SB" compare "$TMP/big-a.json" "$TMP/big-b.json" --metric ops_per_sec --format json >"$TMP/big.json" 2>"$TMP/err"
rc=$?
n=$(jq -r '.rows[] | select(.metric == "ops_per_sec") | "\(.a.n)/\(.b.n)/\(.a.values | length)/\(.verdict)"' "$TMP/big.json")
check "readers: compare uses all 5,000 repetitions per side (got $n, exit $rc)" \
	test "$rc" -eq 0 -a "$n" = "5000/5000/5000/improved"
