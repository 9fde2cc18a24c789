#!/usr/bin/env bash
# tier: quick
# t-outpath.sh - one output-path policy for every writer (run --out,
# compare --out): only a new path or a regular file, refused before any run;
# create-or-fail without --force; unique default names; stale temp files.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$TMP/tiny.json" <<'JSON'
{"runs": [{"workload": "spin-tas", "repetitions": 1, "duration_s": 0.05, "warmup_s": 0, "events": []}]}
JSON
cat >"$TMP/slow.json" <<'JSON'
{"runs": [{"workload": "spin-tas", "repetitions": 1, "duration_s": 1.5, "warmup_s": 0, "events": []}]}
JSON

# refused(DESC, PATTERN, ARGS...): exit 2, the message matches, in < 1 s
# (before any run), and no file appeared in $TMP/o.
refused() {
	local d=$1 pat=$2 rc t0 ms
	shift 2
	t0=$(date +%s%N)
	"$SB" run -c "$TMP/slow.json" -q "$@" 2>"$TMP/err"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	check "out: $d: exit 2 (got $rc) before running (${ms} ms): \"$(head -c 200 "$TMP/err")\"" \
		test "$rc" -eq 2 -a "$ms" -lt 1000
	check "out: $d: the message says why" grep -q -- "$pat" "$TMP/err"
}

mkdir -p "$TMP/o/dir"
# Never /dev/null itself: a broken build would replace the machine's.
if [ "$(id -u)" -eq 0 ]; then
	mknod "$TMP/o/null" c 1 3
else
	ln -s /dev/null "$TMP/o/null-link" # no mknod: at least the symlink case
fi
mkfifo "$TMP/o/fifo.json"
echo keep >"$TMP/o/target"
ln -s "$TMP/o/target" "$TMP/o/link.json"
ln -s "$TMP/o/none" "$TMP/o/dangling.json"
before=$(ls -A "$TMP/o")
if [ -c "$TMP/o/null" ]; then
	refused "a character device with --force" "is a character device" -o "$TMP/o/null" --force
else
	ok "out: a character device # SKIP needs root for mknod"
fi
refused "a FIFO with --force" "is a FIFO" -o "$TMP/o/fifo.json" --force
refused "a symlink to a file with --force" "is a symbolic link" -o "$TMP/o/link.json" --force
refused "a dangling symlink with --force" "is a symbolic link" -o "$TMP/o/dangling.json" --force
refused "an existing directory with --force" "is a directory" -o "$TMP/o/dir" --force
refused "a path ending in /" "ends in '/'" -o "$TMP/o/new/"
refused "an empty path" "an empty output path" -o ""
refused "an existing file without --force" "exists; use --force" -o "$TMP/o/target"
check "out: the FIFO, the symlinks and the device are untouched" \
	test -p "$TMP/o/fifo.json" -a -L "$TMP/o/link.json" -a -L "$TMP/o/dangling.json" \
	-a \( -c "$TMP/o/null" -o ! -e "$TMP/o/null" \)
check "out: the symlink's target is untouched" grep -qx keep "$TMP/o/target"
check "out: no new file in the output directory" test "$(ls -A "$TMP/o")" = "$before"

# Two runs with one --out: both pass the up-front check; the one that
# finishes second must fail at the write, not replace the first's result.
"$SB" run -c "$TMP/slow.json" -o "$TMP/o/same.json" -q 2>"$TMP/err-slow" &
pid=$!
sleep 0.3
"$SB" run -c "$TMP/tiny.json" -o "$TMP/o/same.json" -q
rc1=$?
wait "$pid"
rc2=$?
check "out: same --out twice: the first to finish exits 0 (got $rc1)" test "$rc1" -eq 0
check "out: ... the second exits 1 (got $rc2): \"$(cat "$TMP/err-slow")\"" \
	test "$rc2" -eq 1 -a -n "$(grep 'created by another writer' "$TMP/err-slow")"
