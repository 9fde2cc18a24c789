#!/usr/bin/env bash
# tier: quick
# t-options.sh - the drivers' options with bad values.
# scripts/vm.sh: each is refused
# with exit 2, the option and the value named, before any kernel is built
# or fetched and before QEMU starts, and nothing is written.  Before, a
# number's error did not say which option ("not a number: '-1'"), and
# 08, 0 or an out-of-range value passed: the kernel was built, the guest
# booted, and then QEMU refused (--smp 256), the guest was killed at once
# (--timeout 0), or the shell stopped on "08: value too great for base".
# --kernel names a missing file: a value wrongly let through ends there
# (another message, so the case fails) instead of booting.
# scripts/studies.sh: an option without its value ended in bash's own
# "line 48: 2: --out needs a directory" with exit 1; --only "" ran no
# study and --only plans/ci took a plan for one; --vm-only --host-only
# kept the last; --out naming a file failed in mkdir after the build.
# needs: none (nothing boots: every case ends while the options are read)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

n=0
bad() { # bad EXPECTED-FIRST-LINE OPTION...
	local want=$1 rc=0 got
	shift
	n=$((n + 1))
	timeout 60 scripts/vm.sh --config configs/ci.json --out "$TMP/out.json" \
		--kernel "$TMP/no-such-bzImage" "$@" >"$TMP/o" 2>"$TMP/e" || rc=$?
	got=$(head -n 1 "$TMP/e")
	if [ "$rc" = 2 ] && [ "$got" = "vm.sh: $want" ] && [ ! -e "$TMP/out.json" ] && [ ! -s "$TMP/o" ]; then
		ok "options: vm.sh $* -> exit 2, \"$got\""
	else
		notok "options: vm.sh $*: exit $rc, \"$got\" (wanted exit 2, \"vm.sh: $want\")"
	fi
}
digits='is not a whole number (decimal digits, no leading zero, at most 9)'
bad "--preempt: 'bogus' is not one of none, voluntary, full, lazy" --preempt bogus
bad "--preempt: 'FULL' is not one of none, voluntary, full, lazy" --preempt FULL
bad "--accel: 'KVM' is not one of auto, kvm, tcg" --accel KVM
bad "--warmup: '-1' $digits" --warmup -1
bad "--warmup: '1.5' $digits" --warmup 1.5
bad "--warmup: '08' $digits" --warmup 08
bad "--warmup: '99999999999999999999' $digits" --warmup 99999999999999999999
bad "--tb-size: 0 is out of range 1..999999999" --tb-size 0
bad "--tb-size: 'abc' $digits" --tb-size abc
bad "--tb-size: '08' $digits" --tb-size 08
bad "--timer-boots: 0 is out of range 1..9" --timer-boots 0
bad "--timer-boots: 'abc' $digits" --timer-boots abc
bad "--smp: 0 is out of range 1..255" --smp 0
bad "--smp: 256 is out of range 1..255" --smp 256
bad "--mem: '12abc' $digits" --mem 12abc
bad "--mem: 0 is out of range 1..999999999" --mem 0
bad "--timeout: 0 is out of range 1..999999999" --timeout 0
bad "--timeout: '08' $digits" --timeout 08
bad "--slice-ext-nsec: 4999 is out of range 5000..1000000" --slice-ext-nsec 4999
bad "--slice-ext-nsec: 1000001 is out of range 5000..1000000" --slice-ext-nsec 1000001
# the variants: named by build.sh (kernel patched) or refused with another kernel
bad "--variant bogus needs --kernel patched (the variants are builds of kernel/build.sh)" --variant bogus
# the edges pass the options and end at the missing kernel
bad "--kernel: no such file: $TMP/no-such-bzImage" --smp 255 --timeout 1 --warmup 0 \
	--slice-ext-nsec 5000 --tb-size 1 --mem 1 --preempt lazy --accel tcg --timer-boots 9
