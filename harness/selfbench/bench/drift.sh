# shellcheck shell=bash
# drift.sh - section 4c: the calibration check on a loop at twice its rate.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# --- 4c. A loop at the wrong rate is caught and recalibrated --------------
# driftcheck.c hands the runner twice the rate the PU measured a moment
# before and checks that the first repetition is flagged near 2 and
# recalibrated.  A PU that changes speed within that second moves the
# ratio: a benchmark, up to three tries (tests/unit/drift.c keeps what
# holds under load).
note "calibration check on a loop at twice its rate"
dc_tries=3
[ "$mode" = smoke ] && dc_tries=1
dc=$("$BIN/driftcheck" "$dc_tries") || dc='{"section": "drift", "status": "failed", "reason": "driftcheck exited non-zero"}'
add <<<"$dc"
