#!/usr/bin/env bash
# tier: host
# t-kvmprobe.sh - scripts/vm.sh's KVM probe against a QEMU that fails the
# ways a host's KVM fails: an internal error that pauses the guest (a host
# offering PVM-only KVM), a refusal at start, a guest that never prints.
# The probe must give up at that sign, not at its 20 s limit, fall back to
# TCG, and keep its verdict for this host boot and QEMU version so the
# next run does not probe again.  The stand-in QEMU writes down each
# start and how it was asked to accelerate, and never boots anything.
# needs: initramfs
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u
cd "$(dirname "$0")/.." || exit 2
[ -x "$SB" ] || { notok "kvmprobe: no harness at $SB (run make)"; exit 0; }

mkdir -p "$TMP/bin"
# fake qemu: MODE from $TMP/mode; records "-accel X" of each start
cat >"$TMP/bin/qemu-system-x86_64" <<EOS
#!/bin/bash
if [ "\$1" = --version ]; then echo "QEMU emulator version 0.0.0-standin"; exit 0; fi
accel=""
while [ \$# -gt 0 ]; do [ "\$1" = -accel ] && accel=\$2; shift; done
echo "\$accel" >>"$TMP/starts"
case "\$accel:\$(cat "$TMP/mode")" in
kvm*:internal) echo "KVM internal error. Suberror: 1" >&2; echo "emulation failure" >&2; exec sleep 60 ;;
kvm*:refuse) echo "Could not access KVM kernel module: No such file or directory" >&2
	echo "qemu-system-x86_64: -accel kvm: failed to initialize kvm: No such file or directory" >&2; exit 1 ;;
kvm*:silent) exec sleep 60 ;;
*) echo "stand-in QEMU: not booting under \$accel" >&2; exit 1 ;;
esac
EOS
chmod +x "$TMP/bin/qemu-system-x86_64"
: >"$TMP/kvm"   # a writable stand-in for /dev/kvm
K="$TMP/bzImage"  # any file: the stand-in boots nothing
: >"$K"

probe() { # probe MODE CACHE: one vm.sh run; its log in $TMP/MODE.err
	echo "$1" >"$TMP/mode"
	: >"$TMP/starts"
	PATH="$TMP/bin:$PATH" SLICEBENCH_KVM_DEV="$TMP/kvm" SLICEBENCH_CACHE="$2" \
		scripts/vm.sh --config configs/ci.json --out "$TMP/$1.json" --kernel "$K" \
		--no-selftest --no-calibration --quiet --timeout 30 >/dev/null 2>"$TMP/$1.err"
}

for mode in internal refuse silent; do
	C="$TMP/cache-$mode"
	probe "$mode" "$C"
	starts=$(tr '\n' ' ' <"$TMP/starts")
	line=$(grep -m1 'KVM probe' "$TMP/$mode.err")
	want=125
	[ "$mode" = silent ] && want=126
	check "kvmprobe: $mode: the probe fails on the sign, not at its time limit ($line)" \
		grep -q "KVM probe fails.*(status $want)" "$TMP/$mode.err"
	check "kvmprobe: $mode: vm.sh falls back to TCG after one KVM start (starts: $starts)" \
		test "$(grep -c '^kvm' "$TMP/starts")" -eq 1 -a "$(grep -c '^tcg' "$TMP/starts")" -ge 1
	# the verdict is kept: a second run on this boot starts QEMU under TCG
	# only (each run builds an initramfs, ~10 s: one mode shows it)
	[ "$mode" = internal ] || continue
	probe "$mode" "$C"
	starts=$(tr '\n' ' ' <"$TMP/starts")
	check "kvmprobe: $mode: the second run reuses the verdict, no KVM start (starts: $starts; $(grep -m1 'KVM probe' "$TMP/$mode.err"))" \
		test "$(grep -c '^kvm' "$TMP/starts")" -eq 0 -a -n "$(grep 'verdict of this host boot reused' "$TMP/$mode.err")"
done
vf=$(find "$TMP/cache-internal/kvm-probe" -type f)
check "kvmprobe: the verdict is named by host boot and QEMU version (${vf##*/})" \
	bash -c "case '${vf##*/}' in '$(cat /proc/sys/kernel/random/boot_id)-QEMU_emulator_version_0.0.0-standin'*) ;; *) exit 1 ;; esac"

# --accel tcg never probes
echo internal >"$TMP/mode"
: >"$TMP/starts"
PATH="$TMP/bin:$PATH" SLICEBENCH_KVM_DEV="$TMP/kvm" SLICEBENCH_CACHE="$TMP/cache-tcg" \
	scripts/vm.sh --config configs/ci.json --out "$TMP/t.json" --kernel "$K" --accel tcg \
	--no-selftest --no-calibration --quiet --timeout 30 >/dev/null 2>"$TMP/tcg.err"
check "kvmprobe: --accel tcg starts no KVM guest ($(tr '\n' ' ' <"$TMP/starts"))" \
	test "$(grep -c '^kvm' "$TMP/starts")" -eq 0 -a ! -e "$TMP/cache-tcg/kvm-probe"