# a config that is not JSON, named with jq's line and column (before:
# exit 2 and no message once the harness refused it in the guest)
printf '{"runs": [,]}\n' >"$TMP/notjson.json"
: >"$TMP/empty.json"
printf '{}\n{}\n' >"$TMP/two.json"
bad "--config: $TMP/notjson.json:1:11: not JSON: Expected value before ','" --config "$TMP/notjson.json"
bad "--config: $TMP/empty.json: not JSON: no value" --config "$TMP/empty.json"
bad "--config: $TMP/two.json: not JSON: 2 values, not one" --config "$TMP/two.json"
bad "--also: $TMP/notjson.json:1:11: not JSON: Expected value before ','" --also "$TMP/notjson.json=$TMP/also.json"

# --check-options (what scripts/slurm.sh and studies.sh ask of a plan's
# vm_args) refuses what the build, the boot or the guest would refuse
# later; an empty cache shows that nothing was built or fetched.  Before,
# each of these passed it with exit 0.
chk() { # chk EXPECTED-FIRST-LINE OPTION...
	local want=$1 rc=0 got
	shift
	n=$((n + 1))
	SLICEBENCH_CACHE="$TMP/cache" timeout 60 scripts/vm.sh --config configs/ci.json \
		--out "$TMP/out.json" "$@" --check-options >"$TMP/o" 2>"$TMP/e" || rc=$?
	got=$(head -n 1 "$TMP/e")
	if [ "$rc" = 2 ] && [ "$got" = "vm.sh: $want" ] && [ ! -e "$TMP/out.json" ] &&
		[ ! -s "$TMP/o" ] && [ ! -e "$TMP/cache" ]; then
		ok "options: vm.sh --check-options $* -> exit 2, \"$got\""
	else
		notok "options: vm.sh --check-options $*: exit $rc, \"$got\" (wanted exit 2, \"vm.sh: $want\")"
	fi
}
chk "--variant: no such variant 'bogus' (default, none, rt)" --variant bogus
chk "--variant needs a value" --variant ''
chk "--kernel: no such file: /nonexistent" --kernel /nonexistent
none73="is not offered by Linux 7.3 on x86 (full and lazy only; all four with --kernel patched --variant none)"
chk "--preempt: 'none' $none73" --preempt none
chk "--preempt: 'voluntary' $none73" --kernel debian --preempt voluntary
chk "--preempt: 'none' $none73" --variant rt --preempt none
chk "--config: $TMP/notjson.json:1:11: not JSON: Expected value before ','" --config "$TMP/notjson.json"
chk "--harness-args: '--bogus': run: unrecognized option '--bogus'" --harness-args --bogus
chk "--harness-args: '--quiet,extra': slicebench run: unexpected argument \"extra\"" --harness-args --quiet,extra
chk "--harness-args: '--dry-run': slicebench run: --dry-run writes no result" --harness-args --dry-run
chk "--harness-args: '--quiet --force': no spaces (comma separated)" --harness-args '--quiet --force'
# what the plans use passes
n=$((n + 1))
if SLICEBENCH_CACHE="$TMP/cache" timeout 60 scripts/vm.sh --config configs/ci.json --out "$TMP/out.json" \
	--variant none --preempt none --harness-args --quiet,--meta,a=b --check-options 2>"$TMP/e" &&
	[ ! -e "$TMP/cache" ]; then
	ok "options: vm.sh --check-options with --variant none --preempt none --harness-args --quiet,--meta,a=b -> exit 0"
else
	notok "options: vm.sh --check-options with good values: \"$(head -n 1 "$TMP/e")\""
fi

