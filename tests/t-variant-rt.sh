#!/bin/bash
# tier: all
# needs: initramfs kernel-rt
# t-variant-rt.sh - the `rt` kernel variant (kernel/build.sh --variant rt:
# the guest kernel with CONFIG_PREEMPT_RT) boots under preempt=lazy with
# configs/ci.json: the kernel says PREEMPT_RT, debugfs sched/preempt offers
# full and lazy only, the result's meta names the variant and the model,
# and the extension grants.  Then under preempt=full, where the kernel
# sets no lazy reschedule request and PREEMPT_RT extends only those
# (kernel/entry/common.c, TIF_SLICE_EXT_SCHED), it grants nothing.
#   SLICEBENCH_VM_TESTS=0      leave the guest out (`make check-quick`)
#   SLICEBENCH_VM_ACCEL=auto   accelerator (default tcg, which works everywhere)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u
ACCEL=${SLICEBENCH_VM_ACCEL:-tcg}
vm_prereqs "variant-rt: rt kernel under preempt=lazy and full"
cannot() {
	notok "variant-rt: rt kernel under preempt=lazy and full: $1"
	exit 0
}
# prepared before the first test (tests/prepare.sh); never built here
bz=$(kernel/build.sh --variant rt --print-path 2>"$TMP/p.err") ||
	cannot "the rt variant is not in the cache ($(tail -n 1 "$TMP/p.err")); build it with kernel/build.sh --variant rt"
ok "variant-rt: the rt kernel is built ($bz)"
kdir=$(kernel/build.sh --variant rt --print-dir)
krel=$(cat "$kdir/kernelrelease")
case "$krel" in
*-rt) ok "variant-rt: its release names it ($krel)" ;;
*) notok "variant-rt: its release names it ($krel, want *-rt)" ;;
esac
check "variant-rt: its configuration has PREEMPT_RT and the extension" \
	test "$(grep -cxE 'CONFIG_(PREEMPT_RT|RSEQ_SLICE_EXTENSION)=y' "$kdir/build/.config")" -eq 2

# boot MODEL [vm.sh options]: ci.json under preempt=MODEL into $TMP/MODEL.json
boot() {
	local m=$1
	shift
	if scripts/vm.sh --variant rt --preempt "$m" --config configs/ci.json --out "$TMP/$m.json" \
		--accel "$ACCEL" --no-calibration --quiet "$@" >"$TMP/$m.out" 2>"$TMP/$m.err"; then
		ok "variant-rt: the rt kernel runs ci.json under preempt=$m"
	else
		tail -n 30 "$TMP/$m.err"
		notok "variant-rt: the rt kernel runs ci.json under preempt=$m"
	fi
}
# grants M: sgrant of the slice-spin windows labelled slice-grants
grants() {
	jq '[.results[] | select(.workload == "slice-spin" and .label == "slice-grants") | .summary.rseq_stats.sgrant // 0] | add // 0' "$1"
}

boot lazy
R="$TMP/lazy.json"
[ -f "$R" ] || cannot "no result written under preempt=lazy"
check "variant-rt: the kernel says PREEMPT_RT ($(jq -r '.meta.kernel.version' "$R"))" \
	jq -e '.meta.kernel.version | test("PREEMPT_RT")' "$R"
check "variant-rt: debugfs sched/preempt offers full and lazy only, lazy in force ($(jq -r '.meta.preemption.source' "$R"))" \
	jq -e '.meta.preemption.source | test("^debugfs sched/preempt: full \\(lazy\\)$")' "$R"
check "variant-rt: meta names the model and the variant" \
	jq -e '.meta.preemption.model == "lazy" and .meta.vm.preempt == "lazy" and .meta.preemption.variant == "rt" and (.meta.cmdline | test("slicebench.variant=rt"))' "$R"
check "variant-rt: guest kernel release $krel" jq -e ".meta.kernel.release == \"$krel\"" "$R"
check "variant-rt: slice_test passed in the guest" jq -e '.meta.selftest.slice_test_verdict == "pass"' "$R"
g=$(grants "$R")
check "variant-rt: under lazy slice-spin is ok and the kernel grants (sgrant $g)" \
	jq -e "([.results[] | select(.workload == \"slice-spin\")] | length > 0 and all(.status == \"ok\")) and $g > 0" "$R"

boot full --no-selftest
R="$TMP/full.json"
[ -f "$R" ] || cannot "no result written under preempt=full"
check "variant-rt: debugfs sched/preempt has full in force ($(jq -r '.meta.preemption.source' "$R"))" \
	jq -e '.meta.preemption.source | test("^debugfs sched/preempt: \\(full\\) lazy$")' "$R"
g=$(grants "$R")
d=$(jq '.meta.rseq_stats.delta.sgrant' "$R")
check "variant-rt: under full slice-spin is ok and nothing is granted (slice-grants sgrant $g, run's delta $d)" \
	jq -e "([.results[] | select(.workload == \"slice-spin\")] | length > 0 and all(.status == \"ok\")) and $g == 0 and .meta.rseq_stats.delta.sgrant == 0" "$R"