check "out: ... and the file is the first one's result (duration 0.05 s)" \
	jq -e '.results[0].params.duration_s == 0.05' "$TMP/o/same.json"
check "out: ... no temp file left" test -z "$(find "$TMP/o" -name '.*.tmp.*')"
kept=$(sed -n 's/^slicebench: the result is kept in //p' "$TMP/err-slow")
check "out: ... the second's measurements kept beside it, and named (${kept:-none})" \
	test "$kept" = "$TMP/o/same.unsaved-$pid.json"
check "out: ... that file is the second's whole result" \
	jq -e '.results[0].params.duration_s == 1.5 and .results[0].status == "ok"' "$kept"
rm -f "$kept"

# Default names: three runs started together get three files.
mkdir -p "$TMP/d"
sb=$(realpath "$SB")
(
	cd "$TMP/d" || exit 1
	for _ in 1 2 3; do "$sb" run -c "$TMP/tiny.json" -q & done
	wait
)
n=$(find "$TMP/d/results" -name '*.json' | wc -l)
check "out: three runs without --out started together write 3 files (got $n)" test "$n" -eq 3
# The default name comes from meta.utc, which --meta can replace: no '/'.
(cd "$TMP/d" && "$sb" run -c "$TMP/tiny.json" -q --meta 'utc=/../../escaped')
check "out: --meta utc=/../../escaped keeps the default name in results/" \
	test "$(find "$TMP" -name '*.json' -path '*escaped*' | wc -l)" -eq 0 \
	-a "$(find "$TMP/d/results" -name '*.json' | wc -l)" -eq 4

# A temp file of a writer killed with SIGKILL is removed by the next
# writer in that directory once it is provably stale (no lock, > 1 min).
echo '{"partial' >"$TMP/o/.r.json.tmp.AbC123"
touch -d '-2 min' "$TMP/o/.r.json.tmp.AbC123"
echo x >"$TMP/o/.fresh.json.tmp.XyZ789"
"$SB" run -c "$TMP/tiny.json" -o "$TMP/o/r.json" -q
check "out: a stale temp file is cleaned by the next run" test ! -e "$TMP/o/.r.json.tmp.AbC123"
check "out: ... a fresh one (a live writer's, maybe) is kept" test -e "$TMP/o/.fresh.json.tmp.XyZ789"
(
	exec 9>"$TMP/o/.held.json.tmp.Held12"
	flock 9
	touch -d '-2 min' "$TMP/o/.held.json.tmp.Held12"
	"$SB" run -c "$TMP/tiny.json" -o "$TMP/o/r2.json" -q
)
check "out: ... an old one whose writer still holds its lock is kept" test -e "$TMP/o/.held.json.tmp.Held12"
rm -f "$TMP/o/.fresh.json.tmp.XyZ789" "$TMP/o/.held.json.tmp.Held12"
check "out: validate of the directory ignores hidden temp files" "$SB" validate "$TMP/o/r.json"

# compare --out: a report replaces a regular file, nothing else.
"$SB" compare "$TMP/o/r.json" "$TMP/o/r2.json" --out "$TMP/o/cmp.txt" 2>/dev/null
"$SB" compare "$TMP/o/r.json" "$TMP/o/r2.json" --out "$TMP/o/cmp.txt" 2>/dev/null
check "compare --out: replaces its own earlier report (rc $?)" test -s "$TMP/o/cmp.txt"
for p in "$TMP/o/null" "$TMP/o/link.json" "$TMP/o/fifo.json" "$TMP/o/dir" "$TMP/o/x/" ""; do
	"$SB" compare "$TMP/o/r.json" "$TMP/o/r2.json" --out "$p" 2>"$TMP/err"
	rc=$?
	check "compare --out \"$p\": exit 2 (got $rc): \"$(cat "$TMP/err")\"" test "$rc" -eq 2
done
check "compare --out: the FIFO, the symlink and the device are untouched" \
	test -p "$TMP/o/fifo.json" -a -L "$TMP/o/link.json" -a \( -c "$TMP/o/null" -o ! -e "$TMP/o/null" \)
