#!/usr/bin/env bash
# tier: quick san
# t-runflags.sh - a run from flags (`slicebench run -w ... -t ... --cs
# ...`, as perf bench takes one) is the run of the config file with the
# same keys: the same config recorded, the same params and status of each
# result, the same result fields; a control from other flags must differ.
# Bad flags: exit 2, the flag and the value as given named, no result.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

# What a result must share with its twin: the config, the meta's keys but
# the file's path, and per result its identity and the paths of its
# fields (array positions folded: thread counts and histograms vary).
# What the busy loop's calibration check records inside its object (a
# drift's reason, a recalibration, a probe) depends on the host's speed
# in that window (an ASan build on a busy machine drifts): the object is
# part of the run's shape, its insides are not.
shape='{config, meta: (.meta | del(.config_file) | keys),
	results: [.results[] | {workload, "label": .label, status, reason, params,
		fields: ([paths | map(if type == "number" then "[]" else . end) | join(".")
			| select(test("calibration\\.") | not)] | unique)}]}'

cat >"$TMP/same.json" <<'J'
{"runs": [{"workload": ["spin-tas", "slice-spin"], "threads": 2, "pin": "compact",
           "cs_ns": 200, "think_ns": 1500, "duration_s": 0.1, "warmup_s": 0.01,
           "repetitions": 2, "noise": 1, "events": []}]}
J
"$SB" run --quiet -c "$TMP/same.json" -o "$TMP/file.json"
"$SB" run --quiet -w spin-tas,slice-spin -t 2 --pin compact --cs 200ns --think 1.5us \
	-d 100ms --warmup 10ms -r 2 --set noise=1 --set 'events=[]' -o "$TMP/flags.json"
rc=$?
check "runflags: the run from flags exits 0 ($rc) and writes its result" test "$rc" = 0 -a -s "$TMP/flags.json"
check "runflags: its meta has no config_file (the config is all in .config)" \
	jqe '.meta | has("config_file") | not' <"$TMP/flags.json"
check "runflags: the result validates" "$SB" validate "$TMP/flags.json"
jq -S "$shape" "$TMP/file.json" >"$TMP/file.shape"
jq -S "$shape" "$TMP/flags.json" >"$TMP/flags.shape"
if [ -s "$TMP/file.shape" ] && diff -u "$TMP/file.shape" "$TMP/flags.shape" >"$TMP/diff"; then
	ok "runflags: the flags' result is the config's: config, params, status, fields ($(jq '.results | length' "$TMP/file.shape") results)"
else
	notok "runflags: the flags' result differs from the config's"
	head -n 20 "$TMP/diff" | sed 's/^/# /'
fi
# the control: one value else (2 threads -> 1) must show in the comparison
"$SB" run --quiet -w spin-tas,slice-spin -t 1 --pin compact --cs 200ns --think 1.5us \
	-d 100ms --warmup 10ms -r 2 --set noise=1 --set 'events=[]' -o "$TMP/other.json"
jq -S "$shape" "$TMP/other.json" >"$TMP/other.shape"
check "runflags: control: a run from other flags (-t 1) differs from the config's" \
	test -s "$TMP/other.shape" -a -n "$(diff "$TMP/file.shape" "$TMP/other.shape")"

# dry: the expanded runs of flags and of the config file they stand for
dry() { # dry CONFIG-TEXT FLAGS...: both expand to the same runs
	local cfg=$1
	shift
	printf '%s' "$cfg" >"$TMP/d.json"
	"$SB" run -n -c "$TMP/d.json" >"$TMP/d.file" 2>&1
	"$SB" run -n "$@" >"$TMP/d.flags" 2>&1
	if [ -s "$TMP/d.file" ] && cmp -s "$TMP/d.file" "$TMP/d.flags"; then
		ok "runflags: $* expands as $cfg ($(wc -l <"$TMP/d.file") lines)"
	else
		notok "runflags: $* does not expand as $cfg: $(diff "$TMP/d.file" "$TMP/d.flags" | head -n 4 | tr '\n' '|')"
	fi
}
dry '{"runs": [{"workload": ["spin-tas", "slice-spin"], "threads": 4, "cs_ns": 200, "duration_s": 5, "repetitions": 5}]}' \
	-w spin-tas,slice-spin -t 4 --cs 200ns -d 5s -r 5
