#!/usr/bin/env bash
# tier: quick
# t-faults.sh - critical sections that page-fault, counted, not assumed:
# fault_pages N makes each section write N pages its last refresh took
# away, so the window's minor faults per op (getrusage, per lock thread)
# must be N-ish (at least 0.9 N: on this host a tas run took 7.84 per op
# for 8 pages, so a fault now and then maps more than its page) for
# private, shared and shared-remove memory and
# near 0 for huge (mapped once) and for no faulting part.  The holder
# trace (sched_switch in tracefs, root) must account for every switch-out
# of the lock threads exactly once.  Counts only: no speed is asserted.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

N=8
run() { # run NAME JSON-RUN: one short run of pg-spin and tas, 4 threads per PU
	printf '{"defaults": {"duration_s": 0.2, "warmup_s": 0.05, "repetitions": 1,
	  "threads": "4x", "pin": "cpus:0-1", "cs_ns": 0, "think_ns": 1000,
	  "lock": ["pg-spin", "tas"], "policy": "none"}, "runs": [%s]}' "$2" >"$TMP/$1.json"
	"$SB" run --config "$TMP/$1.json" --out "$TMP/$1.out.json" --quiet 2>"$TMP/$1.err"
}

for mem in private shared shared-remove huge; do
	if ! run "$mem" "{\"fault_pages\": $N, \"fault_mem\": \"$mem\", \"holder_trace_us\": 20}"; then
		notok "faults: $mem run failed: $(cat "$TMP/$mem.err")"
		continue
	fi
	per=$(jq -c '[.results[] | .summary.faults.minflt_per_op]' "$TMP/$mem.out.json")
	if [ "$mem" = huge ]; then
		check "faults: huge pages mapped once fault < 0.5 per op ($per)" \
			jq -e 'all(.results[]; .status == "ok" and .summary.faults.minflt_per_op < 0.5)' "$TMP/$mem.out.json"
		back=$(jq -r '.results[0].fault_mem | "\(.backing) \(.reason // "")"' "$TMP/$mem.out.json")
		check "faults: huge records its backing, and why when not hugetlb ($back)" \
			jq -e '.results[0].fault_mem | .backing == "hugetlb" or (.reason | test("hugetlb"))' "$TMP/$mem.out.json"
	else
		# shellcheck disable=SC2016 # $n is jq's
		check "faults: $mem: each section faults its $N pages (>= 0.9 x $N per op: $per)" \
			jq -e --argjson n "$N" 'all(.results[]; .status == "ok" and .summary.faults.minflt_per_op >= 0.9 * $n)' \
			"$TMP/$mem.out.json"
	fi
	check "faults: $mem: exclusion exact with faulting sections" \
		jq -e 'all(.results[].repetitions[]; .exclusion_ok)' "$TMP/$mem.out.json"
	status=$(jq -r '.results[0].summary.holder_trace | "\(.status) \(.reason // "")"' "$TMP/$mem.out.json")
	if [ "${status%% *}" != ok ]; then
		notok "faults: $mem: holder trace did not run: $status"
		continue
	fi
	# Each switch-out counted once: slept or runnable; runnable is a
	# holder's, a waiter's or too short to tell; a holder's is in the
	# faulting part or not.  At 4 threads per PU the lock threads do get
	# switched out.
	check "faults: $mem: holder trace accounts for every switch-out ($(jq -c '[.results[].summary.holder_trace | [.switch_outs, .slept, .runnable, .holder.preempted, .holder.in_fault, .waiter, .short]]' "$TMP/$mem.out.json"))" \
		jq -e 'all(.results[].summary.holder_trace; .switch_outs > 0
			and .switch_outs == .slept + .runnable
			and .runnable == .holder.preempted + .waiter + .short
			and .holder.preempted == .holder.in_fault + .holder.in_user)' "$TMP/$mem.out.json"
done

if run none '{"fault_pages": 0}'; then
	check "faults: no faulting part, < 0.5 faults per op ($(jq -c '[.results[].summary.faults.minflt_per_op]' "$TMP/none.out.json"))" \
		jq -e 'all(.results[]; .summary.faults.minflt_per_op < 0.5 and .summary.holder_trace.status == "skipped")' "$TMP/none.out.json"
else
	notok "faults: run without faults failed: $(cat "$TMP/none.err")"
fi

printf '{"runs": [{"fault_pages": 4, "fault_mem": "giant"}]}' >"$TMP/bad.json"
"$SB" run --config "$TMP/bad.json" --out "$TMP/bad.out.json" --quiet 2>"$TMP/bad.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'runs\[0\]\.fault_mem: "giant" is not one of private, shared, shared-remove, huge' "$TMP/bad.err" &&
	[ ! -e "$TMP/bad.out.json" ]; then
	ok "faults: an unknown fault_mem -> exit 2, \"$(cat "$TMP/bad.err")\""
else
	notok "faults: fault_mem giant: rc=$rc msg=\"$(cat "$TMP/bad.err")\""
fi
