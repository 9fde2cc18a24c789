#!/bin/bash
# tier: guest
# t-vm.sh - the patched guest kernel (built or reused from the cache) runs
# configs/ci.json in the batched boot under preempt=lazy (tests/guest-batch.sh,
# the artefact guest-lazy) and the result is checked; then a boot of its
# own for Ctrl-C on `./run.sh --vm`.  Debian's own kernel is
# t-vmdebian.sh's (make check-all).
#   SLICEBENCH_VM_TESTS=0      leave the guest out
#   SLICEBENCH_VM_ACCEL=auto   accelerator (default tcg, which works everywhere)
# Anything else that stops a guest check is a "not ok" with the reason.
# needs: initramfs guest-kernel guest-lazy
set -euo pipefail
cd "$(dirname "$0")/.."
SB=${SB:-build/slicebench}
ACCEL=${SLICEBENCH_VM_ACCEL:-tcg}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { echo "ok $*"; }
notok() { echo "not ok $*"; }
skip_all() {
	echo "ok vm: patched kernel run # SKIP $1"
	exit 0
}
cannot() {
	notok "vm: patched kernel run: $1"
	exit 0
}

[ "${SLICEBENCH_VM_TESTS:-1}" = 0 ] && skip_all "left out by SLICEBENCH_VM_TESTS=0"
command -v qemu-system-x86_64 >/dev/null || cannot "qemu-system-x86_64 is not installed (scripts/install-deps.sh vm)"
command -v python3 >/dev/null || cannot "python3 is not installed (scripts/install-deps.sh vm)"
[ -x "$SB" ] || cannot "no harness at $SB (run make)"

# check_jq DESCRIPTION COMMAND...: lib.sh's check, which check below hides
check_jq() {
	local d=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$d"; else notok "$d"; fi
}

# check FILE DESCRIPTION PYTHON-EXPRESSION: d is the result, r(name) the
# results of one workload
check() {
	local file=$1 desc=$2 expr=$3
	if python3 - "$file" "$expr" <<'EOF'; then ok "$desc"; else notok "$desc"; fi
import json, sys
d = json.load(open(sys.argv[1]))
def r(name):
    return [x for x in d.get("results", []) if x.get("workload") == name]
def get(o, path, default=None):
    for k in path.split("."):
        if not isinstance(o, dict) or k not in o:
            return default
        o = o[k]
    return o
ok = eval(sys.argv[2])
if not ok:
    sys.stderr.write("check failed: " + sys.argv[2] + "\n")
sys.exit(0 if ok else 1)
EOF
}

# --- patched kernel
if ! kernel/build.sh >"$TMP/build.out" 2>"$TMP/build.err"; then
	tail -n 20 "$TMP/build.err"
	notok "vm: kernel/build.sh builds the patched kernel"
	exit 0
fi
ok "vm: kernel/build.sh builds the patched kernel"
KREL=$(cat "$(kernel/build.sh --print-dir)/kernelrelease")

if [ "$(kernel/build.sh --print-path 2>/dev/null)" = "$(tail -n 1 "$TMP/build.out")" ]; then
	ok "vm: build.sh --print-path names the cached bzImage"
else
	notok "vm: build.sh --print-path names the cached bzImage"
fi

# The batched boot: ci.json's result and vm.sh's stderr, stamped.
# shellcheck source=tests/artefacts.sh
. tests/artefacts.sh
G=$(artefact_path guest-lazy 2>"$TMP/g.err") || cannot "$(cat "$TMP/g.err")"
P="$G/ci.json"
nruns=$("$SB" run --config configs/ci.json --dry-run 2>/dev/null | wc -l)
if [ "$(cat "$G/status")" = 0 ] && [ -f "$P" ]; then
	ok "vm: patched kernel run of ci.json"
else
	sed 's/^[0-9.]* /# /' "$G/vm.err" | tail -n 30
	notok "vm: patched kernel run of ci.json (the batched boot: vm.sh exit $(cat "$G/status"))"
