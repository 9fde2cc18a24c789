#!/usr/bin/env bash
# tier: quick san
# t-config.sh - the config loader on good input and on each kind of bad
# input: exit status 2, a message naming file:line:column or the key path,
# and no results file left behind.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

bad() { # bad NAME EXPECTED-MESSAGE-REGEX JSON
	local name=$1 want=$2 f="$TMP/$1.json" out="$TMP/$1.out.json"
	printf '%s' "$3" >"$f"
	"$SB" run --config "$f" --out "$out" --quiet 2>"$TMP/err"
	local rc=$?
	local msg
	msg=$(cat "$TMP/err")
	if [ "$rc" -eq 2 ] && grep -Eq -- "$want" "$TMP/err" && [ ! -e "$out" ] &&
		[ -z "$(find "$TMP" -name '.*.tmp.*')" ]; then
		ok "config: $name -> exit 2, \"$msg\""
	else
		notok "config: $name: rc=$rc msg=\"$msg\" (wanted /$want/, no $out)"
	fi
}

bad syntax "$TMP/syntax.json:3:[0-9]+: " '{
  "runs": [
    {"workload": "spin-tas",, }
  ]
}'
bad truncated "$TMP/truncated.json:[0-9]+:[0-9]+: " '{"runs": [{"workload": "futex"'
bad not-object "\(top level\): must be an object" '[1, 2]'
bad unknown-top 'nme: unknown key \(did you mean "name"\?\)' '{"nme": "x", "runs": [{}]}'
bad run-key-at-top "threads: unknown key \(run keys such as \"threads\" belong in \"defaults\"" '{"threads": 2, "runs": [{}]}'
bad no-runs "runs: must be a non-empty list" '{"name": "x"}'
bad empty-runs "runs: must be a non-empty list" '{"runs": []}'
bad unknown-run-key 'runs\[0\]\.thread: unknown key \(did you mean "threads"\?\)' '{"runs": [{"thread": 2}]}'
bad typo-in-defaults 'defaults\.cs_nss: unknown key \(did you mean "cs_ns"\?\)' '{"defaults": {"cs_nss": 5}, "runs": [{}]}'
bad unknown-workload 'runs\[0\]\.workload\[1\]: unknown workload "spin-mcs" \(known: spin-tas, spin-ticket, futex' \
	'{"runs": [{"workload": ["futex", "spin-mcs"]}]}'
bad out-of-range 'runs\[0\]\.threads: 0 is out of range 1\.\.4096 threads' '{"runs": [{"threads": 0}]}'
bad out-of-range-list 'runs\[1\]\.cs_ns\[2\]: -5 is out of range' '{"runs": [{}, {"cs_ns": [1, 2, -5]}]}'
bad wrong-type 'runs\[0\]\.duration_s: must be a number' '{"runs": [{"duration_s": "long"}]}'
bad threads-form 'runs\[0\]\.threads: "2y" is not an integer or "Nx"' '{"runs": [{"threads": "2y"}]}'
bad bad-pin 'runs\[0\]\.pin: pin "spread": unknown policy' '{"runs": [{"pin": "spread"}]}'
bad bad-cpus 'runs\[0\]\.pin: pin "cpus:0-999": outside the allowed CPUs' '{"runs": [{"pin": "cpus:0-999"}]}'
bad foreign-key 'runs\[0\]\.spin_budget: not a key of the workload\(s\) of this run' \
	'{"runs": [{"workload": "spin-tas", "spin_budget": 10}]}'
bad empty-list 'runs\[0\]\.noise: empty list' '{"runs": [{"noise": []}]}'
bad bad-loop 'runs\[0\]\.loop: "fast" is not one of sampled, bare, every' '{"runs": [{"loop": "fast"}]}'
bad bad-keep 'runs\[0\]\.keep: "threads" is not one of all, summary' '{"runs": [{"keep": "threads"}]}'
bad duplicate-key "duplicate object key" '{"runs": [{"noise": 1, "noise": 2}]}'

"$SB" run --config "$TMP/missing.json" --quiet 2>"$TMP/err"
rc=$?
check "config: missing file -> exit 2 naming it" test "$rc" -eq 2 -a -n "$(grep "missing.json" "$TMP/err")"

# Good input: every shipped config validates and expands.
for c in configs/*.json configs/replicate/*.json; do
	[ "$c" != configs/replicate/targets.json ] || continue # data, not a suite
	n=$("$SB" run --config "$c" --dry-run 2>"$TMP/err" | wc -l)
	check "config: $c validates and expands to $n runs" test "$n" -gt 0
done
# Lists sweep as a cartesian product; a point listed twice runs once.
printf '%s' '{"defaults": {"threads": [1, 2], "cs_ns": [0, 10, 100]},
  "runs": [{"workload": ["futex", "adaptive"], "spin_budget": [5, 50]}, {"workload": "futex"}]}' >"$TMP/sweep.json"
n=$("$SB" run --config "$TMP/sweep.json" --dry-run 2>/dev/null | wc -l)
# futex: 2x3 (spin_budget is not its key) + adaptive 2x3x2 = 6 + 12; the
# second run repeats futex's 6 points.
check "config: sweep expands to 18 distinct runs (got $n)" test "$n" -eq 18
# --planned-s: the seconds the runs plan, alone on stdout (what vm.sh's
# default timeout and studies.sh's estimate read): 2 runs x 3 x (2 + 0.5)
# s, and with ci_target_pct up to repetitions_max 8: 2 x 8 x 2.5.
printf '%s' '{"defaults": {"duration_s": 2, "warmup_s": 0.5, "repetitions": 3}, "runs": [{"workload": "spin-tas", "threads": [1, 2]}]}' >"$TMP/plan.json"
check "config: --planned-s prints the plan's seconds alone (15)" \
	test "$("$SB" run --config "$TMP/plan.json" --planned-s 2>&1)" = 15
sed 's/"repetitions": 3/"repetitions": 3, "ci_target_pct": 2, "repetitions_max": 8/' "$TMP/plan.json" >"$TMP/plan8.json"
check "config: --planned-s counts repetitions_max when the interval may ask for it (40)" \
	test "$("$SB" run --config "$TMP/plan8.json" --planned-s 2>&1)" = 40
"$SB" run --config "$TMP/nothere.json" --planned-s >"$TMP/o" 2>"$TMP/e"
rc=$?
check "config: --planned-s of a missing config is exit 2, nothing on stdout (rc=$rc)" \
	eval 'test "$rc" -eq 2 && test ! -s "$TMP/o" && grep -q "nothere.json" "$TMP/e"'
if "$SB" run --config "$TMP/sweep.json" --dry-run 2>/dev/null | grep -q '^[0-9]* adaptive .*"spin_budget":50'; then
	ok "config: workload keys reach their workload's params"
else
	notok "config: spin_budget missing from adaptive params"
fi
