#!/bin/bash
# Run one slicebench suite inside a QEMU guest and collect its result JSON.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/vmchan.sh
. "$REPO/scripts/vmchan.sh"
SB="$REPO/build/slicebench"
KERNEL=patched
VARIANT=default
ACCEL=auto
SMP=2
MEM=1024
PREEMPT=""
SLICE_EXT=""
TIMEOUT="" # unset: from the config's plan (below)
CONFIG=""
OUT=""
SELFTEST=1
TRACE=0
KEEP=""
EXTRA_META=()
ALSO=()
GUEST_ENV=()
HARNESS_ARGS=""
QUIET=0
CALIBRATE=1
# Seconds of warm-up before the calibration and the suite (kernel/README.md,
# "Warming the guest up": under TCG the first probe after boot reads 15-20x
# the later ones)
WARMUP=6
TIMER_BOOTS=3
HOST_RT=auto
PIN_VCPUS=0
APPEND=""
TB_SIZE=""
CHECK_ONLY=0

usage() {
	cat <<EOF
usage: scripts/vm.sh --config FILE --out FILE.json [options]

Boots a guest kernel with an initramfs holding the harness, runs
"slicebench run --config FILE" inside and writes the result JSON to --out
(via a temp file and rename, only if the transfer was complete and valid).

  --config FILE         suite config (a configs/*.json file)
  --out FILE            result JSON to write (a new path or a regular file,
                        replaced; checked before the build: if the write
                        still fails, the guest's files are kept and named)
  --also CONFIG=OUT     one more config run in the same boot, after --config,
                        its result written to OUT with the same meta (each
                        run's rseq/stats are its own); repeatable
  --kernel K            patched (default: kernel/build.sh, built on demand),
                        debian (Debian's own linux-image, slice extension off:
                        the unpatched baseline), bare-metal (the installable
                        package of kernel/build.sh --bare-metal with Debian's
                        configuration, built on demand: it has networking),
                        or a path to a bzImage
  --variant NAME        with --kernel patched: default, none (preempt=none
                        and voluntary offered again) or rt (PREEMPT_RT), as
                        kernel/build.sh --variant; the guest's meta records
                        it (preemption.variant)
  --accel A             auto (default: probe KVM, fall back to TCG), kvm, tcg
  --smp N               guest CPUs (default 2)
  --mem M               guest memory in MiB (default 1024)
  --preempt MODE        none|voluntary|full|lazy, passed as preempt=MODE.
                        7.3 on x86 offers only full and lazy (default lazy),
                        the none variant all four (none and voluntary are
                        refused on the others); the guest fails the run if
                        the mode did not take
  --slice-ext-nsec N    debugfs rseq/slice_ext_nsec in the guest (5000..50000;
                        up to 1000000 on the patched kernel)
  --timeout SECONDS     kill the guest after this long (default: 600 s for
                        the boot, self-test and calibration, plus twice the
                        config's planned windows, repetitions_max included,
                        from slicebench run --planned-s: TCG is slow)
  --no-selftest         skip the kernel's rseq slice_test (15 s)
  --trace               record the rseq_slice_* tracepoints in the guest
                        (patched kernel); the trace lands in --keep DIR
  --meta KEY=VALUE      extra --meta for the harness (no spaces)
  --harness-args A,B    extra harness arguments, comma separated (checked
                        first by slicebench run --check-args)
  --env NAME=VALUE      set NAME in the guest's environment (upper case, no
                        spaces; e.g. SLICEBENCH_NO_REEXEC=1)
  --keep DIR            keep the console log and raw channel in DIR
  --quiet               do not show the guest's progress lines
  --no-calibration      skip the guest's timing floor measurement (13 s
                        planned, before the suite, then cyclictest beside the
                        same load for 3 s; meta.vm.calibration)
  --warmup S            before the calibration and the suite, repeat the
                        calibration's loaded probe and the lock workloads'
                        kernel paths (configs/vm-warmup.json, about 3 s a
                        pass) until S seconds have passed (default $WARMUP;
                        0: none); meta.vm.warmup has each pass's probe p99
  --no-host-rt          leave QEMU's main loop at its normal priority (by
                        default, as root, it runs SCHED_FIFO 10 once the vCPU
                        threads exist: timers and interrupts reach the guest
                        on time; the vCPUs stay SCHED_OTHER)
  --pin-vcpus           pin vCPU thread i to host CPU i (default: the host
                        scheduler places them); meta.vm.host_sched says which
  --tb-size MIB         TCG's translation cache size (QEMU's tb-size; unset:
                        QEMU's default); a small one keeps evicting translated
                        guest code (meta.vm.tb_size_mib; kernel/README.md)
  --timer-boots N       boot up to N times (1..9, default 3) until the
                        guest's local APIC timer passes the kernel's boot check:
                        without it the guest has no high-resolution timers and
                        every wakeup waits for a 4 ms tick (kernel/README.md);
                        the last boot is kept whatever its timer
  --append ARGS         more guest kernel parameters (space separated, e.g.
                        "idle=poll"); the guest's meta.cmdline shows them
  --check-options       check the options and exit (0, or 2 naming the bad
                        one), building and booting nothing: scripts/slurm.sh
                        checks a plan's vm_args so before submitting
  -h, --help            this text

The guest's progress (each run's "[i/N] ... (ETA)" line, a failed run's
reason, the init's steps) is shown on stderr as "guest: ..." while it runs.
Ctrl-C (or SIGTERM) asks the guest to stop: the harness ends the run in
flight, the results so far come back and are written to --out (status
"interrupted" for what did not finish), QEMU is gone; a second Ctrl-C
stops at once and keeps nothing.

Exit: 0 ok, 1 guest failure (boot, timeout, harness, transfer), 2 usage,
130/143 interrupted by SIGINT/SIGTERM.
EOF
}

log() { printf 'vm.sh: %s\n' "$*" >&2; }
# a usage error is one line and where to read more, not the whole help
usage_err() { log "$*"; echo "try 'scripts/vm.sh --help'" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--config) CONFIG=${2:-}; shift 2 || usage_err "--config needs a value" ;;
	--out) OUT=${2:-}; shift 2 || usage_err "--out needs a value" ;;
	--also) ALSO+=("${2:-}"); shift 2 || usage_err "--also needs a value" ;;
	--kernel) KERNEL=${2:-}; shift 2 || usage_err "--kernel needs a value" ;;
	--variant) VARIANT=${2:-}; shift 2 || usage_err "--variant needs a value" ;;
	--accel) ACCEL=${2:-}; shift 2 || usage_err "--accel needs a value" ;;
	--smp) SMP=${2:-}; shift 2 || usage_err "--smp needs a value" ;;
	--mem) MEM=${2:-}; shift 2 || usage_err "--mem needs a value" ;;
	--preempt) PREEMPT=${2:-}; shift 2 || usage_err "--preempt needs a value" ;;
	--slice-ext-nsec) SLICE_EXT=${2:-}; shift 2 || usage_err "--slice-ext-nsec needs a value" ;;
	--timeout) TIMEOUT=${2:-}; TIMEOUT_SET=1; shift 2 || usage_err "--timeout needs a value" ;;
	--no-selftest) SELFTEST=0; shift ;;
	--trace) TRACE=1; shift ;;
	--meta) EXTRA_META+=("${2:-}"); shift 2 || usage_err "--meta needs a value" ;;
	--harness-args) HARNESS_ARGS=${2:-}; shift 2 || usage_err "--harness-args needs a value" ;;
	--env) GUEST_ENV+=("${2:-}"); shift 2 || usage_err "--env needs a value" ;;
	--keep) KEEP=${2:-}; shift 2 || usage_err "--keep needs a value" ;;
	--quiet) QUIET=1; shift ;;
	--no-host-rt) HOST_RT=off; shift ;;
	--no-calibration) CALIBRATE=0; shift ;;
	--warmup) WARMUP=${2:-}; shift 2 || usage_err "--warmup needs a value" ;;
	--pin-vcpus) PIN_VCPUS=1; shift ;;
	--append) APPEND=${2:-}; shift 2 || usage_err "--append needs a value" ;;
	--timer-boots) TIMER_BOOTS=${2:-}; shift 2 || usage_err "--timer-boots needs a value" ;;
	--tb-size) TB_SIZE=${2:-}; shift 2 || usage_err "--tb-size needs a value" ;;
	--check-options) CHECK_ONLY=1; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage_err "unknown option: $1" ;;
	esac
done

[ -n "$CONFIG" ] || usage_err "--config is required"
[ -n "$OUT" ] || usage_err "--out is required"
[ -f "$CONFIG" ] || usage_err "no such config: $CONFIG"
case "$CONFIG" in *.json) ;; *) usage_err "--config must be a .json file" ;; esac
# json_one OPTION FILE: FILE holds one JSON value, or exit 2 naming the
# option, the file and jq's line and column.  A config that is not JSON
# was found only by the harness in the guest, after the build and the boot.
json_one() {
	local n msg
	command -v jq >/dev/null || { log "jq missing: apt-get install -y jq"; exit 2; }
	if ! n=$(jq -s length -- "$2" 2>&1); then
		msg=${n%%$'\n'*}
		msg=${msg#jq: }
		msg=${msg#error: }
		msg=${msg#parse error: }
		if [[ "$msg" =~ ^(.*)\ at\ line\ ([0-9]+),\ column\ ([0-9]+)$ ]]; then
			usage_err "$1: $2:${BASH_REMATCH[2]}:${BASH_REMATCH[3]}: not JSON: ${BASH_REMATCH[1]}"
		fi
		usage_err "$1: $2: not JSON: $msg"
	fi
	[ "$n" != 0 ] || usage_err "$1: $2: not JSON: no value"
	[ "$n" = 1 ] || usage_err "$1: $2: not JSON: $n values, not one"
}
json_one --config "$CONFIG"
ALSO_CFG=() ALSO_OUT=()
for a in "${ALSO[@]}"; do
	case "$a" in *.json=?*) ;; *) usage_err "--also needs CONFIG.json=OUT: '$a'" ;; esac
	[ -f "${a%%=*}" ] || usage_err "--also: no such config: ${a%%=*}"
	json_one --also "${a%%=*}"
	ALSO_CFG+=("${a%%=*}")
	ALSO_OUT+=("${a#*=}")
done
case "$ACCEL" in auto|kvm|tcg) ;; *) usage_err "--accel: '$ACCEL' is not one of auto, kvm, tcg" ;; esac
case "$PREEMPT" in ""|none|voluntary|full|lazy) ;; *) usage_err "--preempt: '$PREEMPT' is not one of none, voluntary, full, lazy" ;; esac
# num OPTION VALUE MIN MAX: VALUE a decimal whole number in MIN..MAX, or
# exit 2 naming both.  No leading zero: shell arithmetic (here and in the
# guest's init) reads 08 as a bad octal number, after the boot; at most 9
# digits: 20 would wrap around.
num() {
	[[ "$2" =~ ^(0|[1-9][0-9]{0,8})$ ]] ||
		usage_err "$1: '$2' is not a whole number (decimal digits, no leading zero, at most 9)"
	if [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then usage_err "$1: $2 is out of range $3..$4"; fi
}
# 255: QEMU's pc machine refuses more ("The max CPUs supported by machine
# 'pc-i440fx-7.2' is 255"), but only once the kernel is built
num --smp "$SMP" 1 255
num --mem "$MEM" 1 999999999
[ -z "${TIMEOUT_SET:-}" ] || num --timeout "$TIMEOUT" 1 999999999
num --warmup "$WARMUP" 0 999999999
num --timer-boots "$TIMER_BOOTS" 1 9
[ -z "$SLICE_EXT" ] || num --slice-ext-nsec "$SLICE_EXT" 5000 1000000
# tb-size=0 is QEMU's default, which --tb-size unset already says
[ -z "$TB_SIZE" ] || num --tb-size "$TB_SIZE" 1 999999999
for kv in "${GUEST_ENV[@]}"; do
	[[ "$kv" =~ ^[A-Z_][A-Z0-9_]*=[^[:space:]]*$ ]] || usage_err "--env needs NAME=VALUE (upper case, no spaces): '$kv'"
done
for kv in "${EXTRA_META[@]}"; do
	case "$kv" in *=*) ;; *) usage_err "--meta needs KEY=VALUE: '$kv'" ;; esac
	case "$kv" in *[[:space:]]*) usage_err "--meta value must not contain spaces: '$kv'" ;; esac
done
[ -n "$VARIANT" ] || usage_err "--variant needs a value"
[ "$VARIANT" = default ] || [ "$KERNEL" = patched ] ||
	usage_err "--variant $VARIANT needs --kernel patched (the variants are builds of kernel/build.sh)"
# the variants are kernel/build.sh's, named as it names them
if [ "$VARIANT" != default ] &&
	{ [[ ! "$VARIANT" =~ ^[a-z0-9][a-z0-9-]*$ ]] || [ ! -d "$REPO/kernel/variants/$VARIANT" ]; }; then
	usage_err "--variant: no such variant '$VARIANT' (default$(cd "$REPO/kernel/variants" && printf ', %s' *))"
fi
case "$KERNEL" in
patched | debian | bare-metal) ;;
*) [ -f "$KERNEL" ] || usage_err "--kernel: no such file: $KERNEL" ;;
esac
# Linux 7.3 on x86 offers preempt=none and voluntary no more (only with
# PREEMPT_DYNAMIC's full and lazy); the none variant gives them back.  A
# bzImage of the user's own is taken at its word.
case "$KERNEL:$VARIANT:$PREEMPT" in
patched:none:*) ;;
patched:*:none | patched:*:voluntary | debian:*:none | debian:*:voluntary | bare-metal:*:none | bare-metal:*:voluntary)
	usage_err "--preempt: '$PREEMPT' is not offered by Linux 7.3 on x86 (full and lazy only; all four with --kernel patched --variant none)" ;;
esac
# The harness's own parser checks --harness-args as the guest's init
# passes them (split at commas, after the init's own arguments): an
# unknown option, a stray word or one that writes no result would end the
# guest's run after the build and the boot.
if [ -n "$HARNESS_ARGS" ]; then
	case "$HARNESS_ARGS" in *[[:space:]]*) usage_err "--harness-args: '$HARNESS_ARGS': no spaces (comma separated)" ;; esac
	[ -x "$SB" ] || { log "no harness at $SB to check --harness-args: run make"; exit 2; }
	IFS=, read -ra hargs <<<"$HARNESS_ARGS"
	if ! herr=$("$SB" run --check-args --config "$CONFIG" --out result.json "${hargs[@]}" 2>&1 >/dev/null); then
		usage_err "--harness-args: '$HARNESS_ARGS': ${herr%%$'\n'*}"
	fi
fi
[ "$CHECK_ONLY" = 0 ] || exit 0
command -v qemu-system-x86_64 >/dev/null || { log "qemu-system-x86_64 missing: apt-get install -y qemu-system-x86"; exit 2; }
[ -x "$SB" ] || { log "no harness at $SB: run make"; exit 2; }
# Every output is checked now as vmmeta will write it at the end (the
# harness's policy for `run --out`: only a new path or a regular file,
# replaced as vm.sh passes --force), not after the build and the boot.
check_out() { # check_out OPTION FILE
	local err
	err=$("$SB" vmmeta --check-out --out "$2" --force 2>&1 >/dev/null) ||
		usage_err "$1: ${err#slicebench vmmeta: }"
}
check_out --out "$OUT"
for o in "${ALSO_OUT[@]}"; do
	check_out --also "$o"
done
# The default timeout grows with the config: a fixed 600 s killed a
# 1080 s plan (configs/replicate/global-lock.json) halfway.  A config the
# harness refuses here is refused in the guest too, with its message.
TIMEOUT_WHY="--timeout"
if [ -z "$TIMEOUT" ]; then
	planned=0
	for c in "$CONFIG" "${ALSO_CFG[@]}"; do
		p=$("$SB" run --config "$c" --planned-s 2>/dev/null) || p=0
		planned=$((planned + ${p:-0}))
	done
	TIMEOUT=$((600 + 2 * planned))
	TIMEOUT_WHY="600 s + twice the $planned s the configs plan"
fi

# ------------------------------------------------------------- kernel
case "$KERNEL" in
patched)
	# an unknown variant is build.sh's usage error (2), said there
	brc=0
	BZ=$("$REPO/kernel/build.sh" --variant "$VARIANT" | tail -n 1) || brc=$?
	[ "$brc" = 0 ] || { [ "$brc" = 2 ] && exit 2; log "kernel build failed (variant $VARIANT)"; exit 1; }
	KIND=patched ;;
debian)
	BZ=$("$REPO/kernel/build.sh" --debian-image | tail -n 1) || { log "cannot fetch Debian's kernel"; exit 1; }
	KIND=debian ;;
bare-metal)
	# The installable kernel (Debian's 7.3 cloud-amd64 configuration, the
	# suite's patches and bare-metal fragment), with no modules: the guest
	# loads none.  It has what the guest kernel leaves out, networking
	# above all (a server and its client over loopback: memcached).
	BMDIR=$(mktemp -d)
	printf 'Module                  Size  Used by\n' >"$BMDIR/lsmod"
	deb=$("$REPO/kernel/build.sh" --bare-metal --base-config debian --localmodconfig="$BMDIR/lsmod" |
		tail -n 1) || { log "kernel build failed (bare-metal package)"; rm -rf "$BMDIR"; exit 1; }
	dpkg-deb --fsys-tarfile "$deb" | tar -x -O --wildcards './boot/vmlinuz-*' >"$BMDIR/bzImage" &&
		[ -s "$BMDIR/bzImage" ] || { log "no /boot/vmlinuz-* in $deb"; rm -rf "$BMDIR"; exit 1; }
	BZ=$BMDIR/bzImage
	KIND=bare-metal ;;
*)
	[ -f "$KERNEL" ] || usage_err "--kernel: no such file: $KERNEL"
	BZ=$KERNEL
	KIND=custom ;;
esac

WORK=$(mktemp -d)
QPID=""
FPID=""
STOP_SIG=""
# shellcheck disable=SC2317  # called from the EXIT trap
cleanup() {
	if [ -n "$FPID" ]; then
		kill "$FPID" 2>/dev/null || true
	fi
	if [ -n "$QPID" ] && kill -0 "$QPID" 2>/dev/null; then
		kill "$QPID" 2>/dev/null || true
		sleep 1
		kill -9 "$QPID" 2>/dev/null || true
	fi
	if [ -n "$KEEP" ]; then
		mkdir -p "$KEEP"
		cp -f "$WORK"/*.log "$WORK"/*.chan "$KEEP"/ 2>/dev/null || true
		cp -f "$WORK"/files/* "$KEEP"/ 2>/dev/null || true
	fi
	rm -rf "$WORK" ${BMDIR:+"$BMDIR"}
}
# keep_files WHY: a result that cannot be written where asked is not
# thrown away with $WORK: the guest's files go to --keep DIR or to a new
# directory, named with the command that merges them again.
KEPT=""
keep_files() {
	log "$1"
	if [ -z "$KEPT" ]; then
		if [ -n "$KEEP" ]; then
			KEPT=$KEEP
		elif ! KEPT=$(mktemp -d "${TMPDIR:-/tmp}/slicebench-vm-files.XXXXXX") ||
			! cp -a "$WORK/files/." "$KEPT/"; then
			log "cannot keep the guest's files either"
			return 0
		fi
	fi
	log "the guest's files are kept in $KEPT (slicebench vmmeta --files $KEPT --out FILE --wall $elapsed writes the result)"
}
trap cleanup EXIT
# The first SIGINT/SIGTERM asks the guest to stop (kernel/init reads
# "STOP" on its third serial port and interrupts the harness, which
# writes what completed); the guest then ships its files as usual.
# A second one, or one before QEMU runs, ends at once.
# shellcheck disable=SC2317  # called from the traps
on_signal() {
	local sig=$1 code=$2
	if [ -n "$STOP_SIG" ] || [ -z "$QPID" ] || [ ! -p "$WORK/ctl.in" ]; then
		log "interrupted (SIG$sig): stopping QEMU, nothing kept"
		exit "$code"
	fi
	STOP_SIG=$sig
	log "interrupted (SIG$sig): asking the guest to stop and send what completed (again to abandon it)"
	printf 'STOP\n' >"$WORK/ctl.in" || true
}
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap 'exit 1' HUP

# ------------------------------------------------------------- initramfs
CFGNAME=$(basename "$CONFIG" .json)
mkdir -p "$WORK/configs"
cp "$CONFIG" "$WORK/configs/"
# the --also configs as also-1.json, ...: their names may clash
ALSO_NAMES=""
for i in "${!ALSO_CFG[@]}"; do
	cp "${ALSO_CFG[$i]}" "$WORK/configs/also-$((i + 1)).json"
	ALSO_NAMES=${ALSO_NAMES:+$ALSO_NAMES,}also-$((i + 1))
done
[ "$CALIBRATE" = 0 ] || cp "$REPO/configs/vm-calibration.json" "$REPO/configs/vm-load.json" "$WORK/configs/"
[ "$WARMUP" = 0 ] || cp "$REPO/configs/vm-warmup.json" "$WORK/configs/"
# slice_test comes from the patched build (it also runs, and fails or
# skips, on kernels without the extension: that is recorded, not fatal)
ST_ARGS=()
if KBDIR=$("$REPO/kernel/build.sh" --print-dir --variant "$VARIANT" 2>/dev/null) && [ -x "$KBDIR/slice_test" ]; then
	ST_ARGS=(--slice-test "$KBDIR/slice_test")
fi
"$REPO/kernel/mkinitramfs.sh" --out "$WORK/initramfs.gz" --configs "$WORK/configs" "${ST_ARGS[@]}" >/dev/null ||
	{ log "initramfs build failed"; exit 1; }

# ------------------------------------------------------------- qemu
# run_qemu ACCEL TIMEOUT CMDLINE: console to $WORK/console.log, channel
# (ttyS1) to $WORK/result.chan; returns qemu's status, 124 on timeout
run_qemu() {
	local accel=$1 limit=$2 cmdline=$3 acc
	if [ "$accel" = kvm ]; then
		acc=(-accel kvm -cpu host)
	else
		acc=(-accel "tcg,thread=multi${TB_SIZE:+,tb-size=$TB_SIZE}" -cpu max)
	fi
	: >"$WORK/console.log"
	: >"$WORK/result.chan"
	rm -f "$WORK/ctl.in" "$WORK/ctl.out"
	mkfifo "$WORK/ctl.in" "$WORK/ctl.out"
	# setsid: the terminal's Ctrl-C goes to this script, which asks the
	# guest to stop, not to QEMU, which would die with the results.
	# ttyS2 is the stop channel (QEMU opens both FIFOs read-write, so
	# neither side blocks).
	# debug-threads: the vCPU threads are named "CPU n/TCG" (or /KVM),
	# which sched_qemu looks for
	setsid qemu-system-x86_64 "${acc[@]}" -smp "$SMP" -m "$MEM" -name slicebench,debug-threads=on \
		-nodefaults -no-user-config -display none -vga none -no-reboot \
		-kernel "$BZ" -initrd "$WORK/initramfs.gz" -append "$cmdline" \
		-chardev "file,id=con,path=$WORK/console.log" -serial chardev:con \
		-chardev "file,id=res,path=$WORK/result.chan" -serial chardev:res \
		-chardev "pipe,id=ctl,path=$WORK/ctl" -serial chardev:ctl \
		-monitor none </dev/null >"$WORK/qemu.log" 2>&1 &
	QPID=$!
	follow_console
	local t=0 stop_t="" sched_done=0
	HOST_SCHED="not set: the vCPU threads never appeared"
	HOST_LOAD=""
	while kill -0 "$QPID" 2>/dev/null; do
		if [ "$sched_done" = 0 ] && { sched_qemu || [ "$t" -ge 100 ]; }; then
			sched_done=1
		fi
		# the host's load as the guest starts calibrating (to 0.1 s)
		if [ -z "$HOST_LOAD" ] && [ "$CALIBRATE" = 1 ] && [ "$((t % 2))" = 0 ] &&
			grep -q 'slicebench-init: calibrating' "$WORK/console.log" 2>/dev/null; then
			HOST_LOAD=$(cat /proc/loadavg)
		fi
		# after a stop request the guest has a minute to ship its files
		if [ -n "$STOP_SIG" ] && [ -z "$stop_t" ]; then
			stop_t=$t
			limit=$(((t + 600) / 10))
		fi
		if [ "$t" -ge "$((limit * 10))" ]; then
			kill "$QPID" 2>/dev/null || true
			sleep 0.5
			kill -9 "$QPID" 2>/dev/null || true
			wait "$QPID" 2>/dev/null || true
			QPID=""
			return 124
		fi
		# a broken KVM pauses the guest instead of exiting (125); a probe
		# whose guest printed nothing in time gives up too (126)
		local brk=0
		if [ "$accel" = kvm ]; then
			if grep -q -i -E "$KVM_FAILED" "$WORK/qemu.log" 2>/dev/null; then
				brk=125
			elif [ "${KVM_PROBE:-0}" = 1 ] && [ "$t" -ge $((KVM_FIRST_LINE_S * 10)) ] && [ ! -s "$WORK/console.log" ]; then
				brk=126
			fi
		fi
		# a guest whose local APIC timer failed its check (the kernel
		# disables it: no one-shot clock event, so no high-resolution
		# timers) is not worth measuring while another boot may pass it;
		# the message comes before user space (123)
		if [ "${TIMER_KILL:-0}" = 1 ] && [ "$t" -lt 600 ] &&
			grep -q "$APIC_FAILED" "$WORK/console.log" 2>/dev/null; then
			brk=123
		fi
		if [ "$brk" != 0 ]; then
			kill -9 "$QPID" 2>/dev/null || true
			wait "$QPID" 2>/dev/null || true
			QPID=""
			return "$brk"
		fi
		sleep 0.1
		t=$((t + 1))
	done
	local rc=0
	wait "$QPID" || rc=$?
	QPID=""
	# QEMU that exits on a KVM error may leave before the loop saw the
	# line: the same sign, the same status
	if [ "$accel" = kvm ] && [ "$rc" != 0 ] && grep -q -i -E "$KVM_FAILED" "$WORK/qemu.log" 2>/dev/null; then
		rc=125
	fi
	if [ -n "$FPID" ]; then
		wait "$FPID" 2>/dev/null || true
		FPID=""
	fi
	return "$rc"
}

# How the host schedules QEMU is part of the instrument: with QEMU's main
# loop (timers, interrupt delivery) at SCHED_OTHER beside busy vCPU threads,
# a guest timer can fire milliseconds late and a SCHED_FIFO probe in the
# guest sees a p99 of ~5 ms; with the main loop alone at SCHED_FIFO it is
# ~0.2 ms on a 2-CPU TCG host.  The vCPU threads must exist first: created
# after the change, they would inherit SCHED_FIFO and starve the main loop.
# Returns 0 once the vCPU threads were found (and the policy applied).
sched_qemu() {
	local tid comm vcpus=() i=0 ncpu what
	for tid in /proc/"$QPID"/task/*; do
		comm=$(cat "$tid/comm" 2>/dev/null) || continue
		case "$comm" in "CPU "*) vcpus+=("${tid##*/}") ;; esac
	done
	[ "${#vcpus[@]}" -ge "$SMP" ] || return 1
	what="vCPUs SCHED_OTHER"
	if [ "$PIN_VCPUS" = 1 ]; then
		ncpu=$(nproc)
		for tid in "${vcpus[@]}"; do
			taskset -p -c "$((i % ncpu))" "$tid" >/dev/null 2>&1 || true
			i=$((i + 1))
		done
		what+=", pinned to host CPUs 0..$((i - 1))"
	else
		what+=", placed by the host scheduler"
	fi
	if [ "$HOST_RT" = off ]; then
		HOST_SCHED="main loop SCHED_OTHER (--no-host-rt), $what"
	elif [ "$(id -u)" != 0 ]; then
		HOST_SCHED="main loop SCHED_OTHER (not root: cannot raise it), $what"
	elif chrt -f -p 10 "$QPID" >/dev/null 2>&1; then
		HOST_SCHED="main loop SCHED_FIFO 10, $what"
	else
		HOST_SCHED="main loop SCHED_OTHER (chrt failed), $what"
	fi
	return 0
}

