#!/bin/bash
# tier: all
# t-vmdebian.sh - Debian's own 7.3 kernel in the guest, the unpatched
# baseline: one boot of configs/ci.json.  The image is fetched into an
# empty kernel cache every time, so the download path a new machine takes
# runs on every `make check-all`.  In the same boot:
#   - the result says the guest ran Debian's kernel, --quiet shows no
#     guest line;
#   - slice-spin and slice-adaptive are unsupported with a reason, and
#     slice-spin's is exactly "compiled out, ENOTSUPP (524)" (the prctl is
#     there, the feature is not: the host kernel's EINVAL and the legacy
#     registration's reason are t-reasons.sh's).
#   SLICEBENCH_VM_ACCEL=auto   accelerator (default tcg, which works everywhere)
# needs: initramfs debian-image
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
ACCEL=${SLICEBENCH_VM_ACCEL:-tcg}
vm_prereqs "vm: debian kernel run" jq

D="$TMP/debian.json"
mkdir -p "$TMP/cold-cache"
if SLICEBENCH_CACHE="$TMP/cold-cache" scripts/vm.sh --config configs/ci.json --out "$D" --kernel debian \
	--accel "$ACCEL" --no-selftest --no-calibration --quiet >"$TMP/vmd.out" 2>"$TMP/vmd.err"; then
	ok "vm: debian kernel run of ci.json"
else
	sed 's/^/# /' "$TMP/vmd.err" | tail -n 20
	notok "vm: debian kernel run of ci.json"
	exit 0
fi
if grep -q '^guest: ' "$TMP/vmd.err"; then notok "vm: --quiet shows no guest line"; else ok "vm: --quiet shows no guest line"; fi
drel=$(jq -r '.meta.kernel.release // ""' "$D")
case "$drel" in
*deb*) ok "vm: debian guest kernel is Debian's ($drel)" ;;
*) notok "vm: debian guest kernel is Debian's (the guest ran '$drel')" ;;
esac
for w in slice-spin slice-adaptive; do
	check "vm: $w unsupported on debian with a reason" jq -e --arg w "$w" \
		'[.results[] | select(.workload == $w)] | length > 0 and
		 all(.status == "unsupported" and (.reason // "") != "")' "$D"
done
got=$(jq -r '[.results[] | select(.workload == "slice-spin") | "\(.status): \(.reason)"] | unique | join(" | ")' "$D")
want="unsupported: prctl(PR_RSEQ_SLICE_EXTENSION) failed with ENOTSUPP (524): kernel $drel is built without CONFIG_RSEQ_SLICE_EXTENSION"
if [ "$got" = "$want" ]; then
	ok "reasons: Debian's kernel $drel in the guest: ENOTSUPP, compiled out"
else
	notok "reasons: Debian's kernel $drel in the guest: ENOTSUPP, compiled out"
	printf '#   got:  %s\n#   want: %s\n' "$got" "$want"
fi