fi
n=$(grep -c " guest: \[[0-9]*/$nruns\] " "$G/vm.err")
check_n() { if [ "$2" = "$3" ]; then ok "$1 ($2)"; else notok "$1 ($2, want $3)"; fi; }
check_n "vm: every run's progress line reached the host" "$n" "$nruns"
first=$(sed -n -E "s/^([0-9.]+) guest: \\[1\\/$nruns\\] .*/\\1/p" "$G/vm.err")
last=$(tail -n 1 "$G/vm.err" | cut -d' ' -f1)
if [ -n "$first" ] && awk -v a="$first" -v b="$last" 'BEGIN { exit !(b - a > 5) }'; then
	ok "vm: progress arrives live (the first run's line $(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.0f", b - a }') s before the end)"
else
	notok "vm: progress arrives live (first run's line at ${first:-never}, end at $last)"
fi

# The guest's slowdown, measured in every boot (slicebench timescale): k
# over five passes of the calibrated loop, the extension's own path timed,
# the mapping, and every run stating its extension in host-equivalent ns.
check "$P" "vm: meta.vm.timescale: k over 5 passes (min <= median <= max), the mechanism's grants timed, nothing scaled (timescale off)" \
	"get(d, 'meta.vm.timescale.k.n') == 5 and 0 < get(d, 'meta.vm.timescale.k.min') <= get(d, 'meta.vm.timescale.k.median') <= get(d, 'meta.vm.timescale.k.max') and get(d, 'meta.vm.timescale.mechanism.grants_timed', 0) > 0 and get(d, 'meta.vm.timescale.mode') == 'off' and get(d, 'meta.vm.timescale.extension.in_force_ns') == 5000 and 'k_after_suite' in get(d, 'meta.vm.timescale')"
check "$P" "vm: every ok run states its host-equivalent extension (in force / k)" \
	"all(abs(x['slice_ext_host_ns'] * get(d, 'meta.timescale.slowdown') - x['slice_ext_nsec_in_force']) < 0.1 * get(d, 'meta.timescale.slowdown') for x in d['results'] if x.get('status') == 'ok')"
grep -q "guest slowdown: k " "$G/vm.err" && ok "vm: vm.sh printed the guest's slowdown" ||
	notok "vm: vm.sh printed no 'guest slowdown' line"

# Ctrl-C on `./run.sh --vm`: the guest stops at once, what completed comes
# back, no QEMU is left.  Job control gives the run its own process group,
# and the SIGINT goes to the whole group, as a terminal's Ctrl-C does (a
# non-interactive shell would start it with SIGINT ignored).  env
# --default-signal: a suite started in the background of a script (`cmd &`)
# inherits SIGINT ignored, and bash cannot trap a signal ignored at entry:
# vm.sh then ran to the end and exited 0.
set -m
I="$TMP/int.json"
env --default-signal=INT ./run.sh --vm --config configs/ci.json --out "$I" --accel "$ACCEL" --no-selftest --no-calibration \
	--no-plot 2>"$TMP/int.err" >/dev/null &
vpid=$!
set +m
qpids=""
for _ in $(seq 1 3000); do
	kill -0 "$vpid" 2>/dev/null || break
	if [ -z "$qpids" ]; then
		vmpid=$(pgrep -P "$vpid" -f scripts/vm.sh || true)
		[ -z "$vmpid" ] || qpids=$(pgrep -P "$vmpid" -f qemu-system-x86_64 || true)
	fi
	grep -q '^guest: \[3/' "$TMP/int.err" 2>/dev/null && break
	sleep 0.1
done
t0=$(date +%s%N)
kill -INT -- "-$vpid" 2>/dev/null
rc=0
wait "$vpid" || rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check_n "vm: Ctrl-C on ./run.sh --vm exits 130" "$rc" 130
if [ -f "$I" ] && jq -e '([.results[] | select(.status == "ok")] | length) >= 2 and
	(.results | last | .status) == "interrupted" and .meta.vm.interrupted == "SIGINT"' "$I" >/dev/null; then
	ok "vm: ... keeps the completed runs and marks the one in flight ($(jq '.results | length' "$I") results, ${ms} ms after the signal)"
else
	notok "vm: ... keeps the completed runs: $(jq -c '[.results[].status]' "$I" 2>&1 | head -c 300)"
fi
alive=""
for q in $qpids; do kill -0 "$q" 2>/dev/null && alive+=" $q"; done
if [ -n "$qpids" ] && [ -z "$alive" ]; then
	ok "vm: ... and leaves no QEMU process (was $qpids)"
else
	notok "vm: ... and leaves no QEMU process (started: ${qpids:-none seen}, alive:${alive:- none})"