# --out and each --also output are checked as the harness checks `run
# --out` (only a new path or a regular file; vm.sh replaces a file, as it
# passes --force to vmmeta) before anything starts: a stub QEMU on PATH
# records any start.  Before, they were checked after the build and the
# boot, and the refused write lost the guest's result.
mkdir -p "$TMP/bin" "$TMP/outdir"
printf '#!/bin/sh\necho "$*" >>"%s/qemu-ran"\nexit 1\n' "$TMP" >"$TMP/bin/qemu-system-x86_64"
chmod +x "$TMP/bin/qemu-system-x86_64"
: >"$TMP/bzImage"
: >"$TMP/regular"
outbad() { # outbad EXPECTED-FIRST-LINE OPTION...
	local want=$1 rc=0 got
	shift
	n=$((n + 1))
	PATH="$TMP/bin:$PATH" SLICEBENCH_CACHE="$TMP/cache" timeout 60 scripts/vm.sh --config configs/ci.json \
		--kernel "$TMP/bzImage" --accel tcg "$@" >"$TMP/o" 2>"$TMP/e" || rc=$?
	got=$(head -n 1 "$TMP/e")
	if [ "$rc" = 2 ] && [ "$got" = "vm.sh: $want" ] && [ ! -e "$TMP/qemu-ran" ] && [ ! -s "$TMP/o" ] &&
		[ ! -e "$TMP/regular/x.json" ] && [ -z "$(ls -A "$TMP/outdir")" ]; then
		ok "options: vm.sh $* -> exit 2 before QEMU, \"$got\""
	else
		notok "options: vm.sh $*: exit $rc, \"$got\"$([ ! -e "$TMP/qemu-ran" ] || echo ", QEMU started") (wanted exit 2, \"vm.sh: $want\")"
	fi
	rm -f "$TMP/qemu-ran"
}
outbad "--out: \"$TMP/regular/x.json\": $TMP/regular: Not a directory" --out "$TMP/regular/x.json"
outbad "--out: \"$TMP/outdir\" is a directory: an output must be a new path or a regular file; anything else is never replaced" \
	--out "$TMP/outdir"
outbad "--out: \"$TMP/outdir/\": ends in '/'; an output must name a file" --out "$TMP/outdir/"
outbad "--also: \"$TMP/outdir\" is a directory: an output must be a new path or a regular file; anything else is never replaced" \
	--out "$TMP/new.json" --also "configs/ci.json=$TMP/outdir"

# scripts/slurm.sh checks a plan's vm_args with each VM kernel of the plan
# (before: with vm.sh's default only, so --variant none passed for a
# debian job).  --results under a regular file stops a plan wrongly let
# through at its mkdir, before any task.
plan() { # plan EXPECTED-FIRST-LINE PLAN-JSON
	local want=$1 rc=0 got
	n=$((n + 1))
	printf '%s' "$2" >"$TMP/plan.json"
	timeout 60 scripts/slurm.sh --local "$TMP/plan.json" --results "$TMP/regular/r" >"$TMP/o" 2>"$TMP/e" </dev/null || rc=$?
	got=$(head -n 1 "$TMP/e")
	if [ "$rc" = 2 ] && [ "$got" = "vm.sh: $want" ] && [ ! -s "$TMP/o" ]; then
		ok "options: slurm.sh plan $2 -> exit 2, \"$got\""
	else
		notok "options: slurm.sh plan $2: exit $rc, \"$got\" (wanted exit 2, \"vm.sh: $want\")"
	fi
}
plan "--variant: no such variant 'bogus' (default, none, rt)" \
	'{"configs": ["configs/ci.json"], "kernels": ["host"], "vm_args": ["--variant", "bogus"]}'
plan "--variant none needs --kernel patched (the variants are builds of kernel/build.sh)" \
	'{"configs": ["configs/ci.json"], "kernels": ["host", "debian"], "vm_args": ["--variant", "none", "--preempt", "none"]}'

