# shellcheck shell=bash
# machine.sh - what the machine was: its CPU, microcode, compiler and the
# loops' alignment (the document's meta), and the CPU others took meanwhile.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

"$SB" info --json >"$W/meta.json"
# What can make two machines disagree about the same loops: the CPU and its
# microcode (a VM's /proc/cpuinfo may have no microcode line), the
# compiler that built both programs (the .comment GCC and clang leave in
# the binary), and where the loop functions sit (harness/selfbench/loopsame.sh).
cpuinfo() { awk -F': *' -v k="$1" '$1 ~ "^" k "[ \t]*$" { print $2; exit }' /proc/cpuinfo; }
machine=$(jq -n --arg model "$(cpuinfo 'model name')" --arg fam "$(cpuinfo 'cpu family')" \
	--arg mod "$(cpuinfo model)" --arg step "$(cpuinfo stepping)" --arg mc "$(cpuinfo microcode)" \
	--arg cc "$(readelf -p .comment "$SB" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] *//p' | sort -u | paste -sd';' -)" \
	--argjson loops "$(BUILD=$BUILD harness/selfbench/loopsame.sh "${hvb_wl[@]}" | jq -s 'map(del(.callgrind))')" \
	'{cpu_model: $model, cpu_family: $fam, cpu_model_number: $mod, stepping: $step,
	  microcode: (if $mc == "" then null else $mc end),
	  microcode_reason: (if $mc == "" then "no microcode line in /proc/cpuinfo (a virtual machine shows none)" else null end),
	  compiler: $cc,
	  alignment: {loop_function_bytes: 64, how: "__attribute__((aligned(WL_LOOP_ALIGN))) on each loop function (harness/core/loop.h); loops inside it at the compiler default, the same flags for both programs",
	              loops: $loops}}')
times >"$W/times.txt" # here, not in a subshell: the subshell has no children
jq -n --argjson w "$(jq -n "$(date +%s.%N) - $bench_t0")" --argjson b "$(jq -n "$(cpu_s) - $busy0")" \
	--argjson o "$(own_s "$W/times.txt")" --argjson c "$(getconf _NPROCESSORS_ONLN)" --arg la "$(cat /proc/loadavg)" \
	'{section: "machine_load", status: "ok", wall_s: $w, cpus: $c, busy_cpu_s: $b, bench_cpu_s: $o,
	  other_cpu_s: ([$b - $o, 0] | max), other_share: ([$b - $o, 0] | max / ($w * $c)), loadavg: $la}' | add
