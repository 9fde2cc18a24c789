# shellcheck shell=bash
# floor.sh - the hardware floor: lock xadd, a line's round trip, gettid,
# and each lock of section 2 in xadds.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

note "floor: primitives"
iters=$([ "$mode" = smoke ] && echo 1000 || echo 200000)
p=$(sbrun "$(jq -nc --argjson n "$iters" '{workload: "primitives", threads: "1x",
	repetitions: 3, duration_s: 0.1, warmup_s: 0, iterations: $n}')")
jq -n --argjson p "$p" --argjson l "$floor_locks" \
	'$p.summary.primitives as $s
	 | ($s.xadd.ns_per_op.median) as $x
	 | ($s.line_roundtrip.ns_per_op.median // null) as $rt
	 | {section: "floor", status: "ok",
	    xadd_ns: $x, line_roundtrip_ns: $rt, gettid_ns: $s.gettid.ns_per_op.median,
	    line_roundtrip_status: ($s.line_roundtrip.status // "ok"),
	    locks: ($l | map_values(. + {harness_per_xadd: (.harness / $x), bare_per_xadd: (.bare / $x)}))}' | add

