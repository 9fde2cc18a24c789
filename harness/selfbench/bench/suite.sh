# shellcheck shell=bash
# suite.sh - section 5: the suites' wall times.
# Sourced by harness/selfbench/bench.sh, in its shell and its directory.

# --- 5. Suite costs -------------------------------------------------------
suite_time() { # suite_time NAME TARGET_S COMMAND...
	local name=$1 target=$2 t0 t1 rc=0
	shift 2
	note "suite: $name"
	t0=$(now)
	"$@" >"$W/suite.log" 2>&1 || rc=$?
	t1=$(now)
	jq -n --arg n "$name" --argjson t "$target" --argjson w "$(jq -n "$t1 - $t0")" --argjson rc "$rc" \
		--arg cmd "$*" --arg log "$(tail -n 3 "$W/suite.log")" \
		'{section: "suite", name: $n, command: $cmd, status: (if $rc == 0 then "ok" else "failed" end),
		  reason: (if $rc == 0 then null else "exit \($rc): \($log)" end),
		  wall_s: $w, target: {max_s: $t}, met: ($rc == 0 and $w <= $t)}' | add
}
skip() { # skip NAME REASON
	jq -n --arg n "$1" --arg r "$2" '{section: "suite", name: $n, status: "skipped", reason: $r}' | add
}
if [ "$mode" = smoke ]; then
	skip "configs/ci.json" "smoke mode"
	skip "configs/quick.json" "smoke mode"
	skip "vm boot to first result" "smoke mode"
else
	suite_time "configs/ci.json" 15 "$SB" run -c configs/ci.json -o "$W/ci.json" -q
	suite_time "configs/quick.json" 60 "$SB" run -c configs/quick.json -o "$W/quick.json" -q
	if [ ! -x scripts/vm.sh ]; then
		skip "vm boot to first result" "scripts/vm.sh missing"
	elif ! kp=$(kernel/build.sh --print-path 2>/dev/null); then
		skip "vm boot to first result" "no cached guest kernel (kernel/build.sh not run)"
	else
		# One 0.05 s run: the wall is boot + the first result + its transfer.
		# Without the guest's timing-floor calibration (~8 s of probes run
		# before the suite) and its warm-up (6 s by default, kernel/README.md
		# "Warming the guest up"): they buy a measurement's quality, they
		# are not the first result.
		suite_time "vm boot to first result" 15 scripts/vm.sh --config harness/selfbench/configs/first.json \
			--out "$W/vm.json" --kernel "$kp" --no-selftest --no-calibration --warmup 0 --timeout 120
	fi
fi
if kernel/build.sh --print-path >/dev/null 2>&1; then
	suite_time "cached kernel build (kernel/build.sh --print-path)" 2 kernel/build.sh --print-path
else
	skip "cached kernel build (kernel/build.sh --print-path)" "no cached guest kernel"
fi
# The cold build is not repeated (15 min); its figure is kernel/README.md's.
# shellcheck disable=SC2016 # the backquotes are literal markdown
cold=$(grep -m1 -F 'cold `build.sh`' kernel/README.md | awk -F'|' '{ gsub(/^ +| +$/, "", $3); print $3 }' || true)
jq -n --arg c "${cold:-not recorded}" '{section: "suite", name: "cold kernel build",
	status: "reported", reason: "from kernel/README.md, not rebuilt", value: $c}' | add

