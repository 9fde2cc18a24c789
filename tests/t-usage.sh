#!/usr/bin/env bash
# tier: quick
# t-usage.sh - a mistake in a script's options is one line that names it
# and "try 'SCRIPT --help'", exit 2, and nothing on stdout; --help still
# prints the whole usage.  Before, each printed its 10 to 90 lines of help
# under the one that said what was wrong (scripts/vm.sh: 90).
# needs: none (every case ends while the options are read)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

# misuse SCRIPT EXPECTED-FIRST-LINE ARGS...
misuse() {
	local s=$1 want=$2 rc=0
	shift 2
	timeout 30 "$s" "$@" >"$TMP/o" 2>"$TMP/e" </dev/null || rc=$?
	local got n
	got=$(head -n 1 "$TMP/e")
	n=$(wc -l <"$TMP/e")
	if [ "$rc" = 2 ] && [ "$n" = 2 ] && [ "$got" = "$want" ] && [ ! -s "$TMP/o" ] &&
		[ "$(sed -n 2p "$TMP/e")" = "try '$s --help'" ]; then
		ok "usage: $s $* -> exit 2, \"$got\" and the try line"
	else
		notok "usage: $s $*: exit $rc, $n lines on stderr, stdout $(wc -c <"$TMP/o") bytes: $(head -n 3 "$TMP/e" | tr '\n' '|') (wanted exit 2, \"$want\" and \"try '$s --help'\")"
	fi
}
misuse scripts/vm.sh "vm.sh: unknown option: --bogus" --bogus
misuse scripts/vm.sh "vm.sh: --config needs a value" --config
misuse scripts/vm.sh "vm.sh: --out is required" --config configs/ci.json
misuse scripts/studies.sh "studies.sh: unknown option '--bogus'" --bogus
misuse scripts/studies.sh "studies.sh: --out needs a value" --out
misuse scripts/studies.sh "studies.sh: --boots: 'x' is not a count from 1 to 99" --boots x
misuse scripts/replicate.sh "replicate: unknown option '--bogus'" --bogus
misuse scripts/replicate.sh "replicate: --results DIR is required"
misuse scripts/slurm.sh "slurm.sh: unknown option '--bogus'" --bogus
misuse scripts/slurm.sh "slurm.sh: one of --slurm, --local or --status PLAN.json is required"
misuse scripts/slurm.sh "slurm.sh: --partition needs --slurm" --local configs/plans/ci.json --partition p
misuse kernel/build.sh "build.sh: unknown option: --bogus" --bogus
misuse kernel/build.sh "build.sh: --kver needs a value" --kver
misuse kernel/mkinitramfs.sh "mkinitramfs.sh: --out needs a value" --out
misuse kernel/mkinitramfs.sh "mkinitramfs.sh: --out FILE is required"
misuse ./run.sh "run.sh: unknown option '--bogus'" --bogus
misuse ./run.sh "run.sh: --config needs a value" --config

# --help: the whole usage on stdout, exit 0
for s in scripts/vm.sh scripts/studies.sh scripts/replicate.sh scripts/slurm.sh kernel/build.sh \
	kernel/mkinitramfs.sh ./run.sh; do
	rc=0
	timeout 30 "$s" --help >"$TMP/o" 2>"$TMP/e" || rc=$?
	check "usage: $s --help: exit 0 ($rc), its usage on stdout, nothing on stderr" \
		test "$rc" = 0 -a -n "$(grep -i 'usage\|^ *scripts/\|^ *\./run.sh' "$TMP/o")" -a ! -s "$TMP/e"
done
