#!/usr/bin/env bash
# tier: quick
# t-needs.sh - every test's artefacts are declared and prepared before any
# test runs (tests/artefacts.sh, tests/prepare.sh).  A cold machine once
# failed `make check` because one test read a kernel that a later test
# built; on any machine with a warm cache the order never showed.
#   - a test that builds a kernel, fetches Debian's image or boots the
#     guest declares what it needs (read from what it calls);
#   - on an empty cache, prepare's plan lists every declared need as
#     missing, with each test that needs it, and builds nothing;
#   - asking for an artefact that was not prepared fails with the reason;
#   - an unknown need is refused by name; tests/run.sh prepares before
#     its first test.
# needs: none (it reads the declarations; every case uses an empty cache)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/artefacts.sh
. tests/artefacts.sh
# the mechanism is under test, not this run's selection: every test's
# needs are read (each case below sets its own selection)
unset TESTS TESTS_SKIP SLICEBENCH_VM_TESTS
export SLICEBENCH_TIER=all
# the batched boot of the run this test is part of is not the mechanism
# under test: an empty directory stands for a run that has not booted
export SLICEBENCH_GUEST_DIR="$TMP/guest"

# inferred_needs FILE: what FILE's commands show it needs
inferred_needs() {
	local f=$1
	# code lines only: comments may name commands they do not run
	local code
	code=$(grep -v '^[[:space:]]*#' "$f")
	if grep -q 'scripts/vm.sh\|run.sh --vm' <<<"$code"; then
		echo initramfs
	fi
	if grep -q -- '--kernel debian\|--debian-image' <<<"$code"; then
		echo debian-image
	fi
	if grep -q 'artefact_args baremetal-deb\|--bare-metal' <<<"$code"; then
		echo baremetal-deb
	fi
	# the batched guest boot's results
	if grep -q 'artefact_path guest-lazy' <<<"$code"; then
		echo guest-lazy
	fi
	# a variant of the patched kernel
	local v
	for v in $(grep -oE -- '--variant [a-z0-9-]+' <<<"$code" | cut -d' ' -f2 | sort -u); do
		[ "$v" = default ] || echo "kernel-$v"
	done
	# the patched kernel: vm.sh or run.sh --vm without another --kernel or
	# variant, or kernel/build.sh with no mode that names another artefact
	if grep -E 'kernel/build\.sh( *>| *$| --print-(path|dir)|\))|artefact_path guest-kernel' <<<"$code" |
		grep -q -v -- '--bare-metal\|--debian-image\|--variant'; then
		echo guest-kernel
	fi
	if grep -E 'scripts/vm.sh|run.sh --vm' <<<"$code" | grep -q -v -- '--kernel\|--variant'; then
		echo guest-kernel
	fi
}

n=0
for t in tests/t-*.sh; do
	declared=$(test_needs "$t" | tr '\n' ' ')
	want=$(inferred_needs "$t" | sort -u)
	if grep -q '^# needs: none' "$t"; then
		want=""
	fi
	missing=""
	for a in $want; do
		case " $declared " in *" $a "*) ;; *) missing+=" $a" ;; esac
	done
	unknown=$(tr ' ' '\n' <<<"$declared" | grep '^?' | tr '\n' ' ')
	if [ -n "$missing" ] || [ -n "$unknown" ]; then
		notok "needs: ${t##*/} declares what it uses (uses:$(tr '\n' ' ' <<<" $want")declares: ${declared:-nothing}; missing:$missing ${unknown:+unknown: $unknown})"
	else
		n=$((n + 1))
	fi
done
ok "needs: $n tests declare every artefact their commands use"
check "needs: the guest tests declare needs at all (t-vm.sh: $(test_needs tests/t-vm.sh | tr '\n' ' '))" \
	test "$(test_needs tests/t-vm.sh | wc -l)" -ge 2

