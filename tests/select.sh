#!/usr/bin/env bash
# select.sh - which tests the user asked for: tests/run.sh and
# tests/prepare.sh read the same selection.
# shellcheck shell=bash

# left_out_why NAME: why the user left NAME out (TESTS_SKIP names it, or
# TESTS names only others), or nothing when NAME runs
left_out_why() {
	case " ${TESTS_SKIP:-} " in *" $1 "*) echo "left out by TESTS_SKIP"; return ;; esac
	if [ -n "${TESTS:-}" ]; then
		case " $TESTS " in *" $1 "*) ;; *) echo "not in TESTS" ;; esac
	fi
}
