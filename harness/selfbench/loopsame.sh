#!/usr/bin/env bash
# loopsame.sh - do the harness and the bare program run the same hot loop?
#   harness/selfbench/loopsame.sh [--callgrind] WORKLOAD...
#   harness/selfbench/loopsame.sh --dis BINARY FUNCTION    (one normalized listing)
# For each workload of section 2 of the bench (spin-tas, futex, adaptive),
# one JSON line: the loop function's offset from a 64-byte boundary in each
# program, whether the two disassemblies are the same instruction for
# instruction at the same offsets (addresses of data and of other code
# aside), and the first differing lines.  With --callgrind, each program
# also runs its loop under valgrind's callgrind, which counts executed
# instructions exactly whatever the machine's speed or load: the loop
# function's instructions divided by the executions of its hottest
# instruction (one per operation) is instructions per operation.
# Reads $BUILD/slicebench and $BUILD/selfbench/bare (`make bench-bin`).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
SB=$BUILD/slicebench BARE=$BUILD/selfbench/bare

# Hex text to a number (POSIX awk has no strtonum).
HEX='function hex(s,  i, n) { n = 0; s = tolower(s); for (i = 1; i <= length(s); i++)
	n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }'
# The listing of FUNCTION in BINARY, one "offset<TAB>instruction" per line,
# with every absolute address replaced by what it names: a jump inside the
# function by its offset, other code and data by their symbol.
normdis() { # normdis BINARY FUNCTION
	objdump -d --no-show-raw-insn --disassemble="$2" "$1" | awk -v fn="$2" "$HEX"'
		$0 ~ "^[0-9a-f]+ <" fn ">:$" { base = hex($1); on = 1; next }
		on && /^$/ { exit }
		on && /^ *[0-9a-f]+:\t/ {
			split($0, p, "\t")
			a = p[1]; gsub(/[ :]/, "", a)
			# jmp 9e870 <fn+0x40>  ->  jmp <+0x40>; jne 2a0 <fn.cold>  ->
			# jne <.cold>; call 1234 <sym>  ->  call <sym>
			rest = p[2]; ins = ""
			while (match(rest, /[0-9a-f]+ <[^>]*>/)) {
				t = substr(rest, RSTART, RLENGTH); sub(/^[0-9a-f]+ /, "", t)
				if (index(t, "<" fn "+") == 1 || index(t, "<" fn ".") == 1)
					t = "<" substr(t, length(fn) + 2)
				ins = ins substr(rest, 1, RSTART - 1) t
				rest = substr(rest, RSTART + RLENGTH)
			}
			ins = ins rest
			# Data by name alone: the comment names what a %rip operand
			# reaches, and where a constant sits in .rodata is no matter.
			# An unnamed constant (a .LC literal) is named by whatever
			# symbol precedes it, which differs between the programs:
			# an offset into a symbol reads as "<data>".
			gsub(/-?0x[0-9a-f]+\(%rip\)/, "(%rip)", ins)
			if (match(ins, /#.*/)) {
				c = substr(ins, RSTART)
				if (c ~ /\+0x[0-9a-f]+>/) c = "# <data>"
				ins = substr(ins, 1, RSTART - 1) c
			}
			gsub(/ +/, " ", ins)
			printf "%d\t%s\n", hex(a) - base, ins
		}'
}
# The function's address modulo 64.
offset64() { # offset64 BINARY FUNCTION
	nm "$1" | awk -v fn="$2" "$HEX"'$3 == fn { print hex($1) % 64; found = 1 } END { if (!found) print "null" }'
}
# callgrind's counts for the instructions of FUNCTION in BINARY: "N HOT
# IR_PER_OP TIMED SIGNATURE".  N is the executions of its hottest
# instruction, one per operation; HOT the instructions executed at least
# N/2 times, the untimed operation's path (the timed one runs 1 in
# sample_every); IR_PER_OP all its instructions over N (the timed ops and
# the phase changes included); SIGNATURE the hot path's offsets in the
# function.  By address, not by callgrind's function names: a jump to the
# function's .cold part and back reads to callgrind as a call, and the
# loop's instructions may then be filed under the .cold name.
cg_counts() { # cg_counts BINARY FUNCTION DUMP...
	local bin=$1 fn=$2 lo sz
	shift 2
	read -r lo sz < <(nm -S "$bin" | awk -v fn="$fn" '$4 == fn { print $1, $2; exit }')
	awk -v lo="$lo" -v sz="$sz" "$HEX"'
		BEGIN { lo = hex(lo); hi = lo + hex(sz) }
		/^calls=/ { incl = 1; next }  # the next cost line is the callee total
		/^0x/ { if (incl) { incl = 0; next } a = hex(substr($1, 3))
			if (a >= lo && a < hi) { c[a - lo] += $3; ir += $3 } next }
		{ incl = 0 }
		END {
			n = 0; for (o in c) if (c[o] > n) n = c[o]
			hot = 0; sig = ""
			for (o = 0; o < hi - lo; o++) if ((o in c) && c[o] >= n / 2) { hot++; sig = sig " " o }
			printf "%d %d %s %s\n", n, hot, (n ? ir / n : "null"), substr(sig, 2)
		}' "$@"
}

if [ "${1:-}" = --dis ]; then
	normdis "${2:?--dis BINARY FUNCTION}" "${3:?--dis BINARY FUNCTION}"
	exit 0
fi
cg=0
[ "${1:-}" != --callgrind ] || { cg=1; shift; }
[ $# -gt 0 ] || { sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
for b in "$SB" "$BARE"; do
	[ -x "$b" ] || { echo "loopsame.sh: $b missing: run 'make bench-bin'" >&2; exit 2; }
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
if [ "$cg" = 1 ]; then
	command -v valgrind >/dev/null || { echo "loopsame.sh: valgrind is not installed" >&2; exit 2; }
	cpu0=$("$SB" info --json | jq '.topology.allowed_cpus | if type == "array" then .[0]
		else (tostring | capture("^(?<n>[0-9]+)").n | tonumber) end')
fi
vg=(valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no)

for wl in "$@"; do
	# The workload's lock: spin-tas is tas with no slice policy, the
	# others are their lock's name (workloads/registry.c).
	lk=${wl#spin-}
	fn=${lk}_POL_NONE_LOOP_SAMPLED_WL_SIMPLE bfn=bare_$lk
	normdis "$SB" "$fn" >"$W/h.dis"
	normdis "$BARE" "$bfn" >"$W/b.dis"
	same=false
	[ -s "$W/h.dis" ] && cmp -s "$W/h.dis" "$W/b.dis" && same=true
	diff=$(diff "$W/h.dis" "$W/b.dis" | grep '^[<>]' | head -n 6 || true)
	cgj=null
	if [ "$cg" = 1 ]; then
		rm -f "$W"/*.out "$W/o.json" "$W/b.json"
		# timeout_s: valgrind runs the harness 50-100x slower, more on a busy host
		jq -c --arg w "$wl" '. + {workload: $w, duration_s: 0.2, warmup_s: 0.05, timeout_s: 600}' \
			harness/selfbench/configs/hvb.json | jq -c '{name: "loopsame", runs: [.]}' >"$W/c.json"
		# --trace-children: the harness measures in a child process.
		"${vg[@]}" --trace-children=yes --callgrind-out-file="$W/h.%p.out" \
			"$SB" run -c "$W/c.json" -o "$W/o.json" -q >"$W/h.log" 2>&1 || true
		"${vg[@]}" --callgrind-out-file="$W/b.out" "$BARE" "$wl" 0.2 0.05 "$cpu0" \
			>"$W/b.json" 2>"$W/b.log" || true
		read -r hn hhot hper hsig < <(cg_counts "$SB" "$fn" "$W"/h.*.out)
		read -r bn bhot bper bsig < <(cg_counts "$BARE" "$bfn" "$W/b.out")
		cgj=$(jq -nc --argjson hn "$hn" --argjson hh "$hhot" --argjson hp "$hper" --arg hs "$hsig" \
			--argjson bn "$bn" --argjson bh "$bhot" --argjson bp "$bper" --arg bs "$bsig" \
			--argjson bo "$(jq '.total_ops // null' "$W/b.json" 2>/dev/null || echo null)" \
			--arg st "$(jq -r '.results[0].status // "no result"' "$W/o.json" 2>/dev/null || echo "no result")" \
			'{harness: {ops: $hn, hot_instructions: $hh, ir_per_op: $hp, status: $st},
			  bare: {ops: $bn, hot_instructions: $bh, ir_per_op: $bp, total_ops: $bo},
			  same_hot_path: ($hs == $bs and $hs != ""), hot_path_offsets: $hs}')
	fi
	jq -nc --arg w "$wl" --arg f "$fn" --arg bf "$bfn" --argjson s "$same" --arg d "$diff" \
		--argjson ho "$(offset64 "$SB" "$fn")" --argjson bo "$(offset64 "$BARE" "$bfn")" \
		--argjson n "$(wc -l <"$W/h.dis")" --argjson cg "$cgj" \
		'{workload: $w, function: {harness: $f, bare: $bf}, instructions: $n, same_code: $s,
		  offset64: {harness: $ho, bare: $bo}, diff: $d, callgrind: $cg}'
done
