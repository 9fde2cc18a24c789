#!/usr/bin/env bash
# tier: quick
# t-locks.sh - locks and waiting policies as two axes: the triple each run
# records, the names it gets, the pairs refused at config time, and old
# results pairing with their new equivalents.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

bad() { # bad NAME EXPECTED-MESSAGE-REGEX JSON
	local f="$TMP/$1.json" out="$TMP/$1.out.json" rc
	printf '%s' "$3" >"$f"
	"$SB" run --config "$f" --out "$out" --quiet 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -Eq -- "$2" "$TMP/err" && [ ! -e "$out" ]; then
		ok "locks: $1 -> exit 2, \"$(cat "$TMP/err")\""
	else
		notok "locks: $1: rc=$rc msg=\"$(cat "$TMP/err")\" (wanted /$2/, no $out)"
	fi
}

bad rearm-without-trylock 'runs\[0\]\.policy: "rearm" needs a lock with trylock; "sleep" has none \(with trylock: tas, ' \
	'{"runs": [{"lock": "sleep", "policy": "rearm"}]}'
bad rearm-in-defaults 'defaults\.policy \(runs\[0\]\): "rearm" needs a lock with trylock; "none" has none' \
	'{"defaults": {"policy": "rearm"}, "runs": [{"workload": "cpu-hog"}]}'
bad dry-without-request 'runs\[0\]\.dry: true: a dry control needs a policy that requests \(the policy is "none"\)' \
	'{"runs": [{"workload": "spin-tas", "dry": true}]}'
bad unknown-lock 'runs\[0\]\.lock: unknown lock "mutex" \(known: tas, ' '{"runs": [{"lock": "mutex"}]}'
# The policies in the order `slicebench list` shows them, comma-separated.
policies=$("$SB" list | sed -n '/^policies/,/^$/p' | awk 'NR > 1 && NF {print $1}' | paste -sd, | sed 's/,/, /g')
bad unknown-policy "runs\\[0\\]\\.policy\\[1\\]: \"around\" is not one of $policies\$" \
	'{"runs": [{"policy": ["cs", "around"]}]}'
bad dry-type 'runs\[0\]\.dry: must be true or false' '{"runs": [{"policy": "cs", "dry": "yes"}]}'
bad canonical-typo 'runs\[0\]\.workload: unknown workload "tas\+rearn"' '{"runs": [{"workload": "tas+rearn"}]}'
bad primitives-policy 'runs\[0\]\.policy: workload "primitives" measures itself' \
	'{"runs": [{"workload": "primitives", "policy": "cs"}]}'
bad lock-key-foreign 'runs\[0\]\.spin_budget: not a key of the workload\(s\) of this run' \
	'{"runs": [{"workload": "adaptive", "lock": "tas", "spin_budget": 5}]}'

# Names and the recorded triple: an alias where the triple has one.
printf '%s' '{"runs": [{"workload": "adaptive", "policy": ["cs", "pre", "rearm"], "dry": [false, true]}, {"workload": "adaptive"}]}' \
	>"$TMP/sweep.json"
names=$("$SB" run --config "$TMP/sweep.json" --dry-run 2>/dev/null | cut -d' ' -f2 | tr '\n' ' ')
check "locks: the sweep names its points by alias or LOCK+POLICY[+dry] ($names)" \
	test "$names" = "slice-adaptive slice-adaptive-dry adaptive+pre adaptive+pre+dry adaptive+rearm adaptive+rearm+dry adaptive "
printf '%s' '{"defaults": {"duration_s": 0.05, "warmup_s": 0.01, "repetitions": 1, "threads": 2},
  "runs": [{"lock": "tas", "policy": "none"}, {"workload": "tas+cs+dry"}, {"workload": "ticket+rearm+dry"}]}' >"$TMP/triple.json"
if "$SB" run --config "$TMP/triple.json" --out "$TMP/triple.out.json" --quiet 2>"$TMP/err"; then
	got=$(jq -r '[.results[] | "\(.workload)=\(.params.lock)/\(.params.policy)/\(.params.dry)/\(.status)"] | join(" ")' "$TMP/triple.out.json")
	check "locks: each result records lock, policy and dry ($got)" \
		test "$got" = "spin-tas=tas/none/false/ok slice-dry=tas/cs/true/ok ticket+rearm+dry=ticket/rearm/true/ok"
	req=$(jq '.results[2].summary.slice.requests' "$TMP/triple.out.json")
	check "locks: a dry rearm run counts its requests, and no grant ($req requests)" \
		jq -e '.results[2].summary.slice | .requests > 0 and .grants == 0 and .yields == 0' "$TMP/triple.out.json"
else
	notok "locks: run failed: $(cat "$TMP/err")"
fi

# An old result (no params.lock) pairs with its new equivalent.
ref=$(ref_json rostedt-2023-host)
jq '{runs: [.results[] | select(.workload == "spin-tas" and .params.noise == 0) | .params
	| .duration_s = 0.05 | .warmup_s = 0.01 | .repetitions = 2 | .workload = "spin-tas"]}' "$ref" >"$TMP/again.json"
if "$SB" run --config "$TMP/again.json" --out "$TMP/again.out.json" --quiet 2>"$TMP/err"; then
	rows=$("$SB" compare "$ref" "$TMP/again.out.json" --format json 2>/dev/null |
		jq '[.rows[] | select(.a.workload == "spin-tas" and .b.workload == "spin-tas")] | length')
	check "locks: compare pairs an old spin-tas result with the new one ($rows rows)" test "${rows:-0}" -gt 0
else
	notok "locks: rerun of the reference point failed: $(cat "$TMP/err")"
fi

# Every arm registers rseq alike; compare warns when two arms did not.
printf '%s' '{"defaults": {"duration_s": 0.05, "warmup_s": 0.01, "repetitions": 2, "threads": 2},
  "runs": [{"workload": ["spin-tas", "slice-dry", "mcs+pre+dry"]}]}' >"$TMP/reg.json"
if "$SB" run --config "$TMP/reg.json" --out "$TMP/reg.out.json" --quiet 2>"$TMP/err"; then
	kinds=$(jq -r '[.results[].rseq_registration | "\(.kind)/\(.threads)/\(.lock_threads)"] | unique | join(" ")' "$TMP/reg.out.json")
	check "locks: the baseline and the dry arms register rseq alike ($kinds)" \
		test "$(jq '[.results[].rseq_registration.kind] | unique | length' "$TMP/reg.out.json")" -eq 1
	jq '.results[0].rseq_registration.kind = "glibc legacy 32-byte area"' "$TMP/reg.out.json" >"$TMP/reg-b.json"
	w=$("$SB" compare "$TMP/reg.out.json" "$TMP/reg-b.json" --format json 2>/dev/null |
		jq -r '[.warnings[] | select(test("rseq registration differs"))] | length')
	check "locks: compare warns when two arms registered rseq differently ($w warning)" test "$w" -eq 1
else
	notok "locks: registration run failed: $(cat "$TMP/err")"
fi