# The guest's progress, live: the harness's "[i/N] ... (ETA ...)" lines,
# a failed run's reason line, the init's steps.  Kernel messages, the
# selftest's TAP and the final table stay in the console log.  tail ends
# by itself once QEMU is gone.
follow_console() {
	FPID=""
	[ "$QUIET" = 1 ] && return 0
	tail -n +1 -F --pid="$QPID" "$WORK/console.log" 2>/dev/null |
		sed -u -n -E 's/\r$//; /^(\[[0-9]+\/[0-9]+\] |        [a-z]+: |slicebench-init: |slicebench: )/s/^/guest: /p' >&2 &
	FPID=$!
}

BASE_CMDLINE="console=ttyS0,115200 panic=-1 oops=panic loglevel=6"

# The KVM probe boots the guest to its first user-space line.  It gives up
# at the first sign of failure, not at a timeout: an error line from QEMU
# (KVM_FAILED below), QEMU's exit, or a console still empty after
# KVM_FIRST_LINE_S (a KVM guest prints its first kernel line well under a
# second after start; a host whose KVM cannot run guests, such as one that
# offers only PVM, pauses the vCPU with "KVM internal error" instead).  The
# verdict is kept per host boot and QEMU version, so the next run on the
# same boot does not probe again.
KVM_DEV=${SLICEBENCH_KVM_DEV:-/dev/kvm}
KVM_FAILED='KVM internal error|kvm run failed|KVM: entry failed|failed to initialize kvm|Could not access KVM|emulation failure|kvm_init_vcpu.*failed'
KVM_FIRST_LINE_S=5
kvm_verdict_file() {
	local boot qv
	boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null) || return 1
	qv=$(qemu-system-x86_64 --version 2>/dev/null | head -n 1 | tr -c 'A-Za-z0-9.+~-' _)
	printf '%s/kvm-probe/%s-%s\n' "${SLICEBENCH_CACHE:-/var/cache/slicebench}" "$boot" "$qv"
}
kvm_works() {
	[ -w "$KVM_DEV" ] || return 1
	local rc=0 vf verdict
	if vf=$(kvm_verdict_file) && [ -f "$vf" ]; then
		verdict=$(cat "$vf")
		log "KVM probe: verdict of this host boot reused ($vf): $verdict"
		[ "$verdict" = works ]
		return
	fi
	KVM_PROBE=1 run_qemu kvm 20 "$BASE_CMDLINE slicebench.probe=1" || rc=$?
	if [ "$rc" = 0 ] && grep -q SLICEBENCH-USERSPACE "$WORK/console.log"; then
		verdict=works
	else
		verdict="fails (status $rc): $(grep -m1 -i -E "$KVM_FAILED|error|fail" "$WORK/qemu.log" ||
			tail -n 1 "$WORK/qemu.log" || true)"
		[ "$rc" = 126 ] && verdict="fails (status 126): the guest printed nothing in ${KVM_FIRST_LINE_S} s"
		log "KVM probe $verdict"
	fi
	if [ -n "$vf" ] && mkdir -p "${vf%/*}" 2>/dev/null; then
		printf '%s\n' "$verdict" >"$vf.tmp.$$" && mv -f "$vf.tmp.$$" "$vf"
	fi
	[ "$verdict" = works ]
}