dry '{"runs": [{"threads": ["1x", 3], "cs_ns": [100, 2000000], "think_ns": 0, "warmup_s": 0.25}]}' \
	-t 1x,3 --cs 100,2ms --think 0s --warmup 250ms
dry '{"interleave": true, "seed": 7, "runs": [{"workload": "futex", "noise_sleep_ns": 50000, "fault_mem": ["shared", "huge"], "victim": {"threads": 1}}]}' \
	--set interleave=true --set seed=7 -w futex --set noise_sleep_ns=50us --set fault_mem=shared,huge \
	--set 'victim={"threads": 1}'
dry '{"runs": [{"pin": "cpus:0", "cs_ns": [100, 300], "duration_s": 0.5}]}' \
	--pin cpus:0 --set 'cs_ns=[100, 300]' -d 0.5

# bad EXPECTED-MESSAGE ARGS...: exit 2, that message first, no result
bad() {
	local want=$1 rc=0
	shift
	"$SB" run -o "$TMP/bad.json" "$@" >"$TMP/o" 2>"$TMP/e" || rc=$?
	if [ "$rc" = 2 ] && [ "$(head -n 1 "$TMP/e")" = "$want" ] && [ ! -e "$TMP/bad.json" ]; then
		ok "runflags: $* -> exit 2, \"$want\""
	else
		notok "runflags: $*: exit $rc, \"$(head -n 2 "$TMP/e" | tr '\n' '|')\" (wanted exit 2, \"$want\", no result)"
	fi
}
bad 'slicebench run: --cs "200xs": unknown unit "xs" (ns, us, ms or s)' --cs 200xs
bad 'slicebench run: --duration "5m": unknown unit "m" (ns, us, ms or s)' -d 5m
bad 'slicebench run: --cs "-5ns": not a time (a number and ns, us, ms or s: 200ns, 1.5us, 5s)' --cs -5ns
bad 'slicebench run: --cs "1.5ns": 1.5 ns is not a whole number of ns' --cs 1.5ns
bad 'slicebench run: --cs "200ms": 200000000 is out of range 0..100000000 ns' --cs 200ms
bad 'slicebench run: --duration "5ms": 0.005 is out of range 0.01..86400 s' -d 5ms
bad 'slicebench run: --threads "2,0": 0 is out of range 1..4096 threads' -t 2,0
bad 'slicebench run: --repetitions "2.5": not an integer' -r 2.5
bad 'slicebench run: --warmup "": an empty value' --warmup ''
bad 'slicebench run: --set "interleave=yes": not true or false' --set interleave=yes
bad 'slicebench run: --set "cs_ns": not KEY=VALUE' --set cs_ns
bad 'slicebench run: --cs "300": cs_ns is given twice (a comma list sweeps)' --set cs_ns=200 --cs 300
bad 'slicebench run: --set "victim={threads}": not JSON: string or '"'}'"' expected near '"'threads'" --set 'victim={threads}'
bad 'slicebench run: --config and the run flags (--workload ... --set) exclude each other: a config file sets its own keys' \
	-c configs/ci.json -t 2
bad 'slicebench run: --config FILE, or the run'"'"'s flags (-w LIST ...), is required'
# what the loader refuses in a file it refuses from flags, naming the key
bad 'slicebench: run flags: runs[0].cs_nz: unknown key (did you mean "cs_ns"?)' --set cs_nz=5
bad 'slicebench: run flags: runs[0].pin: pin "bogus": unknown policy (none, compact, scatter, oversubscribe:N, cpus:LIST)' --pin bogus
bad 'slicebench: run flags: runs[0].workload: unknown workload "nope" (known: '"$("$SB" run -n -w nope 2>&1 | sed -n 's/.*(known: //p')" -w nope
bad 'slicebench: run flags: runs[0].dry: true: a dry control needs a policy that requests (the policy is "none")' \
	-w futex --set dry=true
"$SB" run --help >"$TMP/h"
check "runflags: run --help lists the flags and the key each sets" \
	grep -q -- '--cs DUR .*(cs_ns)' "$TMP/h"
