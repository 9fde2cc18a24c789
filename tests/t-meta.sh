#!/usr/bin/env bash
# tier: quick san
# t-meta.sh - --meta KEY=VALUE: one UTF-8 and value check; every refusal is
# exit 2 before any run, no result file, and a message that shows the value.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$TMP/tiny.json" <<'JSON'
{"runs": [{"workload": "spin-tas", "repetitions": 1, "duration_s": 0.05, "warmup_s": 0, "events": []}]}
JSON
printf 'ab\0cd' >"$TMP/nul.txt"
printf 'caf\xe9\n' >"$TMP/latin1.txt"
printf 'héllo wörld\n' >"$TMP/utf8.txt"
mkfifo "$TMP/fifo"
mkdir "$TMP/dir"
deep=$(printf 'a.%.0s' $(seq 3000))x

# bad DESC PATTERN ASSIGNMENT: exit 2, the message matches, no result.
bad() {
	local rc
	rm -f "$TMP/r.json"
	timeout 10 "$SB" run -c "$TMP/tiny.json" -o "$TMP/r.json" -q --meta "$3" 2>"$TMP/err"
	rc=$?
	check "meta: $1: exit 2 (got $rc), no result: \"$(head -c 240 "$TMP/err")\"" \
		test "$rc" -eq 2 -a ! -e "$TMP/r.json"
	check "meta: $1: the message shows it" grep -qF -- "$2" "$TMP/err"
}
bad "a NUL byte in @FILE" "NUL byte at offset 2" "note=@$TMP/nul.txt"
bad "invalid UTF-8 in @FILE" 'not UTF-8 (byte 3): "caf\xe9' "note=@$TMP/latin1.txt"
bad "an invalid UTF-8 value" 'not UTF-8 (byte 1): "x\xffy"' $'note=x\xffy'
bad "an invalid UTF-8 key" 'the key is not UTF-8 (byte 1)' $'k\xfe=1'
bad "a key nested 3001 deep" "deeper than 16 levels" "$deep=1"
bad "the key \".\"" 'an empty segment' ".=1"
bad "an empty segment" 'an empty segment' "a..b=1"
bad "a trailing dot" 'an empty segment' "a.=1"
bad "an empty key" 'expected KEY=VALUE' "=1"
bad "@DIR" "dir: a directory, not a file" "note=@$TMP/dir"
bad "@FIFO (must not hang)" "fifo: a FIFO, not a file" "note=@$TMP/fifo"
bad "@missing" "No such file or directory" "note=@$TMP/none"

"$SB" run -c "$TMP/tiny.json" -o "$TMP/ok.json" -q --meta vm.accel=tcg --meta n=3 \
	--meta "note=@$TMP/utf8.txt" --meta 'ünï.côdé=yes' 2>"$TMP/err"
check "meta: good values are kept: $(jq -c '.meta | {vm, n, note, "ünï"}' "$TMP/ok.json" 2>/dev/null)" \
	jq -e '.meta.vm.accel == "tcg" and .meta.n == 3 and .meta.note == "héllo wörld\n" and .meta["ünï"]["côdé"] == "yes"' "$TMP/ok.json"
check "meta: ... and the result validates" "$SB" validate "$TMP/ok.json"