case "$ACCEL" in
auto)
	if kvm_works; then
		ACCEL=kvm
	else
		ACCEL=tcg
		log "warning: KVM does not work here, falling back to TCG (slow, timings are not comparable to hardware)"
	fi ;;
kvm)
	kvm_works || { log "KVM requested but it does not work"; exit 1; } ;;
esac

# ------------------------------------------------------------- the run
HOST_KERNEL=$(uname -r)
CMDLINE="$BASE_CMDLINE slicebench.config=$CFGNAME slicebench.selftest=$SELFTEST"
[ -z "$ALSO_NAMES" ] || CMDLINE="$CMDLINE slicebench.also=$ALSO_NAMES"
[ -n "$PREEMPT" ] && CMDLINE+=" preempt=$PREEMPT"
[ "$KIND" = patched ] && CMDLINE+=" slicebench.variant=$VARIANT"
# PREEMPT_RT threads every interrupt handler; under TCG the result port's
# (ttyS1, IRQ 3) transmit interrupts then outrun its thread, the kernel's
# spurious-interrupt check (kernel/irq/spurious.c, "irq 3: nobody cared")
# disables the line and the result never arrives: it is left out there.
[ "$KIND$VARIANT" != patchedrt ] || CMDLINE+=" noirqdebug"
KDESC=$KIND
[ "$KIND" != patched ] || KDESC="patched ($VARIANT variant)"
[ -n "$SLICE_EXT" ] && CMDLINE+=" slicebench.slice_ext_nsec=$SLICE_EXT"
[ -n "$HARNESS_ARGS" ] && CMDLINE+=" slicebench.args=$HARNESS_ARGS"
[ "$TRACE" = 1 ] && CMDLINE+=" slicebench.trace=1"
[ "$CALIBRATE" = 1 ] && CMDLINE+=" slicebench.calibrate=1"
[ "$WARMUP" = 0 ] || CMDLINE+=" slicebench.warmup=$WARMUP"
[ -n "$APPEND" ] && CMDLINE+=" $APPEND"
CMDLINE+=" slicebench.meta.vm.accel=$ACCEL slicebench.meta.vm.kernel=$KIND"
CMDLINE+=" slicebench.meta.vm.host_kernel=$HOST_KERNEL slicebench.meta.vm.smp=$SMP slicebench.meta.vm.mem_mib=$MEM"
[ -n "$PREEMPT" ] && CMDLINE+=" slicebench.meta.vm.preempt_requested=$PREEMPT"
[ -n "$TB_SIZE" ] && [ "$ACCEL" = tcg ] && CMDLINE+=" slicebench.meta.vm.tb_size_mib=$TB_SIZE"
for kv in "${EXTRA_META[@]}"; do
	CMDLINE+=" slicebench.meta.$kv"
