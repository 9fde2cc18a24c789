#!/usr/bin/env bash
# tier: quick
# t-messages.sh - messages show the value as given; an output that cannot
# be written is an error; one spelling per threads value.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# bad DESC PATTERN CONFIG-TEXT: --dry-run exits 2 and says PATTERN.
bad() {
	local rc
	printf '%s' "$3" >"$TMP/c.json"
	timeout 10 "$SB" run -c "$TMP/c.json" --dry-run >/dev/null 2>"$TMP/err"
	rc=$?
	check "messages: $1: exit 2 (got $rc): \"$(cat "$TMP/err")\"" test "$rc" -eq 2
	check "messages: $1: shows \"$2\"" grep -qF -- "$2" "$TMP/err"
}
bad "an integer just past the maximum" 'runs[0].cs_ns: 100000001 is out of range 0..100000000 ns' \
	'{"runs": [{"cs_ns": 100000001}]}'
bad "a real below the minimum" 'runs[0].duration_s: 0.001 is out of range 0.01..86400 s' \
	'{"runs": [{"duration_s": 0.001}]}'
bad "a huge integer" 'runs[0].threads: 9007199254740993 is out of range 1..4096 threads' \
	'{"runs": [{"threads": 9007199254740993}]}'
for t in ' 2x' '+2x' '02x' '2x ' '-2x' '0x' '65x' 'x'; do
	bad "threads \"$t\"" "runs[0].threads: \"$t\" is not an integer or \"Nx\" with N in 1..64" \
		"{\"runs\": [{\"threads\": \"$t\"}]}"
done
for p in 'oversubscribe: 2' 'oversubscribe:+2' 'oversubscribe:02'; do
	bad "pin \"$p\"" "N must be an integer in 1..1024 (digits only" "{\"runs\": [{\"pin\": \"$p\"}]}"
done
for p in 'cpus:0,1' 'cpus:1,0' 'cpus:0,,1' 'cpus:00'; do
	bad "pin \"$p\"" "write this CPU list as" "{\"runs\": [{\"pin\": \"$p\"}]}"
done
for p in 'cpus:-1' 'cpus:0-' 'cpus:0-1 ' 'cpus:0x1' 'cpus:'; do
	bad "pin \"$p\"" "not a CPU list like 0-3,6" "{\"runs\": [{\"pin\": \"$p\"}]}"
done
printf '{"runs": [{"threads": ["2x", "64x"], "pin": ["cpus:0", "cpus:0-1", "oversubscribe:2"]}]}' >"$TMP/good.json"
check "messages: threads \"2x\", \"64x\", pin cpus:0, cpus:0-1, oversubscribe:2 are accepted" "$SB" run -c "$TMP/good.json" --dry-run

mkdir "$TMP/cfgdir"
mkfifo "$TMP/cfg.fifo"
for c in "$TMP/cfgdir:a directory, not a config file" "$TMP/cfg.fifo:a FIFO, not a config file"; do
	timeout 5 "$SB" run -c "${c%%:*}" --dry-run >/dev/null 2>"$TMP/err"
	rc=$?
	f=${c%%:*}
	check "messages: --config ${f##*/}: exit 2 (got $rc, 124 = hung): \"$(cat "$TMP/err")\"" \
		grep -qF "${c#*:}" "$TMP/err"
done

for c in "$TMP/cfgdir:a directory, not a plan file" "$TMP/cfg.fifo:a FIFO, not a plan file"; do
	timeout 5 "$SB" plan "${c%%:*}" --dry-run >/dev/null 2>"$TMP/err"
	rc=$?
	f=${c%%:*}
	check "messages: plan ${f##*/}: exit 2 (got $rc, 124 = hung): \"$(cat "$TMP/err")\"" \
		test "$rc" -eq 2 -a -n "$(grep -F "${c#*:}" "$TMP/err")"
done

# A report lost on the way out is an error.
base=tests/fixtures/base.json
"$SB" compare "$base" "$base" >/dev/full 2>"$TMP/err"
rc=$?
check "messages: compare >/dev/full exits 1 (got $rc): \"$(cat "$TMP/err")\"" \
	test "$rc" -eq 1 -a -n "$(grep 'No space left' "$TMP/err")"
"$SB" compare "$base" "$base" >&- 2>"$TMP/err"
rc=$?
check "messages: compare with stdout closed exits 1 (got $rc): \"$(cat "$TMP/err")\"" test "$rc" -eq 1
"$SB" validate "$base" >/dev/full 2>/dev/null
rc=$?
check "messages: validate >/dev/full exits 1 (got $rc)" test "$rc" -eq 1

# run.sh: an option without its value is a usage error.
for o in --config --out --slurm; do
	./run.sh "$o" >/dev/null 2>"$TMP/err"
	rc=$?
	check "messages: ./run.sh $o without a value: exit 2 (got $rc): \"$(head -n 1 "$TMP/err")\"" \
		test "$rc" -eq 2 -a -n "$(grep -F -- "$o needs a value" "$TMP/err")"
done

# The verb table: every verb --help lists dispatches and answers its own
# --help; a verb not in the table is exit 2 with its name.
verbs=$("$SB" --help | sed -n '/^verbs:/,$p' | awk 'NR > 1 { print $1 }')
check "messages: --help lists eleven verbs (got: $(echo $verbs))" test "$(echo "$verbs" | wc -w)" -eq 11
for v in $verbs; do
	"$SB" "$v" --help >"$TMP/vh" 2>&1
	rc=$?
	check "messages: slicebench $v --help: exit 0 and its own usage (got $rc)" \
		test "$rc" -eq 0 -a -n "$(grep -F "slicebench $v" "$TMP/vh")"
done
"$SB" frobnicate >/dev/null 2>"$TMP/err"
rc=$?
check "messages: an unknown verb: exit 2 and its name (got $rc)" \
	test "$rc" -eq 2 -a -n "$(grep -F '"frobnicate"' "$TMP/err")"
