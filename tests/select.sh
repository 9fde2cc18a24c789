#!/usr/bin/env bash
# select.sh - which tests the user asked for: tests/run.sh and
# tests/prepare.sh read the same selection.
#
# Every t-*.sh declares its tier on a line of its own near the top:
#
#     # tier: quick          (a second word, "san", puts it in the
#     # tier: host san        sanitizer pass too)
#
#   quick  the build's packages and jq; no guest, no TSan tree, no kernel
#   host   more of Debian (chromium, slurm, perf, valgrind, GLib's tests)
#          or minutes of CPU; no guest
#   guest  boots the default patched kernel
#   all    the kernel variants, the bare-metal package, Debian's kernel
#
# SLICEBENCH_TIER picks the set: quick (`make check-quick`), check (the
# default, `make check`: quick + host + guest), all (`make check-all`),
# san (`make check-san`: the unit programs and the scripts marked san, on
# the sanitizer build).  TESTS names scripts outright, whatever their tier.
# shellcheck shell=bash

TIERS="quick host guest all"

# test_tier FILE: the tier FILE declares, with "san" after it when marked
test_tier() {
	sed -n 's/^# tier:[[:space:]]*//p' "$1" | head -n 1
}

# tier_out_why FILE: why the selected tier does not run FILE (nothing when
# it does).  A test the user named in TESTS always runs.
tier_out_why() {
	local name=${1##*/} t want=${SLICEBENCH_TIER:-check}
	if [ -n "${TESTS:-}" ]; then
		case " $TESTS " in *" $name "*) return ;; esac
	fi
	t=$(test_tier "$1")
	case "$want" in
	quick) case "$t" in quick | "quick "*) return ;; esac ;;
	check) case "$t" in quick* | host* | guest*) return ;; esac ;;
	all) case "$t" in quick* | host* | guest* | all*) return ;; esac ;;
	san) case "$t" in *" san") return ;; esac ;;
	esac
	echo "tier ${t%% *}"
}

# left_out_why NAME: why the user left NAME out (TESTS_SKIP names it, or
# TESTS names only others), or nothing when NAME runs
left_out_why() {
	case " ${TESTS_SKIP:-} " in *" $1 "*) echo "left out by TESTS_SKIP"; return ;; esac
	if [ -n "${TESTS:-}" ]; then
		case " $TESTS " in *" $1 "*) ;; *) echo "not in TESTS" ;; esac
	fi
}