done
# The kernel hands a parameter with "=" and no "." to init as an environment
# variable (init/main.c, unknown_bootoption), and init's children inherit it.
for kv in "${GUEST_ENV[@]}"; do
	CMDLINE+=" $kv"
done

# One boot and the decoding of its channel; sets gstatus.
boot_once() {
	log "booting $KDESC kernel ($BZ) with $ACCEL, $SMP cpus, $MEM MiB, timeout ${TIMEOUT}s ($TIMEOUT_WHY)"
	rm -rf "$WORK/files"
	t0=$(date +%s.%N)
	rc=0
	run_qemu "$ACCEL" "$TIMEOUT" "$CMDLINE" || rc=$?
	t1=$(date +%s.%N)
	elapsed=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	if [ "$rc" = 124 ] && [ -n "$STOP_SIG" ]; then
		log "the guest did not stop within 60 s of the request: killed, nothing kept"
		exit "$(stop_code)"
	fi
	if [ "$rc" = 124 ]; then
		log "guest did not finish within ${TIMEOUT}s: killed (console tail below)"
		tail -n 20 "$WORK/console.log" >&2
		exit 1
	fi
	if [ "$rc" = 123 ]; then gstatus=incomplete; return 0; fi
	[ "$rc" = 0 ] || log "qemu exited with status $rc"
	userspace=$(sed -n 's/.*SLICEBENCH-USERSPACE \([0-9.]*\).*/\1/p;T;q' "$WORK/console.log")
	log "guest finished in ${elapsed}s (userspace at ${userspace:-never} s guest uptime)"
	decode
}