# kernel/build.sh: an option without its value ended in bash's own
# "line 77: 2: --jobs needs a value" with exit 1, and --jobs took any
# word (make then failed after the source was unpacked).  --print-path
# keeps a value wrongly let through from building anything.
build() { # build EXPECTED-FIRST-LINE OPTION...
	local want=$1 rc=0 got
	shift
	n=$((n + 1))
	SLICEBENCH_CACHE="$TMP/cache" timeout 60 kernel/build.sh --print-path "$@" >"$TMP/o" 2>"$TMP/e" || rc=$?
	got=$(head -n 1 "$TMP/e")
	if [ "$rc" = 2 ] && [ "$got" = "build.sh: $want" ] && [ ! -s "$TMP/o" ]; then
		ok "options: build.sh $* -> exit 2, \"$got\""
	else
		notok "options: build.sh $*: exit $rc, \"$got\" (wanted exit 2, \"build.sh: $want\")"
	fi
}
build "--jobs needs a value" --jobs
build "--jobs needs a value" --jobs ""
build "--kver needs a value" --kver
build "--variant needs a value" --variant
build "--ksrc needs a value" --ksrc
build "--base-config needs a value" --base-config
build "--jobs: '0' is not a whole number from 1 (decimal digits, no leading zero, at most 4)" --jobs 0
build "--jobs: 'x2' is not a whole number from 1 (decimal digits, no leading zero, at most 4)" --jobs x2
build "--jobs: '-3' is not a whole number from 1 (decimal digits, no leading zero, at most 4)" --jobs -3
build "--jobs: '99999' is not a whole number from 1 (decimal digits, no leading zero, at most 4)" --jobs 99999

# ./run.sh --replicate --out names a directory: a file there ended in
# mkdir's own error with exit 1, after the dependencies and the build.
runsh() { # runsh EXPECTED-FIRST-LINE OPTION...
	local want=$1 rc=0 got
	shift
	n=$((n + 1))
	timeout 120 ./run.sh "$@" >"$TMP/o" 2>"$TMP/e" </dev/null || rc=$?
	got=$(head -n 1 "$TMP/e")
	if [ "$rc" = 2 ] && [ "$got" = "run.sh: $want" ] && [ ! -s "$TMP/o" ] && [ -f "$TMP/rfile" ] &&
		[ ! -s "$TMP/rfile" ]; then
		ok "options: run.sh $* -> exit 2, \"$got\""
	else
		notok "options: run.sh $*: exit $rc, \"$got\" (wanted exit 2, \"run.sh: $want\")"
	fi
}
: >"$TMP/rfile"
runsh "--out $TMP/rfile: exists and is not a directory (--replicate writes a result per config into it)" \
	--replicate --out "$TMP/rfile"
runsh "--out $TMP/rfile/r: cannot create the directory: Not a directory" --replicate --out "$TMP/rfile/r"

studies() { # studies EXPECTED-FIRST-LINE OPTION...
	local want=$1 rc=0 got
	shift
	n=$((n + 1))
	timeout 60 scripts/studies.sh "$@" >"$TMP/o" 2>"$TMP/e" </dev/null || rc=$?
	got=$(head -n 1 "$TMP/e")
	if [ "$rc" = 2 ] && [ "$got" = "studies.sh: $want" ] && [ ! -s "$TMP/o" ] && [ ! -e "$TMP/st" ]; then
		ok "options: studies.sh $* -> exit 2, \"$got\""
	else
		notok "options: studies.sh $*: exit $rc, \"$got\" (wanted exit 2, \"studies.sh: $want\")"
	fi
}
studies "--out needs a value" --reports-only --out
studies "--out needs a value" --reports-only --out ""
studies "--only needs a value" --reports-only --out "$TMP/st" --only
studies "--only needs a value" --reports-only --out "$TMP/st" --only ""
studies "--only: '' is not a study name (letters, digits, '-')" --reports-only --out "$TMP/st" --only contention,,rostedt-2023
studies "--only: 'plans/ci' is not a study name (letters, digits, '-')" --reports-only --out "$TMP/st" --only plans/ci
studies "--vm-only and --host-only: give one of them" --vm-only --host-only --reports-only --only contention --out "$TMP/st"
: >"$TMP/file"
studies "--out $TMP/file: exists and is not a directory" --reports-only --only contention --out "$TMP/file"
echo "# $n option cases"
