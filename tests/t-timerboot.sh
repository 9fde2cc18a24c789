#!/usr/bin/env bash
# tier: host
# t-timerboot.sh - scripts/vm.sh boots again when the guest's local APIC
# timer fails the kernel's boot check ("APIC timer disabled due to
# verification failure": no one-shot clock event, so no high-resolution
# timers and every wakeup waits for a tick), up to --timer-boots boots,
# and keeps the last boot whatever its timer.  The stand-in QEMU writes
# the kernel's line into the console on the boots the test says, records
# each start, and never boots anything.
# needs: initramfs
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u
cd "$(dirname "$0")/.." || exit 2
[ -x "$SB" ] || { notok "timerboot: no harness at $SB (run make)"; exit 0; }

mkdir -p "$TMP/bin"
# fake qemu: boot k (1-based) prints the APIC failure when line k of
# $TMP/plan is "fail", then lives 3 s and exits 1 (no result)
cat >"$TMP/bin/qemu-system-x86_64" <<EOS
#!/bin/bash
if [ "\$1" = --version ]; then echo "QEMU emulator version 0.0.0-standin"; exit 0; fi
con=""
for a in "\$@"; do
	case "\$a" in file,id=con,path=*) con=\${a#file,id=con,path=} ;; esac
done
echo start >>"$TMP/starts"
k=\$(wc -l <"$TMP/starts")
if [ "\$(sed -n "\${k}p" "$TMP/plan")" = fail ]; then
	echo "[    0.120000] APIC timer disabled due to verification failure" >>"\$con"
fi
sleep 3
exit 1
EOS
chmod +x "$TMP/bin/qemu-system-x86_64"
K="$TMP/bzImage" # any file: the stand-in boots nothing
: >"$K"

boot() { # boot NAME PLAN [vm.sh options]: one vm.sh run, log in $TMP/NAME.err
	local name=$1
	printf '%s\n' $2 >"$TMP/plan"
	shift 2
	: >"$TMP/starts"
	PATH="$TMP/bin:$PATH" scripts/vm.sh --kernel "$K" --config configs/ci.json \
		--out "$TMP/$name.json" --accel tcg --no-selftest --no-calibration --quiet --timeout 30 \
		"$@" >/dev/null 2>"$TMP/$name.err"
	rc=$?
	starts=$(wc -l <"$TMP/starts")
	again=$(grep -c 'APIC timer disabled due to verification failure (no high-resolution timers); booting once more' "$TMP/$name.err")
}

boot all "fail fail fail fail"
check "timerboot: every boot fails the check: 3 boots by default, 2 of them booted again (starts $starts, again $again)" \
	test "$starts" = 3 -a "$again" = 2
check "timerboot: ... and the last one is kept, not killed at the message: it ran to QEMU's exit (rc $rc)" \
	grep -q 'qemu exited with status 1' "$TMP/all.err"
check "timerboot: ... the boots are named in the warnings" \
	grep -q 'guest boot 2: APIC timer disabled' "$TMP/all.err"

boot second "fail ok ok"
check "timerboot: the second boot passes: 2 boots, 1 booted again (starts $starts, again $again)" \
	test "$starts" = 2 -a "$again" = 1

boot one "fail fail" --timer-boots 1
check "timerboot: --timer-boots 1 keeps the first boot (starts $starts, again $again)" \
	test "$starts" = 1 -a "$again" = 0

boot passes "ok fail"
check "timerboot: a boot whose timer passes is not booted again (starts $starts)" test "$starts" = 1

boot five "fail fail fail fail fail fail" --timer-boots 5
check "timerboot: --timer-boots 5: 5 boots (starts $starts, again $again)" \
	test "$starts" = 5 -a "$again" = 4

PATH="$TMP/bin:$PATH" scripts/vm.sh --config configs/ci.json --out "$TMP/x.json" --kernel "$K" \
	--timer-boots 10 --check-options 2>"$TMP/range.err"
rc=$?
check "timerboot: --timer-boots 10 is exit 2 naming the range (rc $rc: $(head -1 "$TMP/range.err"))" \
	test "$rc" = 2 -a -n "$(grep -F -- '--timer-boots: 10 is out of range 1..9' "$TMP/range.err")"
