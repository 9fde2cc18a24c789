#!/bin/bash
# tier: guest
# t-reasons.sh - the reason a slice workload records as "unsupported", from
# real runs on each kernel and registration this machine can produce (the
# injected answers are in tests/unit/slicewhy.c, a seccomp filter on the
# host there too):
#   - the host kernel (before 7.0: EINVAL, or built without the extension:
#     ENOTSUPP), the harness run here;
#   - the patched kernel in the guest with glibc's own 32-byte registration
#     kept (SLICEBENCH_NO_REEXEC: the harness does not re-execute itself
#     with glibc.pthread.rseq=0), the legacy mode Linux 7.1 and 7.0.10
#     refuse the extension in.
# Debian's own 7.3 kernel in the guest (compiled out, ENOTSUPP) is
# t-vmdebian.sh's, in the same boot as its ci.json run.
#   SLICEBENCH_VM_TESTS=0   leave the guest boot out
# needs: initramfs guest-kernel
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
ACCEL=${SLICEBENCH_VM_ACCEL:-tcg}

[ -x "$SB" ] || { notok "reasons: no harness at $SB (run make)"; exit 0; }

# one short slice-spin run: the reason is decided before the first thread runs
printf '%s\n' '{"name": "reasons", "defaults": {"duration_s": 0.05, "warmup_s": 0, "repetitions": 1},
  "runs": [{"workload": ["slice-spin"], "threads": 2}]}' >"$TMP/reasons.json"

# reason_is FILE DESCRIPTION WANT: slice-spin is unsupported with exactly WANT
reason_is() {
	local got
	got=$(jq -r '[.results[] | select(.workload == "slice-spin") | "\(.status): \(.reason)"] | unique | join(" | ")' "$1")
	if [ "$got" = "unsupported: $3" ]; then
		ok "$2"
	else
		notok "$2"
		printf '#   got:  %s\n#   want: unsupported: %s\n' "$got" "$3"
	fi
}

# --- the host kernel
rel=$(uname -r)
if "$SB" run --config "$TMP/reasons.json" --out "$TMP/host.json" --quiet 2>"$TMP/host.err"; then
	# what this kernel answers decides which of the two must be named
	if [ -r /proc/config.gz ] && zgrep -qx 'CONFIG_RSEQ_SLICE_EXTENSION=y' /proc/config.gz; then
		if jq -e '[.results[] | select(.workload == "slice-spin") | .status] | unique == ["ok"]' "$TMP/host.json" >/dev/null; then
			ok "reasons: host kernel $rel has the extension, slice-spin ran"
		else
			notok "reasons: host kernel $rel has the extension but slice-spin did not run: $(jq -c '[.results[].reason]' "$TMP/host.json")"
		fi
	elif [ "$(printf '%s\n7.0\n' "${rel%%-*}" | sort -V | head -n 1)" != 7.0 ]; then
		reason_is "$TMP/host.json" "reasons: host kernel $rel (before 7.0): EINVAL, no such prctl" \
			"prctl(PR_RSEQ_SLICE_EXTENSION) failed with EINVAL: kernel $rel has no such prctl (the extension came in Linux 7.0)"
	else
		reason_is "$TMP/host.json" "reasons: host kernel $rel without the extension: ENOTSUPP, compiled out" \
			"prctl(PR_RSEQ_SLICE_EXTENSION) failed with ENOTSUPP (524): kernel $rel is built without CONFIG_RSEQ_SLICE_EXTENSION"
	fi
else
	notok "reasons: host run failed: $(tail -n 3 "$TMP/host.err")"
fi

if [ "${SLICEBENCH_VM_TESTS:-1}" = 0 ]; then
	echo "ok reasons: legacy registration in the guest # SKIP left out by SLICEBENCH_VM_TESTS=0"
	exit 0
fi
if ! command -v qemu-system-x86_64 >/dev/null; then
	notok "reasons: legacy registration in the guest: qemu-system-x86_64 is not installed (scripts/install-deps.sh vm)"
	exit 0
fi
VMOPTS=(--config "$TMP/reasons.json" --accel "$ACCEL" --no-selftest --no-calibration --quiet)

# --- the patched kernel, glibc's 32-byte registration kept
# shellcheck source=tests/artefacts.sh
. tests/artefacts.sh
if ! BZ=$(artefact_path guest-kernel 2>"$TMP/bz.err"); then
	notok "reasons: legacy registration in the guest: the patched kernel is not built ($(tail -n 1 "$TMP/bz.err"))"
	exit 0
fi
if scripts/vm.sh "${VMOPTS[@]}" --kernel "$BZ" --env SLICEBENCH_NO_REEXEC=1 --out "$TMP/legacy.json" 2>"$TMP/legacy.err"; then
	kind=$(jq -r '.meta.slice_extension.registration // "none"' "$TMP/legacy.json")
	if [ "$kind" = "glibc legacy 32-byte area" ]; then
		ok "reasons: SLICEBENCH_NO_REEXEC keeps glibc's legacy area in the guest ($kind)"
	else
		notok "reasons: SLICEBENCH_NO_REEXEC keeps glibc's legacy area in the guest (registration: $kind)"
	fi
	reason_is "$TMP/legacy.json" "reasons: legacy registration on the patched kernel in the guest: ENOTSUPP, legacy mode named" \
		"prctl(PR_RSEQ_SLICE_EXTENSION_SET) failed with ENOTSUPP (524) although the extension is there: the thread's rseq area is a 32-byte legacy registration (glibc 2.35-2.40), refused since Linux 7.1 and 7.0.10; run with GLIBC_TUNABLES=glibc.pthread.rseq=0"
else
	tail -n 5 "$TMP/legacy.err" | sed 's/^/#   /'
	notok "reasons: legacy registration in the guest: vm.sh failed"
fi
