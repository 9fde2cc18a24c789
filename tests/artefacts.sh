#!/usr/bin/env bash
# artefacts.sh - the one table of what a test may need that is not built by
# `make`: kernels, Debian's image, the initramfs.  A test names its needs on
# a line of its own near the top:
#
#     # needs: guest-kernel debian-image
#
# guest-lazy is no build but one boot: the patched kernel under
# preempt=lazy running the configs of every check that needs it
# (tests/guest-batch.sh), fresh in each tests/run.sh, whose directory
# ($SLICEBENCH_GUEST_DIR) it makes and removes.
#
# tests/prepare.sh reads those lines for the tests about to run and builds
# every artefact they name before the first test starts, so no test depends
# on another's order or side effect.  A test reads an artefact with
# `artefact_path NAME` (never builds it): an artefact that was not prepared
# gives its reason, and the test fails with it.
# shellcheck shell=bash

# The names, in the order they are prepared: the cheap ones first, so a
# network failure shows before half an hour of kernel builds.
ARTEFACTS=(initramfs debian-image guest-kernel guest-lazy kernel-none kernel-rt baremetal-deb)

# The arguments of kernel/build.sh that build (and, with --print-path,
# find) each kernel artefact.  The bare-metal package is built from
# Debian's configuration with no module (the guest loads none): the fixture
# is an empty lsmod listing.
artefact_args() {
	case "$1" in
	guest-kernel) echo "" ;;
	debian-image) echo "--debian-image" ;;
	kernel-none) echo "--variant none" ;;
	kernel-rt) echo "--variant rt" ;;
	baremetal-deb) echo "--bare-metal --base-config debian --localmodconfig=tests/fixtures/lsmod-none" ;;
	initramfs | guest-lazy) return 1 ;;
	*) return 2 ;;
	esac
}

# artefact_known NAME: 0 when NAME is in the table
artefact_known() {
	local a
	for a in "${ARTEFACTS[@]}"; do [ "$a" = "$1" ] && return 0; done
	return 1
}

# test_needs FILE: the artefacts FILE declares, one per line, in the
# order of ARTEFACTS; unknown names are printed as "?NAME".  "none" says
# that a test which reads like a guest test needs nothing prepared (it
# makes its own cache, say).
test_needs() {
	local line n a
	line=$(sed -n 's/^# needs:[[:space:]]*//p' "$1" | tr '\n' ' ')
	case "$line" in none | "none "*) return 0 ;; esac
	for a in "${ARTEFACTS[@]}"; do
		for n in $line; do [ "$n" = "$a" ] && echo "$a"; done
	done
	for n in $line; do
		[ "$n" = none ] || artefact_known "$n" || echo "?$n"
	done
}

# artefact_path NAME: the artefact's path on stdout, or its reason on
# stderr and status 1.  Never builds.
artefact_path() {
	local args
	case "$1" in
	initramfs)
		# built per guest run from build/slicebench and busybox: it is
		# ready when both are
		[ -x "${SB:-build/slicebench}" ] || { echo "no harness at ${SB:-build/slicebench} (run make)" >&2; return 1; }
		local b
		for b in /bin/busybox /usr/bin/busybox; do
			if [ -x "$b" ] && "$b" --list 2>/dev/null | grep -qx cpio; then
				echo "$b"
				return 0
			fi
		done
		echo "no static busybox: scripts/install-deps.sh vm installs busybox-static" >&2
		return 1 ;;
	guest-lazy)
		# booted once per tests/run.sh: ready when this run's boot ended
		local d=${SLICEBENCH_GUEST_DIR:-}/lazy
		if [ -n "${SLICEBENCH_GUEST_DIR:-}" ] && [ -f "$d/status" ]; then
			echo "$d"
			return 0
		fi
		echo "the batched guest boot has not run in this test run (tests/run.sh boots it before the first test: make check TESTS=...)" >&2
		return 1 ;;
	esac
	args=$(artefact_args "$1") || { echo "unknown artefact '$1'" >&2; return 1; }
	# one asking: the path on stdout, else the reason (build.sh's last line)
	local err
	err=$(mktemp) || return 1
	# shellcheck disable=SC2086 # args are words
	if kernel/build.sh $args --print-path 2>"$err" | tail -n 1 | grep .; then
		rm -f "$err"
		return 0
	fi
	tail -n 1 "$err" >&2
	rm -f "$err"
	return 1
}

# artefact_build NAME: builds NAME (progress on stderr), prints its path
artefact_build() {
	local args
	case "$1" in
	initramfs)
		local out
		out=$(mktemp) || return 1
		kernel/mkinitramfs.sh --out "$out" --configs configs >/dev/null || { rm -f "$out"; return 1; }
		rm -f "$out"
		artefact_path initramfs
		return ;;
	guest-lazy)
		[ -n "${SLICEBENCH_GUEST_DIR:-}" ] || { echo "SLICEBENCH_GUEST_DIR is not set (tests/run.sh sets it)" >&2; return 1; }
		tests/guest-batch.sh "$SLICEBENCH_GUEST_DIR/lazy" >&2 || return 1
		artefact_path guest-lazy
		return ;;
	esac
	args=$(artefact_args "$1") || { echo "unknown artefact '$1'" >&2; return 1; }
	# shellcheck disable=SC2086
	kernel/build.sh $args | tail -n 1
}
