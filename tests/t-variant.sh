#!/bin/bash
# tier: all
# needs: initramfs kernel-none
# t-variant.sh - the `none` kernel variant (kernel/build.sh --variant none:
# the guest kernel with preempt=none and voluntary offered again) boots
# under preempt=none with configs/ci.json; the guest's debugfs
# sched/preempt offers all four models with none in force, the result's
# meta names the variant and the model, and the extension grants.
# The kernel is built only when asked for (kernel/build.sh --variant none,
# or SLICEBENCH_VARIANT_BUILD=1 here): a compile is 10-20 min on 2 CPUs.
#   SLICEBENCH_VM_TESTS=0      leave the guest out (`make check-quick`)
#   SLICEBENCH_VM_ACCEL=auto   accelerator (default tcg, which works everywhere)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u
ACCEL=${SLICEBENCH_VM_ACCEL:-tcg}
if [ "${SLICEBENCH_VM_TESTS:-1}" = 0 ]; then
	ok "variant: none kernel under preempt=none # SKIP left out by SLICEBENCH_VM_TESTS=0"
	exit 0
fi
cannot() {
	notok "variant: none kernel under preempt=none: $1"
	exit 0
}
command -v qemu-system-x86_64 >/dev/null || cannot "qemu-system-x86_64 is not installed (scripts/install-deps.sh vm)"
[ -x "$SB" ] || cannot "no harness at $SB (run make)"

if ! bz=$(kernel/build.sh --variant none --print-path 2>"$TMP/p.err"); then
	[ "${SLICEBENCH_VARIANT_BUILD:-0}" = 1 ] ||
		cannot "the none variant is not in the cache ($(tail -n 1 "$TMP/p.err")); build it with kernel/build.sh --variant none, or run this with SLICEBENCH_VARIANT_BUILD=1"
	bz=$(kernel/build.sh --variant none 2>"$TMP/b.err" | tail -n 1) || {
		tail -n 20 "$TMP/b.err"
		cannot "kernel/build.sh --variant none failed"
	}
fi
ok "variant: the none kernel is built ($bz)"
krel=$(cat "$(kernel/build.sh --variant none --print-dir)/kernelrelease")
case "$krel" in
*-none) ok "variant: its release names it ($krel)" ;;
*) notok "variant: its release names it ($krel, want *-none)" ;;
esac

# check_r DESCRIPTION JQ-EXPRESSION: on the result
R="$TMP/none.json"
check_r() {
	if jq -e "$2" "$R" >/dev/null 2>&1; then ok "$1"; else notok "$1"; fi
}
if scripts/vm.sh --config configs/ci.json --out "$R" --accel "$ACCEL" --variant none --preempt none \
	--no-calibration --quiet --keep "$TMP/keep" >"$TMP/vm.out" 2>"$TMP/vm.err"; then
	ok "variant: the none kernel runs ci.json under preempt=none"
else
	tail -n 30 "$TMP/vm.err"
	notok "variant: the none kernel runs ci.json under preempt=none"
fi
[ -f "$R" ] || cannot "no result written"
check_r "variant: debugfs sched/preempt offers none, voluntary, full and lazy, none in force ($(jq -r '.meta.preemption.source' "$R"))" \
	'.meta.preemption.source | test("^debugfs sched/preempt: \\(none\\) voluntary full lazy")'
check_r "variant: meta names the model (preemption.model, vm.preempt: none)" \
	'.meta.preemption.model == "none" and .meta.vm.preempt == "none"'
check_r "variant: meta names the variant (preemption.variant: $(jq -r '.meta.preemption.variant' "$R"))" \
	'.meta.preemption.variant == "none" and (.meta.cmdline | test("slicebench.variant=none"))'
check_r "variant: guest kernel release $krel" ".meta.kernel.release == \"$krel\""
check_r "variant: slice_test passed in the guest" '.meta.selftest.slice_test_verdict == "pass"'
# Under none no reschedule preempts the kernel, but every one reaches the
# exit to user space, where the extension is granted (kernel/entry/common.c:
# TIF_SLICE_EXT_SCHED is both NEED_RESCHED bits when !PREEMPT_RT).
g=$(jq '[.results[] | select(.workload == "slice-spin" and .label == "slice-grants") | .summary.rseq_stats.sgrant // 0] | add // 0' "$R")
check_r "variant: slice-spin ok and the kernel grants in its slice-grants windows (sgrant $g)" \
	"([.results[] | select(.workload == \"slice-spin\")] | length > 0 and all(.status == \"ok\")) and $g > 0"
check_r "variant: rseq/stats sgrant grew during the run ($(jq '.meta.rseq_stats.delta.sgrant' "$R"))" \
	'.meta.rseq_stats.delta.sgrant > 0'
