#!/usr/bin/env bash
# tier: host
# t-drain.sh - a FIFO lock that drains slowly after the stop is progress,
# not a hang (the join watchdog counts progress).  A stress point of about
# a minute on 2 CPUs: make check's, not check-quick's.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# A FIFO queue that drains slowly is progress, not a hang: at 64 spinning
# threads per PU each MCS handoff waits for the next waiter to be
# scheduled, and before the join watchdog counted progress this point
# failed with "did not leave its loop within 5 s of the stop".
npu=$(nproc)
cat >"$TMP/drain.json" <<JSON
{"defaults": {"repetitions": 2, "duration_s": 0.1, "warmup_s": 0.02, "events": [], "cs_ns": 0,
  "think_ns": 0, "keep": "summary", "timeout_s": 300},
 "runs": [{"workload": "mcs+none", "threads": $((64 * npu)), "pin": "oversubscribe:64"}]}
JSON
"$SB" run -c "$TMP/drain.json" -o "$TMP/drain-out.json" -q
check "isolation: mcs at 64 threads per PU drains after the stop: ok, exact, $(jq -c '[.results[0].repetitions[].ops]' "$TMP/drain-out.json" 2>/dev/null) ops" \
	jq -e '.results[0] | .status == "ok" and all(.repetitions[]; .exclusion_ok)' "$TMP/drain-out.json"