# Checks every frame's size and sha256, requires SLICEBENCH-DONE, writes
# the files into $WORK/files, sets gstatus to the guest status.
decode() {
	gstatus=$(vmchan_decode "$WORK/result.chan" "$WORK/files")
}

stop_code() {
	case "$STOP_SIG" in INT) echo 130 ;; TERM) echo 143 ;; *) echo 1 ;; esac
}

# A guest kernel that panics is booted again, up to three boots in all;
# the result records each panic.  Under TCG a static key flipped while the
# other vCPU runs the patched code can execute half a rewritten
# instruction: Debian's cloud kernel hit an invalid opcode in __schedule
# while the harness enabled its tracepoint, and the packaged bare-metal
# kernel (Debian's configuration) a fault at __schedule+0x30e, inside a
# 5-byte NOP, 6 s into boot, on both boots that vm.sh then allowed.
# Under TCG the local APIC timer's boot check (arch/x86/kernel/apic/apic.c,
# calibrate_APIC_clock: the timer's ticks against the PIT's jiffies over
# 100 ms) fails when the host deschedules a vCPU during it; the kernel then
# disables the timer, and without a one-shot clock event hrtimers stay in
# low-resolution mode: every sleep ends on the next 4 ms tick (HZ 250).
# Such a boot is killed at the message and booted again, up to
# --timer-boots boots; the last one runs whatever its timer.
APIC_FAILED="APIC timer disabled due to verification failure"
RETRIED=""
boots=1
tboots=1
while :; do
	TIMER_KILL=0
	[ "$ACCEL" != tcg ] || [ "$tboots" -ge "$TIMER_BOOTS" ] || TIMER_KILL=1
	boot_once
	[ "$rc" = 123 ] && [ -z "$STOP_SIG" ] || break
	why="guest boot $tboots: $APIC_FAILED (no high-resolution timers)"
	RETRIED=${RETRIED:+$RETRIED; }$why
	log "warning: $why; booting once more"
	tboots=$((tboots + 1))
