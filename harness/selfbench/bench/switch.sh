# shellcheck shell=bash
# switch.sh - section 3b: the sched_switch program's cost per switch.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# --- 3b. The flexguard lock's sched_switch program, per switch -----------
# Two threads on one PU hand a futex back and forth, one switch per
# handoff, with the program unloaded, loaded, and loaded with both threads
# watched and critical (switchcost.c).  Needs what the program needs (root,
# or CAP_BPF + CAP_PERFMON); elsewhere the row is "unsupported" with why.
note "switch cost of the sched_switch program"
sc_args=()
[ "$mode" = smoke ] && sc_args=(--rounds 200 --reps 2)
sc=$("$BIN/switchcost" "${sc_args[@]}") || true
jq -c '{section: "switch_cost"} + .' <<<"$sc" | add

