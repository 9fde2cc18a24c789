#!/usr/bin/env bash
# tier: host san
# t-fuzz.sh - the libFuzzer targets, a fixed number of executions each
# from their seed corpora (tests/fuzz/<name>/): no crash, leak or UB.
# `make fuzz FUZZ_SECONDS=N` is the long version.
if ! command -v clang >/dev/null; then
	echo "not ok fuzz: clang is not installed (from scripts/install-deps.sh check)"
	exit 0
fi
make -s --no-print-directory -j"$(nproc)" fuzz-smoke
