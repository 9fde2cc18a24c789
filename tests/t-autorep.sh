#!/usr/bin/env bash
# tier: quick
# t-autorep.sh - ci_target_pct repeats a run until the ops/s interval is
# narrow enough or repetitions_max is reached, and says which stopped it.
# A wide target stops before the maximum, an unreachable one at it;
# validate checks the count against the record; a bad value is refused.
# With check_margin_pct an arm without a dry partner stops on its own
# target through the interleaved turns (the pairs themselves need a kernel
# with the extension: tests/t-vmwarm.sh), and the key is refused without
# interleave or a target.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

cfg() { # cfg OUT TARGET MAX
	cat >"$1" <<CFG
{ "name": "autorep",
  "defaults": { "duration_s": 0.1, "warmup_s": 0.02, "repetitions": 2, "ci_target_pct": $2,
                "repetitions_max": $3, "cs_ns": 1000, "think_ns": 1000, "events": [] },
  "runs": [ { "workload": "spin-tas", "threads": 1, "pin": "compact" } ] }
CFG
}
cfg "$TMP/wide.json" 100 8
cfg "$TMP/tight.json" 0.000001 4
for t in wide tight; do
	if ! "$SB" run -c "$TMP/$t.json" --out "$TMP/$t.out.json" --quiet 2>"$TMP/err"; then
		notok "autorep: the $t run failed: $(cat "$TMP/err")"
		exit 0
	fi
done
w=$(jq -c '.results[0]' "$TMP/wide.out.json")
n=$(jq '.repetitions | length' <<<"$w")
check "autorep: a 100% target stops on the target before the maximum of 8 ($(jq -c .summary.repetitions_auto <<<"$w"))" \
	jqe '(.repetitions | length) < 8 and .summary.repetitions_auto.stopped_by == "target"
	       and .summary.repetitions_auto.half_width_pct <= 100 and .summary.ops_per_sec.n == '"$n" <<<"$w"
t=$(jq -c '.results[0]' "$TMP/tight.out.json")
check "autorep: an unreachable target runs to repetitions_max 4 ($(jq -c .summary.repetitions_auto <<<"$t"))" \
	jqe '(.repetitions | length) == 4 and .summary.repetitions_auto.stopped_by == "maximum"
	       and .summary.repetitions_auto.max == 4 and .summary.ops_per_sec.n == 4' <<<"$t"
check "autorep: validate accepts both" "$SB" validate "$TMP/wide.out.json" "$TMP/tight.out.json"
jq '.results[0].repetitions |= .[0:3]' "$TMP/tight.out.json" >"$TMP/cut.json"
"$SB" validate "$TMP/cut.json" >/dev/null 2>"$TMP/verr"
check "autorep: validate catches a count that disagrees with the record: $(head -1 "$TMP/verr")" \
	grep -q 'summary.repetitions_auto.n: must equal the number of repetitions' "$TMP/verr"
cfg "$TMP/neg.json" -1 4
"$SB" run -c "$TMP/neg.json" --out "$TMP/neg.out.json" --quiet 2>"$TMP/err"
rc=$?
check "autorep: ci_target_pct -1 is refused with exit 2, naming the key: $(head -1 "$TMP/err")" \
	test "$rc" = 2 -a -n "$(grep ci_target_pct "$TMP/err")" -a ! -e "$TMP/neg.out.json"

# check_margin_pct: an arm with no A/A partner (no dry control beside it)
# stops on its own target, through the parent's turns; the key needs
# interleave and a target, and says so naming itself and the value.
cat >"$TMP/own.json" <<'CFG'
{ "name": "autorep-check", "interleave": true, "seed": 1,
  "defaults": { "duration_s": 0.1, "warmup_s": 0.02, "repetitions": 2, "ci_target_pct": 100,
                "repetitions_max": 8, "check_margin_pct": 10, "cs_ns": 1000, "think_ns": 1000,
                "events": [] },
  "runs": [ { "workload": "spin-tas", "threads": 1, "pin": "compact" } ] }
CFG
if ! "$SB" run -c "$TMP/own.json" --out "$TMP/own.out.json" --quiet 2>"$TMP/err"; then
	notok "autorep: the check_margin_pct run failed: $(cat "$TMP/err")"
else
	o=$(jq -c '.results[0]' "$TMP/own.out.json")
	check "autorep: an arm with check_margin_pct and no partner stops on its own target ($(jq -c .summary.repetitions_auto <<<"$o"))" \
		jqe '(.repetitions | length) < 8 and .summary.repetitions_auto.stopped_by == "target"
		       and (.interleave.check == null)' <<<"$o"
fi
jq 'del(.interleave)' "$TMP/own.json" >"$TMP/noil.json"
"$SB" run -c "$TMP/noil.json" --out "$TMP/noil.out.json" --quiet 2>"$TMP/err"
rc=$?
check "autorep: check_margin_pct without interleave is refused with exit 2: $(head -1 "$TMP/err")" \
	test "$rc" = 2 -a -n "$(grep -F 'check_margin_pct (runs[0]): 10 needs "interleave": true' "$TMP/err")" -a ! -e "$TMP/noil.out.json"
jq '.defaults.ci_target_pct = 0' "$TMP/own.json" >"$TMP/noci.json"
"$SB" run -c "$TMP/noci.json" --out "$TMP/noci.out.json" --quiet 2>"$TMP/err"
rc=$?
check "autorep: check_margin_pct without ci_target_pct is refused with exit 2" \
	test "$rc" = 2 -a -n "$(grep -F 'ci_target_pct > 0' "$TMP/err")" -a ! -e "$TMP/noci.out.json"

# The plan counts the repetitions the run makes: a target makes at least
# two, even when repetitions and repetitions_max say one, so --planned-s
# (the ETA, the watchdog) must count two.  One second a repetition keeps
# the rounded seconds apart.
cat >"$TMP/one.json" <<'CFG'
{ "name": "autorep-one",
  "defaults": { "duration_s": 0.9, "warmup_s": 0.1, "repetitions": 1, "ci_target_pct": 100,
                "repetitions_max": 1, "cs_ns": 1000, "think_ns": 1000, "events": [] },
  "runs": [ { "workload": "spin-tas", "threads": 1, "pin": "compact" } ] }
CFG
plan=$("$SB" run -c "$TMP/one.json" --planned-s 2>"$TMP/err")
if ! "$SB" run -c "$TMP/one.json" --out "$TMP/one.out.json" --quiet 2>"$TMP/err"; then
	notok "autorep: the repetitions_max 1 run failed: $(cat "$TMP/err")"
else
	made=$(jq '[.results[] | (.repetitions | length) * (.params.warmup_s + .params.duration_s)]
		   | add | round' "$TMP/one.out.json")
	check "autorep: --planned-s with a target and repetitions_max 1 plans the ${made} s the run makes (planned ${plan} s)" \
		test "$plan" = "$made" -a "$made" = 2
fi
