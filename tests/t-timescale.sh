#!/usr/bin/env bash
# tier: quick
# t-timescale.sh - the time-scaled guest's arithmetic and options, on the
# host: slicebench timescale's slowdown k (the host's median rate over
# each guest pass's) and its min/median/max, the extension scaled by k
# and clamped to the kernel's range, the base slice scaled and written
# (a stand-in debugfs), `run --slowdown K --timescale` scaling a run's
# slice_ext_nsec key and stating its host-equivalent length, vmmeta's
# meta.vm.timescale, and the refusals (exit 2, the value named).
# needs: none
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

# jf ARGS... FILE: jqe ARGS on FILE
jf() { jqe "${@:1:$#-1}" <"${!#}"; }
# ts ARGS...: slicebench timescale with rates given, its record in $TMP/ts.json
ts() { "$SB" timescale --out "$TMP/ts.json" "$@"; }

# --- k and the extension
k=$(ts --host-rates 3,3.2,2.8 --guest-rates 0.3,0.25,0.4 --mode auto --ext-host-ns 20000)
check "timescale: k is the host's median over each guest pass (3/0.3 = 10; printed $k)" test "$k" = 10.000
check "timescale: k's spread over the passes: each 10, 12, 7.5, min 7.5, median 10, max 12" \
	jf '.k == {n: 3, min: 7.5, median: 10, max: 12, each: [10, 12, 7.5]} and .mode == "auto" and .k_applied == 10' "$TMP/ts.json"
check "timescale: 20 us host-equivalent is 200 us in the guest, not clamped" \
	jf '.extension.host_equivalent_ns == 20000 and .extension.guest_ns == 200000 and (.extension | has("clamped") | not)' "$TMP/ts.json"
check "timescale: the mapping and the tick (not scaled, its host-equivalent length) are recorded" \
	jf '(.mapping | test("guest ns / k")) and .tick.scaled == false and (.tick.hz == null or .tick.host_equivalent_ns == .tick.period_ns / 10)' "$TMP/ts.json"

ts --host-rates 10 --guest-rates 0.01 --mode auto >/dev/null
check "timescale: k 1000 x 5 us is clamped to the wide maximum, and says so" \
	jf '.k_applied == 1000 and .extension.guest_ns == 1000000 and (.extension.clamped | test("5000000 ns is outside the kernel.s 5000..1000000"))' "$TMP/ts.json"
ts --host-rates 1 --guest-rates 1 --mode 1 --ext-host-ns 1000 >/dev/null
check "timescale: 1 us at K 1 is raised to the kernel's minimum 5 us, and says so" \
	jf '.mode == "fixed" and .extension.guest_ns == 5000 and (.extension.clamped | test("1000 ns is outside"))' "$TMP/ts.json"
k=$(ts --host-rates 2 --guest-rates 0.25 --mode 12.5)
check "timescale: an explicit K is applied as given (measured k 8 recorded, printed $k)" \
	jf --arg k "$k" '$k == "12.500" and .k.median == 8 and .k_applied == 12.5 and .extension.guest_ns == 62500' "$TMP/ts.json"
k=$(ts --host-rates 2 --guest-rates 0.25)
check "timescale: mode off records k ($k) and scales nothing" \
	jf --arg k "$k" '$k == "8.000" and .mode == "off" and (has("k_applied") | not) and .extension == {in_force_unavailable: .extension.in_force_unavailable}' "$TMP/ts.json"

# --- the extension's own path: a result of configs/vm-timescale.json
printf '%s\n' '{"results": [{"status": "ok", "summary": {"slice": {"extension_ns": {"harmonic_mean": 14010.64, "count": 900}}}}]}' >"$TMP/mech.json"
k=$(ts --host-rates 3 --guest-rates 1 --mode auto --mech-result "$TMP/mech.json")
check "timescale: auto scales the extension by the mechanism's k (14010.64 / 350.266 = 40; printed $k)" \
	jf --arg k "$k" '$k == "40.000" and .k_source == "mechanism" and .mechanism.k == 40 and .mechanism.harmonic_mean_ns == 14011 and .extension.guest_ns == 200000 and .k.median == 3' "$TMP/ts.json"
