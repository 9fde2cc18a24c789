#!/bin/bash
# tier: all
# t-baremetal.sh - the installable kernel for a real machine: build it as a
# user would (kernel/build.sh --bare-metal: Debian's source and our patches,
# Debian's own 7.3 cloud-amd64 configuration, configs/bare-metal.config on
# top, make bindeb-pkg), take the kernel out of the linux-image package the
# way dpkg would install it, boot that in the guest runner and check that it
# is this kernel, that the extension is there, and that it grants.
# localmodconfig with an empty module list keeps the build to the built-in
# part (the guest needs no module: its root is the initramfs, its console
# the built-in 8250 serial driver); on a real machine a user passes lsmod.
#   SLICEBENCH_VM_TESTS=0   leave the build and the boot out
# needs: initramfs baremetal-deb
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
ACCEL=${SLICEBENCH_VM_ACCEL:-tcg}

if [ "${SLICEBENCH_VM_TESTS:-1}" = 0 ]; then
	echo "ok vm: baremetal: packaged kernel # SKIP left out by SLICEBENCH_VM_TESTS=0"
	exit 0
fi
[ -x "$SB" ] || { notok "vm: baremetal: no harness at $SB (run make)"; exit 0; }

# shellcheck source=tests/artefacts.sh
. tests/artefacts.sh
read -r -a args <<<"$(artefact_args baremetal-deb)"
if ! kernel/build.sh "${args[@]}" >"$TMP/build.out" 2>"$TMP/build.err"; then
	tail -n 20 "$TMP/build.err" | sed 's/^/# /'
	notok "vm: baremetal: kernel/build.sh ${args[*]} builds"
	exit 0
fi
deb=$(tail -n 1 "$TMP/build.out")
case $deb in
*.deb) ;;
*) notok "vm: baremetal: the last line of build.sh is a .deb (got '$deb')"; exit 0 ;;
esac
check "vm: baremetal: build.sh ${args[*]} gives a linux-image package (${deb##*/})" \
	bash -c "dpkg-deb -f '$deb' Package | grep -q '^linux-image-.*-slicebench$'"

# What `dpkg -i` would put in /boot.
mkdir -p "$TMP/root"
dpkg-deb -x "$deb" "$TMP/root"
vmlinuz=$(find "$TMP/root/boot" -name 'vmlinuz-*' -print -quit)
cfg=$(find "$TMP/root/boot" -name 'config-*' -print -quit)
if [ -z "$vmlinuz" ] || [ -z "$cfg" ]; then
	notok "vm: baremetal: the package holds /boot/vmlinuz-* and /boot/config-*"
	exit 0
fi
ok "vm: baremetal: the package holds ${vmlinuz#"$TMP/root"} and ${cfg#"$TMP/root"}"
for opt in CONFIG_RSEQ_SLICE_EXTENSION=y CONFIG_RSEQ_STATS=y CONFIG_PREEMPT_DYNAMIC=y CONFIG_IKCONFIG_PROC=y; do
	check "vm: baremetal: its config has $opt" grep -qx "$opt" "$cfg"
done
krel=${vmlinuz##*/vmlinuz-}

# One short run that grants in the patched guest (ci.json's slice-grants
# shape): 2 threads per PU, a 2 us critical section, two CPU hogs.
cat >"$TMP/bm.json" <<'JSON'
{"name": "baremetal-boot", "defaults": {"duration_s": 0.5, "warmup_s": 0.05, "repetitions": 2,
  "cs_ns": 2000, "think_ns": 200, "slice_trace": 0},
 "runs": [{"workload": ["slice-spin", "slice-adaptive"], "threads": "2x", "pin": "oversubscribe:2", "noise": 2}]}
JSON
R="$TMP/bm-result.json"
# vm.sh --kernel bare-metal boots the same package (build.sh's cache):
# the release it ran must be the one extracted above.
if scripts/vm.sh --config "$TMP/bm.json" --out "$R" --kernel bare-metal --accel "$ACCEL" \
	--no-selftest --no-calibration --quiet >"$TMP/vm.out" 2>"$TMP/vm.err"; then
	ok "vm: baremetal: the packaged kernel boots in the guest runner"
else
	tail -n 20 "$TMP/vm.err" | sed 's/^/# /'
	notok "vm: baremetal: the packaged kernel boots in the guest runner"
	exit 0
fi
# shellcheck disable=SC2016 # $k is jq's
check "vm: baremetal: vm.sh --kernel bare-metal ran the package's $krel" \
	jq -e --arg k "$krel" '.meta.kernel.release == $k and .meta.vm.kernel == "bare-metal"' "$R"
for w in slice-spin slice-adaptive; do
	g=$(jq --arg w "$w" '[.results[] | select(.workload == $w and .status == "ok"
		and all(.repetitions[]; .exclusion_ok)) | .summary.rseq_stats.sgrant // 0] | add // 0' "$R")
	check "vm: baremetal: $w ok, exact, and the kernel granted (sgrant $g)" test "$g" -gt 0
done