# --- the plan on an empty cache: everything missing, nothing built
E="$TMP/empty-cache"
SLICEBENCH_CACHE="$E" tests/prepare.sh --plan >"$TMP/plan" 2>"$TMP/plan.err"
rc=$?
sed 's/^/#   /' "$TMP/plan"
check "needs: prepare --plan on an empty cache exits 0 (exit $rc)" test "$rc" -eq 0
for t in tests/t-*.sh; do
	while read -r a; do
		[ -n "$a" ] || continue
		case "$a" in \?*) continue ;; esac
		line=$(grep "^$a: " "$TMP/plan")
		case "$line" in
		*" ${t##*/}"*) ;;
		*) notok "needs: the plan lists ${t##*/} under $a (got '$line')"; continue ;;
		esac
		case "$a:$line" in
		initramfs:*) ;;
		*": missing ("*) ok "needs: $a is missing on an empty cache and planned for ${t##*/}" ;;
		*) notok "needs: $a is missing on an empty cache (got '$line')" ;;
		esac
	done < <(test_needs "$t")
done
check "needs: the plan built nothing (empty cache left without kernel/)" test ! -e "$E/kernel/.last-units"

# --- an artefact that was not prepared gives its reason
for a in guest-kernel debian-image baremetal-deb; do
	if SLICEBENCH_CACHE="$E" artefact_path "$a" >"$TMP/p" 2>"$TMP/e"; then
		notok "needs: $a on an empty cache is not found (got $(cat "$TMP/p"))"
	else
		why=$(tail -n 1 "$TMP/e")
		check "needs: $a on an empty cache fails with its reason ($why)" \
			grep -q 'not built yet\|not downloaded yet' "$TMP/e"
	fi
done

# --- an unknown need is refused by name, and the run counts it
mkdir -p "$TMP/tests"
printf '#!/bin/bash\n# tier: guest\n# needs: guest-kernel warp-drive\necho ok\n' >"$TMP/tests/t-fake.sh"
SLICEBENCH_TESTS_DIR="$TMP/tests" SLICEBENCH_CACHE="$E" tests/prepare.sh --plan >"$TMP/fake" 2>&1
rc=$?
check "needs: an unknown need is refused by name, exit 1 (exit $rc: $(grep -m1 'not ok' "$TMP/fake"))" \
	test "$rc" -eq 1 -a -n "$(grep "not ok prepare: t-fake.sh needs 'warp-drive'" "$TMP/fake")"
SLICEBENCH_TESTS_DIR="$TMP/tests" SLICEBENCH_CACHE="$E" SLICEBENCH_VM_TESTS=0 tests/prepare.sh >"$TMP/q" 2>&1
check "needs: SLICEBENCH_VM_TESTS=0 prepares nothing and says so" grep -q 'SKIP left out by SLICEBENCH_VM_TESTS=0' "$TMP/q"
SLICEBENCH_TESTS_DIR="$TMP/tests" SLICEBENCH_CACHE="$E" TESTS="t-other.sh" tests/prepare.sh --plan >"$TMP/sel" 2>&1
check "needs: a test left out by TESTS has its needs left out too" test ! -s "$TMP/sel"

# --- tests/run.sh prepares before its first test
first_prep=$(grep -n 'tests/prepare.sh' tests/run.sh | head -n 1 | cut -d: -f1)
# shellcheck disable=SC2016 # the literal text of run.sh
first_test=$(grep -n 'run_one "\${t##\*/}"' tests/run.sh | head -n 1 | cut -d: -f1)
check "needs: tests/run.sh runs prepare (line $first_prep) before any test (line $first_test)" \
	test -n "$first_prep" -a -n "$first_test" -a "${first_prep:-0}" -lt "${first_test:-0}"

# --- the tiers: a tier leaves the others' needs out of the plan
SLICEBENCH_CACHE="$E" SLICEBENCH_TIER=check tests/prepare.sh --plan >"$TMP/tier" 2>&1
check "needs: make check's tier plans no kernel variant, bare-metal package or Debian image ($(cut -d: -f1 "$TMP/tier" | tr '\n' ' '))" \
	test -z "$(grep -E '^(kernel-none|kernel-rt|baremetal-deb|debian-image):' "$TMP/tier")" -a -n "$(grep '^guest-kernel:' "$TMP/tier")"
SLICEBENCH_CACHE="$E" SLICEBENCH_TIER=quick tests/prepare.sh --plan >"$TMP/tierq" 2>&1
check "needs: make check-quick's tier plans nothing" test ! -s "$TMP/tierq"