printf '%s\n' '{"results": [{"status": "unsupported", "reason": "no slice extension"}]}' >"$TMP/mech-no.json"
ts --host-rates 3 --guest-rates 1 --mode auto --mech-result "$TMP/mech-no.json" >/dev/null
check "timescale: without a timed grant auto falls back to the loop's k, and says why" \
	jf '.k_source == "loop" and .mechanism.unavailable == "unsupported" and .mechanism.reason == "no slice extension" and .extension.guest_ns == 15000' "$TMP/ts.json"
ts --host-rates 3 --guest-rates 1 --mode 12 --mech-result "$TMP/mech.json" >/dev/null
check "timescale: an explicit K wins over the mechanism's k (recorded beside it)" \
	jf '.k_applied == 12 and .mechanism.k == 40 and .extension.guest_ns == 60000 and (has("k_source") | not)' "$TMP/ts.json"

mkdir -p "$TMP/dbg0/rseq" && echo 5000 >"$TMP/dbg0/rseq/slice_ext_nsec"
k=$(SLICEBENCH_DEBUGFS="$TMP/dbg0" ts --host-rates 3 --guest-rates 1 --mech-result "$TMP/mech.json")
check "timescale: off, the 5 us in force is stated by the mechanism's k: 125 ns host-equivalent (printed $k)" \
	jf --arg k "$k" '$k == "40.000" and .k_extension == 40 and .extension.in_force_host_equivalent_ns == 125 and (has("k_applied") | not)' "$TMP/ts.json"

# --- --apply against a stand-in debugfs
mkdir -p "$TMP/dbg/rseq" "$TMP/dbg/sched"
echo 5000 >"$TMP/dbg/rseq/slice_ext_nsec"
echo 700000 >"$TMP/dbg/sched/base_slice_ns"
SLICEBENCH_DEBUGFS="$TMP/dbg" ts --host-rates 4 --guest-rates 0.5 --mode auto --apply >/dev/null
check "timescale: --apply writes 8 x 5 us and 8 x the base slice, and reads them back" \
	test "$(cat "$TMP/dbg/rseq/slice_ext_nsec"):$(cat "$TMP/dbg/sched/base_slice_ns")" = "40000:5600000"
check "timescale: the record has both, before and after, in host-equivalent time too" \
	jf '.extension.in_force_ns == 40000 and .extension.in_force_host_equivalent_ns == 5000 and .base_slice == {before_ns: 700000, guest_ns: 5600000, host_equivalent_ns: 700000, scaled: true}' "$TMP/ts.json"

# --- the probe
rates=$("$SB" timescale --passes 3)
check "timescale: the probe prints three positive rates ($rates)" \
	awk -v r="$rates" 'BEGIN { n = split(r, a, ","); ok = n == 3; for (i = 1; i <= n; i++) ok = ok && a[i] > 0; exit !ok }'

# --- run --slowdown K --timescale: a run's key is host-equivalent
cat >"$TMP/run.json" <<'JSON'
{"defaults": {"repetitions": 1, "duration_s": 0.05, "warmup_s": 0, "events": []},
 "runs": [{"workload": "spin-tas", "threads": 1, "slice_ext_nsec": [6000, 200000]}, {"workload": "spin-tas", "threads": 1}]}
JSON
echo 5000 >"$TMP/dbg/rseq/slice_ext_nsec"
SLICEBENCH_DEBUGFS="$TMP/dbg" "$SB" run -c "$TMP/run.json" -o "$TMP/run-out.json" -q --slowdown 10 --timescale
check "run --timescale: 6 us host-equivalent ran at 60 us, stated as 6000 host-equivalent ns" \
	jf '.results[0] | .slice_ext_nsec_in_force == 60000 and .slice_ext_host_ns == 6000 and (has("slice_ext_clamped") | not)' "$TMP/run-out.json"
check "run --timescale: 200 us x 10 is clamped to 1 ms, and the result says so" \
	jf '.results[1] | .slice_ext_nsec_in_force == 1000000 and .slice_ext_host_ns == 100000 and (.slice_ext_clamped | test("2000000 ns is outside"))' "$TMP/run-out.json"
check "run --timescale: a run without the key keeps the length in force (5 us = 0.5 us host-equivalent)" \
	jf '.results[2] | .slice_ext_nsec_in_force == 5000 and .slice_ext_host_ns == 500' "$TMP/run-out.json"
check "run --timescale: meta.timescale records the slowdown; slice_ext_nsec put back (its first line: a regular file is not truncated as debugfs is)" \
	jf --arg v "$(head -n 1 "$TMP/dbg/rseq/slice_ext_nsec")" '.meta.timescale.slowdown == 10 and .meta.timescale.run_keys_scaled and $v == "5000"' "$TMP/run-out.json"
