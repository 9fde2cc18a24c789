#!/usr/bin/env bash
# guest-batch.sh DIR - one boot of the default patched kernel under
# preempt=lazy runs the configs of every guest check that needs that
# kernel and model (scripts/vm.sh --also), with the warm-up, the
# calibration and the kernel's slice_test:
#
#   DIR/ci.json          configs/ci.json              t-vm.sh
#   DIR/warm.json        tests/guest/warm.json        t-vmwarm.sh
#   DIR/slicetrace.json  tests/guest/slicetrace.json  t-slicetrace.sh
#
# and DIR/vm.err (vm.sh's stderr, each line with the time it arrived),
# DIR/status (vm.sh's exit status).  tests/prepare.sh builds it as the
# artefact guest-lazy before the first test; the checks read it and boot
# nothing, and each says its own name and the reason when the boot failed.
# Exit: vm.sh's status.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
DIR=${1:?usage: tests/guest-batch.sh DIR}
ACCEL=${SLICEBENCH_VM_ACCEL:-tcg}
mkdir -p "$DIR" || exit 2
rm -f "$DIR"/*.json "$DIR/status" "$DIR/vm.err"

# The batch: NAME=CONFIG, the first one vm.sh's --config.
BATCH=(ci=configs/ci.json warm=tests/guest/warm.json slicetrace=tests/guest/slicetrace.json)
args=(--config "${BATCH[0]#*=}" --out "$DIR/${BATCH[0]%%=*}.json")
for b in "${BATCH[@]:1}"; do
	args+=(--also "${b#*=}=$DIR/${b%%=*}.json")
done

# stamp: each line of stdin with the time it arrived
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N)" "$l"; done; }
scripts/vm.sh "${args[@]}" --accel "$ACCEL" --preempt lazy --warmup 2 2>&1 >/dev/null |
	stamp >"$DIR/vm.err"
rc=${PIPESTATUS[0]}
echo "$rc" >"$DIR/status"
exit "$rc"