done
TIMER_KILL=0
while [ -z "$STOP_SIG" ] && [ "$gstatus" = incomplete ] && [ "$boots" -lt 3 ] &&
	grep -q "Kernel panic" "$WORK/console.log"; do
	why="guest kernel panic on boot $boots: $(sed -n -E '/RIP:|Kernel panic/{s/^\[[ 0-9.]*\] //;p;q}' "$WORK/console.log")"
	RETRIED=${RETRIED:+$RETRIED; }$why
	log "warning: $why; booting once more"
	boots=$((boots + 1))
	boot_once
done
if [ -f "$WORK/files/slice_test.tap" ]; then
	log "slice_test: $(sed -n -E '/^# (PASSED|FAILED|Totals)|^(not )?ok /p' "$WORK/files/slice_test.tap" | tr '\n' ';')"
fi
if [ "$gstatus" = incomplete ]; then
	log "guest output was incomplete; console tail:"
	tail -n 30 "$WORK/console.log" >&2
	exit 1
fi
if [ ! -f "$WORK/files/result.json" ]; then
	log "guest sent no result.json (guest status $gstatus); console tail:"
	tail -n 30 "$WORK/console.log" >&2
	[ -z "$STOP_SIG" ] || exit "$(stop_code)"
	exit 1
fi
# Add what only the host sees: boot timing and the guest's rseq/stats
# counters (before and after the harness, and their difference).  A
# result.json that is not JSON is named with its line and column.
host=(--wall "$elapsed" --host-sched "$HOST_SCHED")
[ -z "${userspace:-}" ] || host+=(--userspace "$userspace")
[ -z "$RETRIED" ] || host+=(--retried "$RETRIED")
[ -z "$STOP_SIG" ] || host+=(--interrupted "$STOP_SIG")
[ "$CALIBRATE" = 0 ] || host+=(--calibrate)
[ -z "$HOST_LOAD" ] || host+=(--host-load "$HOST_LOAD")
if ! "$SB" vmmeta --files "$WORK/files" --out "$OUT" --force "${host[@]}"; then
	keep_files "cannot merge the VM meta into the guest's result"
	exit 1