check "run --timescale: the result validates against the schema" "$SB" validate "$TMP/run-out.json"

# --- vmmeta: meta.vm.timescale with the slowdown after the suite
mkdir -p "$TMP/files"
echo '{"meta": {}, "results": []}' >"$TMP/files/result.json"
ts --host-rates 3 --guest-rates 0.3 --mode auto >/dev/null && cp "$TMP/ts.json" "$TMP/files/timescale.json"
ts --host-rates 3 --guest-rates 0.2 >/dev/null && cp "$TMP/ts.json" "$TMP/files/timescale-after.json"
"$SB" vmmeta --files "$TMP/files" --out "$TMP/vm.json" --wall 1
check "vmmeta: meta.vm.timescale is the guest's record, k after the suite beside it" \
	jf '.meta.vm.timescale | .k.median == 10 and .k_after_suite.median == 15 and .extension.guest_ns == 50000' "$TMP/vm.json"

# --- refusals: exit 2, the value named, nothing written
refused() { # refused EXPECTED-SUBSTRING COMMAND...
	local want=$1 rc=0
	shift
	rm -f "$TMP/ts.json"
	"$@" >"$TMP/o" 2>"$TMP/e" || rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$want" "$TMP/e" && [ ! -e "$TMP/ts.json" ] && [ ! -s "$TMP/o" ]; then
		ok "refused: ${*#"$SB" } -> exit 2, \"$want\""
	else
		notok "refused: ${*#"$SB" }: exit $rc, $(head -n 1 "$TMP/e") (wanted exit 2 and \"$want\")"
	fi
}
refused "--mode: '0.5' is out of range 1..1000" ts --host-rates 1 --guest-rates 1 --mode 0.5
refused "--mode: 'x2' is not a number" ts --host-rates 1 --guest-rates 1 --mode x2
refused "--host-rates '1,-2': '-2' is not a number" ts --host-rates 1,-2
refused "--guest-rates '0': '0' is out of range" ts --host-rates 1 --guest-rates 0
refused "--ext-host-ns '999': not a whole number in 1000..1000000" ts --host-rates 1 --ext-host-ns 999
refused "--ext-host-ns needs --mode auto or K" ts --host-rates 1 --guest-rates 1 --ext-host-ns 5000
refused "--mech-result $TMP/nothing.json: unable to open" ts --host-rates 1 --guest-rates 1 --mech-result "$TMP/nothing.json"
refused "need --host-rates" "$SB" timescale --mode auto
refused "--passes '0'" "$SB" timescale --passes 0
refused "--slowdown: '0' is out of range" "$SB" run --check-args -c configs/ci.json -o x.json --slowdown 0
refused "--slowdown: 'fast' is not a number" "$SB" run --check-args -c configs/ci.json -o x.json --slowdown fast
refused "--timescale needs --slowdown K" "$SB" run --check-args -c configs/ci.json -o x.json --timescale

# --- scripts/vm.sh --timescale (and a study plan's vm_args, which vm.sh
# checks so): refused before anything is built or booted
vm() { scripts/vm.sh --config configs/ci.json --out "$TMP/vm-out.json" "$@" --check-options; }
refused "vm.sh: --timescale: '0.5' is out of range 1..1000" vm --timescale 0.5
refused "vm.sh: --timescale: 'fast' is not auto or a number" vm --timescale fast
refused "vm.sh: --timescale: '1e3' is not auto or a number" vm --timescale 1e3
refused "vm.sh: --ext-host-ns: 999 is out of range 1000..1000000" vm --timescale auto --ext-host-ns 999
refused "vm.sh: --ext-host-ns needs --timescale" vm --ext-host-ns 20000
refused "vm.sh: --timescale and --slice-ext-nsec both set the extension" vm --timescale 10 --slice-ext-nsec 50000
refused "vm.sh: --timescale: Debian's kernel has no slice extension to scale" vm --timescale auto --kernel debian
for a in auto 12.5 1000; do
	check "vm.sh: --timescale $a --ext-host-ns 20000 is accepted" vm --timescale "$a" --ext-host-ns 20000
done
refused "vm.sh: --sched-feature: 'no_hrtick' is not a feature name" vm --sched-feature no_hrtick
check "vm.sh: --sched-feature NO_HRTICK is accepted" vm --sched-feature NO_HRTICK --timescale auto
