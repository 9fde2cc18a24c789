#!/bin/bash
# tier: guest
# t-vmwarm.sh - the batched guest boot (tests/guest-batch.sh: patched
# kernel, TCG, a 2 s warm-up and the calibration) runs
# tests/guest/warm.json, a one-run config and an A/A pair: the result's meta records the
# warm-up (the time asked, the time taken, one probe p99 per pass, every
# one a positive number) and the calibration's cross-check (cyclictest ran
# in the initramfs, its cycles and p99 positive, the loaded probe's five
# p99s with their spread, a ratio between the two, the host's load), and
# an A/A pair that stops on its check.  No speed is asserted: the machine
# is shared.
# SLICEBENCH_VM_TESTS=0 leaves it out.
# needs: initramfs guest-kernel guest-lazy
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
vm_prereqs "vm: warm-up: guest run" jq cyclictest
cannot() {
	notok "vm: warm-up: guest run: $1"
	exit 0
}
# shellcheck source=tests/artefacts.sh
. tests/artefacts.sh
G=$(artefact_path guest-lazy 2>"$TMP/g.err") || cannot "$(cat "$TMP/g.err")"
# The A/A pair stops its arms (check_margin_pct): a guest with the
# extension is what lets the real arm run at all.  What the check decides
# is the guest's noise; how the arms stop is asserted, and that it is
# compare's own test (harness/lib/aatest.c: the arms took turns, so by
# rounds, every window kept); compare reads the windows as the result
# stores them, to 10 significant digits, so the two agree to 1e-6.
P=$G/warm.json
if [ -f "$P" ]; then
	ok "vm: warm-up: guest run"
else
	sed 's/^[0-9.]* /# /' "$G/vm.err" | tail -n 20
	cannot "no result from the batched boot (vm.sh exit $(cat "$G/status"))"
fi
jqcheck() { # jqcheck DESCRIPTION FILTER: the filter is true of the result
	check "vm: warm-up: $1" jq -e "$2" "$P"
}
jqcheck "meta.vm.warmup: 2 s asked, at least that taken, one probe p99 > 0 per pass ($(jq -c .meta.vm.warmup "$P"))" \
	'.meta.vm.warmup | .requested_s == 2 and .elapsed_s >= 2 and .passes >= 1 and
	 (.probe_p99_us | length) == .passes and all(.probe_p99_us[]; type == "number" and . > 0)'
jqcheck "cyclictest ran in the guest: cycles and p99 > 0 ($(jq -c .meta.vm.calibration.cyclictest "$P"))" \
	'.meta.vm.calibration.cyclictest | .cycles > 0 and .p99_us > 0 and .max_us >= .p99_us - 1 and
	 (.cmdline | test("-p 10 -i 1000"))'
jqcheck "the ratio is the loaded probe's p99 over cyclictest's" \
	'.meta.vm.calibration | .cyclictest.probe_p99_us == .victim_us["loaded-fifo"].p99 and
	 (.cyclictest.ratio_p99 - .cyclictest.probe_p99_us / .cyclictest.p99_us | fabs) < 0.01'
jqcheck "the loaded probe's five p99s, min <= median <= max, all > 0" \
	'.meta.vm.calibration.victim_us["loaded-fifo"].p99_spread |
	 .n == 5 and (.each | length) == 5 and .min > 0 and .min <= .median and .median <= .max'
jqcheck "the host's load when the guest calibrated" \
	'.meta.vm.calibration.host_load | .loadavg_1 >= 0 and .runnable >= 1 and .tasks >= .runnable'
check "vm: warm-up: vm.sh's guest floor line shows the spread and cyclictest" \
	grep -q 'guest floor: .*loaded-fifo p99 .* (5 probes: min .*cyclictest p99 .*warm-up probe p99' "$G/vm.err"

# The pair: slice-spin (run 1) and slice-dry (run 2) stop together.
jqcheck "aa: both arms carry one check, each naming the other ($(jq -c '[.results[1,2].interleave.check | {n, decided, stopped_by, partner}]' "$P"))" \
	'([.results[1,2] | .status == "ok" and (.interleave.check | type) == "object"] | all) and
	 .results[1].interleave.check.partner == 2 and .results[2].interleave.check.partner == 1 and
	 (.results[1].interleave.check | del(.partner)) == (.results[2].interleave.check | del(.partner))'
jqcheck "aa: looks at 3, 6 and 8 windows, each at 0.05 / 3" \
	'.results[1].interleave.check | .looks == [3, 6, 8] and (.level - 0.05 / 3 | fabs) < 1e-9 and .margin_pct == 50'
jqcheck "aa: each arm ran the check's windows, a look's count" \
	'.results[1].interleave.check.n as $n | ([.results[1,2] | .repetitions | length == $n] | all) and
	 ([3, 6, 8] | index($n)) != null'
jqcheck "aa: decided before the maximum and stopped by it, or run to the maximum of 8" \
	'[.results[1,2] | .interleave.check as $c | .summary.repetitions_auto.stopped_by as $b |
	  if $c.stopped_by == "check" then $c.decided != null and $c.n < 8 and $b == "check"
	  else $c.stopped_by == "maximum" and $c.n == 8 and $b != "check" end] | all'
check "vm: warm-up: aa: validate accepts the result" "$SB" validate "$P"
cmp=$("$SB" compare --within "$P" --baseline slice-dry --format json 2>/dev/null || echo null)
check "vm: warm-up: aa: compare reads the check at a look's level" \
	jqe '.aa_checks[0].sequential | (.level - 0.05 / 3 | fabs) < 1e-9 and .looks == 3' <<<"$cmp"
rc=$(jq -c '.results[1].interleave.check' "$P")
check "vm: warm-up: aa: the runner stopped on compare's test, by rounds (runner $(jq -c '{ratio, design, n_real}' <<<"$rc"), compare $(jq -c '.aa_checks[0] | {ratio, design, n_real}' <<<"$cmp"))" \
	jqe --argjson r "$rc" '.aa_checks[0] | (.ratio - $r.ratio | fabs) < 1e-6 and
	  .design == "rounds" and $r.design == "rounds" and .n_real == $r.n and
	  .collapsed == $r.collapsed' <<<"$cmp"