fi
if [ -f "$P" ]; then
	check "$P" "vm: meta.vm.accel recorded" "get(d, 'meta.vm.accel') in ('tcg', 'kvm')"
	check "$P" "vm: guest kernel release is $KREL" "get(d, 'meta.kernel.release') == '$KREL' and get(d, 'meta.vm.guest_kernel') == '$KREL'"
	check "$P" "vm: guest ran preempt=lazy" "get(d, 'meta.vm.preempt') == 'lazy'"
	check "$P" "vm: slice_test passed in the guest" "get(d, 'meta.selftest.slice_test_verdict') == 'pass' and 'PASSED' in (get(d, 'meta.selftest.slice_test') or '')"
	# Every run ok, and the kernel granted during the windows of the
	# slice-grants runs (rseq/stats sgrant).  The loop's own count is only
	# the grants still in force at its clear: under TCG most grants outlast
	# the 5 us extension and are revoked first, so that count is 0 in some
	# runs (seen for slice-adaptive with 90 kernel grants); it is shown.
	for w in slice-spin slice-adaptive; do
		g=$(jq --arg w "$w" '[.results[] | select(.workload == $w and .label == "slice-grants")
			| .summary.rseq_stats.sgrant // 0] | add // 0' "$P")
		lg=$(jq --arg w "$w" '[.results[] | select(.workload == $w) | .summary.slice.grants // 0] | add // 0' "$P")
		check "$P" "vm: $w ok, kernel grants > 0 in its slice-grants windows (sgrant $g; in force at the clear: $lg)" \
			"len(r('$w')) > 0 and all(x['status'] == 'ok' for x in r('$w')) and $g > 0"
	done
	# The placements that carry the request while waiting, where the kernel
	# can act: each ok with an exact count, and the kernel granted during
	# its windows (rseq/stats sgrant; the loop counts only the grants still
	# in force when it clears, which a waiter's revoked grant is not).
	for w in tas+pre tas+rearm adaptive+pre adaptive+rearm mcs+pre mcs+rearm; do
		g=$(jq --arg w "$w" '[.results[] | select(.workload == $w and .label == "placements")
			| select(.status == "ok" and all(.repetitions[]; .exclusion_ok))
			| .summary.rseq_stats.sgrant] | if length == 1 then .[0] else -1 end' "$P")
		check_jq "vm: $w at 4 threads per PU ok, exact, kernel grants > 0 (sgrant $g)" test "$g" -gt 0
	done
	# The FlexGuard-style lock loads its sched_switch program in the guest
	# (root, BPF, no CONFIG_NET: libbpf's global-data probe fails there, so
	# the program keeps no .rodata) and counts exactly with the request.
	for w in flexguard+pre flexguard+rearm; do
		st=$(jq -r --arg w "$w" '[.results[] | select(.workload == $w and .label == "placements")
			| .status + (if .status == "ok" then (if all(.repetitions[]; .exclusion_ok) then " exact" else " inexact" end) else ": " + (.reason // "") end)] | join("; ")' "$P")
		check_jq "vm: $w at 4 threads per PU loads its BPF program and counts exactly ($st)" test "$st" = "ok exact"
	done
	# Every run counts its critical sections on a shared line: at 8 threads
	# per PU with noise this is the slice workloads' torture in the guest.
	check "$P" "vm: slice torture at 8x with noise: exact counts in every repetition" \
		"len([x for x in d['results'] if x.get('label') == 'torture-8x']) == 2 and all(x['status'] == 'ok' and all(rp['exclusion_ok'] and rp['ops'] > 0 for rp in x['repetitions']) for x in d['results'] if x.get('label') == 'torture-8x')"
	check "$P" "vm: rseq/stats sgrant grew during the run" "get(d, 'meta.rseq_stats.delta.sgrant', 0) > 0"
	check "$P" "vm: the result carries the guest's timing floor (idle and loaded probes, reference workload)" \
		"all(get(d, 'meta.vm.calibration.victim_us.' + k + '.p99', 0) > 0 for k in ('idle-other', 'idle-fifo', 'loaded-fifo')) and get(d, 'meta.vm.calibration.reference.ops_per_sec', 0) > 0"
	check "$P" "vm: meta says how the host scheduled QEMU" "'main loop' in (get(d, 'meta.vm.host_sched') or '')"
else
	notok "vm: patched result written"
fi