fi
log "wrote $OUT"
# Each --also result, with the boot's files and its own rseq/stats.
for i in "${!ALSO_OUT[@]}"; do
	n=also-$((i + 1))
	d=$WORK/files-$n
	mkdir -p "$d"
	for f in "$WORK"/files/*; do
		case "${f##*/}" in result.json | rseq_stats | rseq_stats.before | *.also-*) ;;
		*) ln -s "$f" "$d/" ;; esac
	done
	for f in result.json rseq_stats rseq_stats.before; do
		[ ! -f "$WORK/files/$f.$n" ] || ln -s "$WORK/files/$f.$n" "$d/$f"
	done
	if [ ! -f "$d/result.json" ]; then
		log "guest sent no result for --also ${ALSO_CFG[$i]} (guest status $gstatus)"
		gstatus=1
	elif "$SB" vmmeta --files "$d" --out "${ALSO_OUT[$i]}" --force "${host[@]}"; then
		log "wrote ${ALSO_OUT[$i]}"
	else
		keep_files "cannot merge the VM meta into the result of ${ALSO_CFG[$i]}"
		gstatus=1
	fi
done
# The floor with its spread over the probes, cyclictest beside the same
# load, the host's load then, and how the warm-up converged.
floor="$(jq -r '.meta.vm | (.calibration.victim_us // {} | to_entries | map("\(.key) p99 \(.value.p99) us" +
	(.value.p99_spread // null | if . then " (\(.n) probes: min \(.min) median \(.median) max \(.max))" else "" end)) | join(", ")) +
	(.calibration.cyclictest.p99_us // null | if . then "; cyclictest p99 \(.) us" else "" end) +
	(.calibration.cyclictest.ratio_p99 // null | if . then " (probe/cyclictest \(.))" else "" end) +
	(.calibration.host_load // null | if . then "; host load \(.loadavg_1) \(.loadavg_5) \(.loadavg_15), \(.runnable) runnable" else "" end) +
	(.warmup.probe_p99_us // null | if . then "; warm-up probe p99 \(map(tostring) | join(" -> ")) us" else "" end)' "$OUT" 2>/dev/null || true)$(
	jq -r '.meta.timers // empty | if .high_resolution then "; high-resolution timers (tick device \(.clockevent))"
		else "; NO high-resolution timers: clock_getres \(.monotonic_res_ns) ns, tick device \(.clockevent): every wakeup waits for a tick" end' "$OUT" 2>/dev/null || true)"
log "guest floor: ${floor#; }"

if [ -n "$STOP_SIG" ]; then
	log "interrupted: $OUT holds what completed"
	exit "$(stop_code)"
fi
if [ "$gstatus" != 0 ]; then
	log "guest reported status $gstatus; console tail:"
	tail -n 20 "$WORK/console.log" >&2
	exit 1
fi
exit 0
