#!/usr/bin/env bash
# prepare.sh - builds every artefact (tests/artefacts.sh) that the selected
# tests declare with a "# needs:" line, before any test runs.
#
#   tests/prepare.sh          build what is missing; one "ok"/"not ok" line
#                             per artefact
#   tests/prepare.sh --plan   build nothing: per artefact, "ready PATH" or
#                             "missing (REASON)" and the tests that need it
#
# The selection is tests/run.sh's: SLICEBENCH_TIER, TESTS, TESTS_SKIP; SLICEBENCH_VM_TESTS=0
# leaves the guest out, and with it every artefact (only guest tests have
# needs).  Exit: 0, or 1 when an artefact could not be built.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/select.sh
. tests/select.sh
# shellcheck source=tests/artefacts.sh
. tests/artefacts.sh
export SB=${SB:-${BUILD:-build}/slicebench}

PLAN=0
case "${1:-}" in
--plan) PLAN=1 ;;
"") ;;
*) echo "usage: tests/prepare.sh [--plan]" >&2; exit 2 ;;
esac

declare -A users=()
bad=0
# SLICEBENCH_TESTS_DIR: where the t-*.sh are (tests/t-needs.sh points it
# at made-up tests)
for t in "${SLICEBENCH_TESTS_DIR:-tests}"/t-*.sh; do
	[ -f "$t" ] || continue
	[ -z "$(left_out_why "${t##*/}")" ] || continue
	[ -z "$(tier_out_why "$t")" ] || continue
	while read -r a; do
		[ -n "$a" ] || continue
		case "$a" in
		\?*) echo "not ok prepare: ${t##*/} needs '${a#\?}', which tests/artefacts.sh does not know (known: ${ARTEFACTS[*]})"
			bad=1; continue ;;
		esac
		users[$a]+=" ${t##*/}"
	done < <(test_needs "$t")
done

if [ "${SLICEBENCH_VM_TESTS:-1}" = 0 ] && [ "${#users[@]}" -gt 0 ]; then
	echo "ok prepare: guest artefacts # SKIP left out by SLICEBENCH_VM_TESTS=0"
	exit "$bad"
fi

for a in "${ARTEFACTS[@]}"; do
	[ -n "${users[$a]:-}" ] || continue
	if [ "$PLAN" = 1 ]; then
		if p=$(artefact_path "$a" 2>"${TMPDIR:-/tmp}/prepare.$$"); then
			echo "$a: ready $p; needed by${users[$a]}"
		else
			echo "$a: missing ($(tail -n 1 "${TMPDIR:-/tmp}/prepare.$$")); needed by${users[$a]}"
		fi
		rm -f "${TMPDIR:-/tmp}/prepare.$$"
		continue
	fi
	start=$(date +%s)
	if p=$(artefact_path "$a" 2>/dev/null); then
		echo "ok prepare: $a is ready ($p; for${users[$a]})"
	elif p=$(artefact_build "$a") && [ -n "$p" ]; then
		echo "ok prepare: $a built in $(($(date +%s) - start)) s ($p; for${users[$a]})"
	else
		echo "not ok prepare: $a could not be built; the tests that need it will fail:${users[$a]}"
		bad=1
	fi
done
exit "$bad"
