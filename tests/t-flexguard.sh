#!/usr/bin/env bash
# tier: quick
# alone: its BPF detector counts the context switches of the lock's threads
# t-flexguard.sh - the flexguard lock where BPF loads and where it does
# not: as root the run is "ok" with exact counts (tests/unit/fgdetect.c
# watches the program itself count a switched-out thread); unprivileged (as
# nobody, when root runs the test) it is "unsupported" with the reason the
# kernel gave, and its controls (detector 0 and 2, no BPF) still count
# exactly.  The injected causes are in tests/unit/bpfwhy.c.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

[ -x "$SB" ] || { notok "flexguard: no harness at $SB (run make)"; exit 0; }
mkdir -m 1777 "$TMP/out"
chmod 755 "$TMP"

# runs CONFIG-FILE OUT [PREFIX...]: one run, as the given user
runs() {
	local cfg=$1 out=$2
	shift 2
	"$@" "$SB" run --config "$cfg" --out "$out" --quiet 2>"$TMP/err"
}

printf '%s' '{"defaults": {"duration_s": 0.3, "warmup_s": 0.05, "repetitions": 2, "cs_ns": 200, "think_ns": 200},
  "runs": [{"lock": "flexguard", "detector": [1, 0, 2], "threads": [2, "4x"]}]}' >"$TMP/fg.json"

# status_of FILE DETECTOR THREADS
status_of() {
	jq -r --argjson d "$2" --argjson n "$3" \
		'[.results[] | select(.params.detector == $d and .nthreads == $n) | .status] | join(",")' "$1"
}

as_nobody=()
if [ "$(id -u)" -ne 0 ]; then
	ok "flexguard: as root # SKIP not root (the run below is this user's)"
elif ! build/tests/fgdetect >"$TMP/det" 2>&1; then
	notok "flexguard: the sched_switch program misbehaves as root:"
	sed 's/^/# /' "$TMP/det"
elif grep -q SKIP "$TMP/det"; then
	ok "flexguard: as root # SKIP $(sed -n 's/.*# SKIP //p' "$TMP/det")"
elif runs "$TMP/fg.json" "$TMP/root.json"; then
	st=$(jq -r '[.results[].status] | unique | join(",")' "$TMP/root.json")
	check "flexguard: as root every detector runs ok with exact counts ($st)" test "$st" = ok
	as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all)
else
	notok "flexguard: as root the run failed: $(cat "$TMP/err")"
fi

if runs "$TMP/fg.json" "$TMP/out/user.json" "${as_nobody[@]}"; then
	got=$(jq -r '[.results[] | select(.params.detector == 1) | "\(.status): \(.reason)"] | unique | join(" | ")' "$TMP/out/user.json")
	case $got in
	"unsupported: bpf() failed with EPERM: loading a tracepoint program needs CAP_BPF and CAP_PERFMON"*)
		ok "flexguard: unprivileged, the run records why ($got)" ;;
	*) notok "flexguard: unprivileged, wanted unsupported with the capability reason, got: $got" ;;
	esac
	for d in 0 2; do
		for n in 2 "$(jq '[.results[].nthreads] | max' "$TMP/out/user.json")"; do
			check "flexguard: unprivileged, detector $d at $n threads counts exactly ($(status_of "$TMP/out/user.json" "$d" "$n"))" \
				test "$(status_of "$TMP/out/user.json" "$d" "$n")" = ok
		done
	done
else
	notok "flexguard: the unprivileged run failed: $(cat "$TMP/err")"
fi

# More lock threads than the program has slots (the threads key's 4096,
# passed by "Nx", N up to 64, on more than 64 PUs): refused with the
# count, not run with threads the detector never sees (before: ok beyond
# 1024 threads, silently).  tests/unit/fgdetect.c watches slot 4095.
pus=$("$SB" info --json | jq '.topology.pus // 0')
if [ "$((pus * 64))" -le 4096 ]; then
	ok "flexguard: more lock threads than 4096 # SKIP \"64x\" on $pus PUs is $((pus * 64))"
else
	printf '{"defaults": {"duration_s": 0.05, "warmup_s": 0, "repetitions": 1, "events": []},
	  "runs": [{"lock": "flexguard", "detector": [1, 0], "threads": "64x"}]}' >"$TMP/fgmany.json"
	runs "$TMP/fgmany.json" "$TMP/fgmany.out.json" || true
	got=$(jq -r '[.results[] | "\(.status): \(.reason)"] | unique | join(" | ")' "$TMP/fgmany.out.json" 2>/dev/null)
	asked=$(sed -n 's/^unsupported: flexguard serves at most 4096 lock threads, \([0-9]*\) asked$/\1/p' <<<"$got")
	check "flexguard: 64 threads per PU ($pus PUs) is refused with the count ($got)" test "${asked:-0}" -gt 4096
fi
