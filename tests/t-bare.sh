#!/usr/bin/env bash
# tier: quick
# t-bare.sh - what a bare-metal run lacks: `info`'s list (the extension,
# RSEQ stats, tracefs, PMU, root) with a fix for each, the reasons a user
# who is not root gets, and ./run.sh's two ways forward after a run whose
# slice rows were unsupported.
# needs: none (it reads the advice that names a guest run; nothing boots)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

"$SB" info --json >"$TMP/info.json"
check "bare: info --json lists the five items, each ok or with reason and fix" \
	jq -e '.bare_metal | (keys == ["pmu", "root", "rseq_stats", "slice_extension", "tracefs"])
		and all(.[]; .ok == true or ((.reason | length > 0) and (.fix | length > 0)))' \
	"$TMP/info.json"
check "bare: the list's slice reason is the meta's" \
	jq -e '(.slice_extension.available and .bare_metal.slice_extension.ok)
		or (.bare_metal.slice_extension.reason == .slice_extension.reason)' "$TMP/info.json"
"$SB" info >"$TMP/info.txt"
if jq -e '.bare_metal.slice_extension.ok' "$TMP/info.json" >/dev/null; then
	check "bare: info text does not list the extension as lacking" \
		bash -c "! grep -q '^  slice_extension ' '$TMP/info.txt'"
else
	fix=$(jq -r '.bare_metal.slice_extension.fix' "$TMP/info.json")
	check "bare: info text ends with the extension's reason and its fix" \
		grep -qxF "                   fix: $fix" "$TMP/info.txt"
fi

# The PMU, against perf's own answer for the same event.
if command -v perf >/dev/null && perf stat -x, -e cycles:u true 2>"$TMP/perf.csv" &&
	grep -q ',cycles:u,' "$TMP/perf.csv"; then
	if grep -q '^<not supported>' "$TMP/perf.csv"; then want=false; else want=true; fi
	got=$(jq '.bare_metal.pmu.ok' "$TMP/info.json")
	check "bare: pmu.ok $got agrees with perf stat -e cycles:u ($want)" [ "$got" = "$want" ]
else
	notok "bare: perf stat -e cycles:u cannot run here: $(head -c 200 "$TMP/perf.csv")"
fi

# As a user: debugfs mounted with its default mode 0700 (SLICEBENCH_DEBUGFS
# stands in for it), so the stats, slice_ext_nsec and root all say why.
mkdir "$TMP/dbg" "$TMP/dbg/sched" && chmod 711 "$TMP" && chmod 700 "$TMP/dbg"
as_user=()
[ "$(id -u)" -ne 0 ] || as_user=(runuser -u nobody --)
if SLICEBENCH_DEBUGFS="$TMP/dbg" "${as_user[@]}" "$SB" info --json >"$TMP/user.json" 2>"$TMP/user.err"; then
	check "bare: as a user, root is lacking with the fix 'run as root: sudo ./run.sh'" \
		jq -e '.bare_metal.root == {"ok": false, "fix": "run as root: sudo ./run.sh",
			"reason": "not root: slice_ext_nsec, debugfs rseq/stats and tracefs need it"}' \
		"$TMP/user.json"
	check "bare: as a user, rseq stats say debugfs is root's only, fix: sudo" \
		jq -e '.bare_metal.rseq_stats == {"ok": false, "fix": "run as root: sudo ./run.sh",
			"reason": "debugfs rseq/stats: debugfs is root'"'"'s only, and this is not root"}' \
		"$TMP/user.json"
	check "bare: as a user, slice_ext_nsec says debugfs is root's only" \
		jq -e '.slice_extension.slice_ext_nsec_reason == "debugfs is root'"'"'s only, and this is not root"' \
		"$TMP/user.json"
else
	notok "bare: info as a user failed: $(head -c 300 "$TMP/user.err")"
fi

# ./run.sh: a run with an unsupported slice row ends with the two ways
# forward, one line each, after the reason when --quiet left out the table
# that states it; a run without one does not.
cfg=$TMP/slice.json
cat >"$cfg" <<'EOF'
{"name": "bare", "defaults": {"duration_s": 0.05, "warmup_s": 0, "repetitions": 1, "events": []},
 "runs": [{"workload": ["spin-tas", "slice-spin"]}]}
EOF
./run.sh --config "$cfg" --out "$TMP/r1.json" --no-plot --quiet >"$TMP/run.out" 2>"$TMP/run.err"
rc=$?
if jq -e '.results[1].status == "unsupported"' "$TMP/r1.json" >/dev/null 2>&1; then
	why=$(jq -r '.results[1].reason' "$TMP/r1.json")
	tail -4 "$TMP/run.err" >"$TMP/tail"
	printf '%s\n' "slice extension: did not run: $why" \
		"the slice workloads need a kernel with the extension:" \
		"  way 1, the guest with the patched kernel:  ./run.sh --vm --config $cfg" \
		"  way 2, a kernel for this machine: docs/bare-metal.md, then ./run.sh --config $cfg (build/slicebench info lists what else is missing)" \
		>"$TMP/want"
	check "bare: run.sh (exit $rc) ends an unsupported slice run with the two ways forward" \
		diff "$TMP/want" "$TMP/tail"
else
	check "bare: run.sh (exit $rc) on a kernel with the extension prints no way forward" \
		bash -c "[ $rc -eq 0 ] && ! grep -q 'way 1' '$TMP/run.err'"
fi
sed -i 's/"slice-spin"/"futex"/' "$cfg"
./run.sh --config "$cfg" --out "$TMP/r2.json" --no-plot --quiet >/dev/null 2>"$TMP/run2.err"
rc=$?
check "bare: run.sh (exit $rc) without slice rows prints no way forward" \
	bash -c "[ $rc -eq 0 ] && ! grep -q 'way 1' '$TMP/run2.err'"
