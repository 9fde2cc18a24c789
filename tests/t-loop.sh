#!/usr/bin/env bash
# tier: quick
# t-loop.sh - the measured loop is one inline function, not a macro: its
# instructions carry loop.h's own line numbers (so perf annotate can say
# which statement is hot), and no loop makes an indirect call.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}

if ! command -v objdump >/dev/null; then
	notok "loop: objdump (binutils) is needed to read the line table"
	exit 0
fi
# Per instruction of one function, the file:line it is attributed to.
lines_of() { # lines_of OBJECT FUNCTION
	objdump -dl --no-show-raw-insn "$1" | awk -v f="$2" '
		$0 ~ "^[0-9a-f]+ <" f ">:$" { on = 1; next }
		on && /^[0-9a-f]+ <.*>:$/ { exit }
		on && /^\/.*:[0-9]+/ { n = split($1, p, "/"); where = p[n]; next }
		on && /^ +[0-9a-f]+:\t/ { print where }'
}

obj="$BUILD/workloads/locks/tas.o"
# The instantiating line: the WL_DEFINE_LOOPS line of tas.c.
define_line=$(grep -n '^WL_DEFINE_LOOPS(tas)' workloads/locks/tas.c | cut -d: -f1)
# Each shape of the loop is a function of its own (loop.h, wl_shape).
for fn in tas_POL_CS_LOOP_SAMPLED_WL_GENERAL tas_POL_CS_LOOP_SAMPLED_WL_SIMPLE; do
	lines_of "$obj" "$fn" >"$TMP/lines"
	total=$(wc -l <"$TMP/lines")
	inloop=$(grep -c '^loop\.h:' "$TMP/lines" || true)
	distinct=$(grep '^loop\.h:' "$TMP/lines" | sort -u | wc -l)
	atdefine=$(grep -c "^tas\.c:$define_line\$" "$TMP/lines" || true)
	if [ "$total" -gt 50 ] && [ $((inloop * 3)) -ge "$total" ] && [ "$distinct" -ge 20 ] &&
		[ $((atdefine * 10)) -le "$total" ]; then
		ok "loop: $fn: $inloop of $total instructions on $distinct lines of loop.h, $atdefine on tas.c:$define_line"
	else
		notok "loop: $fn: $inloop of $total instructions on $distinct lines of loop.h, $atdefine on tas.c:$define_line (want >= 1/3 on >= 20 lines, <= 1/10 on the instantiating line)"
	fi
done

for o in "$BUILD"/workloads/locks/*.o "$BUILD"/workloads/*.o; do
	n=$(objdump -d --no-show-raw-insn "$o" | awk '
		/^[0-9a-f]+ <.*_POL_.*_LOOP_.*>:$/ { on = 1; next }
		/^[0-9a-f]+ <.*>:$/ { on = 0 }
		on && /call +\*/ { n++ } END { print n + 0 }')
	fns=$(objdump -d "$o" | grep -c '_POL_.*_LOOP_.*>:$' || true)
	[ "$fns" -gt 0 ] || continue
	check "loop: ${o##*/}: no indirect call in its $fns loops (found $n)" test "$n" -eq 0
done
