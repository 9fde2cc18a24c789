#!/usr/bin/env bash
# tier: quick
# t-studies.sh - the studies as data: every study of FINDINGS.md has a file
# in configs/studies/; `slicebench study` refuses bad ones with exit 2, the
# file and the key named and nothing printed; scripts/studies.sh --plan
# prints, for every study, the steps and reports its file asks for (checked
# here against the files with jq), runs and writes nothing and boots no
# guest (vm.sh is a stub that only lets --check-options through); a bad
# study file stops studies.sh with exit 2 before anything runs.
# needs: none (nothing boots: the driver runs in --plan mode)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
set -u

# --- every study of FINDINGS has its file ------------------------------------
for c in $(cat FINDINGS.md docs/findings/*.md | grep -oE 'configs/[a-z0-9-]+\.json' | sort -u); do
	n=$(grep -lF "\"config\": \"$c\"" configs/studies/*.json 2>/dev/null | wc -l)
	check "studies: $c (quoted in FINDINGS.md or docs/findings/) is run by one study file ($n)" test "$n" -eq 1
done
for f in configs/studies/*.json; do
	check "studies: ${f##*/} is named as its config" jq -e --arg n "${f##*/}" \
		'.config == "configs/" + $n' "$f"
done

# --- bad study files ----------------------------------------------------------
bad() { # bad NAME EXPECTED-MESSAGE-REGEX JSON: the file $TMP/NAME.json
	local f="$TMP/$1.json" rc=0
	printf '%s' "$3" >"$f"
	"$SB" study --tsv "$f" >"$TMP/out" 2>"$TMP/err" || rc=$?
	if [ "$rc" -eq 2 ] && grep -Eq -- "^slicebench: $f(:[0-9]+:[0-9]+)?: $2" "$TMP/err" &&
		[ ! -s "$TMP/out" ]; then
		ok "study: $1 -> exit 2, \"$(cat "$TMP/err")\""
	else
		notok "study: $1: exit $rc, \"$(cat "$TMP/err")\" (wanted exit 2, /$2/, no output)"
	fi
}
R='"config": "configs/rostedt-2023.json"'
bad syntax "" '{"config": }'
bad top-level '\(top level\): must be an object' '[1]'
bad no-config 'config: required' '{"places": ["vm"]}'
bad unknown-key 'baseline: unknown key \(did you mean "baselines"\?\)' "{$R, \"baseline\": [\"spin-tas\"]}"
bad missing-config 'config: configs/nope.json: ' '{"config": "configs/nope.json"}'
printf '%s' '{"runs": [{"thread": 2}]}' >"$TMP/badcfg.json"
bad config-error "config: $TMP/badcfg.json: runs\\[0\\]\\.thread: unknown key" \
	"{\"config\": \"$TMP/badcfg.json\"}"
bad place 'places\[1\]: unknown place "guest" \(known: vm, host\)' "{$R, \"places\": [\"vm\", \"guest\"]}"
bad place-twice 'places\[1\]: "vm" is listed twice' "{$R, \"places\": [\"vm\", \"vm\"]}"
bad no-places 'places: must be a non-empty list' "{$R, \"places\": []}"
bad preempt 'models\[0\]\.preempt: .*"fast"' "{$R, \"models\": [{\"preempt\": \"fast\"}]}"
bad no-preempt 'models\[0\]: needs a "preempt"' "{$R, \"models\": [{\"variant\": \"none\"}]}"
bad model-key 'models\[0\]\.premept: unknown key \(did you mean "preempt"\?\)' \
	"{$R, \"models\": [{\"premept\": \"lazy\"}]}"
bad none-default 'models\[1\]\.variant: "default": preempt "voluntary" needs the variant "none"' \
	"{$R, \"models\": [{\"preempt\": \"lazy\"}, {\"preempt\": \"voluntary\"}]}"
bad models-host 'models: the study does not run in the guest' \
	"{$R, \"places\": [\"host\"], \"models\": [{\"preempt\": \"lazy\"}]}"
bad boots 'boots: 0 is out of range 1\.\.99' "{$R, \"boots\": 0}"
bad baseline 'baselines\[1\]: "spin-tsa" is not a workload configs/rostedt-2023.json runs' \
	"{$R, \"baselines\": [\"slice-dry\", \"spin-tsa\"]}"
bad baselines-five 'baselines: must be a list of at most 4 strings' \
	"{$R, \"baselines\": [\"spin-tas\", \"slice-dry\", \"slice-spin\", \"spin-tas-1\", \"x\"]}"
bad baseline-twice 'baselines\[1\]: "spin-tas" is listed twice \(as baselines\[0\]\)' \
	"{$R, \"baselines\": [\"spin-tas\", \"spin-tas\"]}"
bad metric 'metrics\[1\]: unknown metric "victim_p95"' \
	"{$R, \"baselines\": [\"spin-tas\"], \"metrics\": [\"victim_p999\", \"victim_p95\"]}"
bad metric-ops 'metrics\[0\]: "ops_per_sec" is always compared' \
	"{$R, \"baselines\": [\"spin-tas\"], \"metrics\": [\"ops_per_sec\"]}"
bad metric-alone 'metrics: compared against the baselines, and there are none' \
	"{$R, \"metrics\": [\"victim_p99\"]}"
bad within 'within: "host" is not one of the study.s places' "{$R, \"places\": [\"vm\"], \"within\": [\"host\"]}"
bad vm-out 'vm_args\[0\]: "--out": --out is not allowed here' "{$R, \"vm_args\": [\"--out\", \"x.json\"]}"
bad vm-preempt 'vm_args\[0\]: "--preempt": --preempt is not allowed here: use "models"' \
	"{$R, \"models\": [{\"preempt\": \"full\"}], \"vm_args\": [\"--preempt\", \"lazy\"]}"
bad vm-host 'vm_args: the study does not run in the guest' \
	"{$R, \"places\": [\"host\"], \"vm_args\": [\"--no-selftest\"]}"
bad question 'question: configs/questions/nope.json.*No such file' "{$R, \"question\": \"configs/questions/nope.json\"}"
bad tab 'description: must not contain tabs or newlines' "{$R, \"description\": \"a\\tb\"}"
# A question whose contrasts ask for arms its config does not run.
qt=$PWD/configs/replicate/targets.json
jq --arg t "$qt" '.targets = $t | .contrasts[0].treatment = {"workload": "slice-adaptive"}' configs/questions/rostedt-2023.json >"$TMP/q-treat.json"
bad question-treatment "question: $TMP/q-treat.json: contrasts\\[0\\]\\.treatment: no run of configs/rostedt-2023.json is \\{\"workload\":\"slice-adaptive\"\\}" \
	"{$R, \"question\": \"$TMP/q-treat.json\"}"
jq --arg t "$qt" '.targets = $t | .contrasts[0].control = {"workload": "spin-tas", "cs_ns": 12345}' configs/questions/rostedt-2023.json >"$TMP/q-ctl.json"
bad question-control "question: $TMP/q-ctl.json: contrasts\\[0\\]\\.control: no run of configs/rostedt-2023.json is \\{\"cs_ns\":12345,\"workload\":\"spin-tas\"\\}" \
	"{$R, \"question\": \"$TMP/q-ctl.json\"}"
bad model-twice 'models\[1\]: name "lazy" is already models\[0\].s \(the result is NAME-vm-lazy.json; give one a "name"\)' \
	"{$R, \"models\": [{\"preempt\": \"lazy\", \"variant\": \"rt\"}, {\"preempt\": \"lazy\"}]}"
bad model-name 'models\[0\].name: "Rt_lazy" is not a name \(words of a-z and 0-9, each starting with a letter, joined by dashes\)' \
	"{$R, \"models\": [{\"preempt\": \"lazy\", \"name\": \"Rt_lazy\"}]}"
bad model-dash 'models\[0\].name: "rt-" is not a name' "{$R, \"models\": [{\"preempt\": \"lazy\", \"name\": \"rt-\"}]}"
bad model-digit 'models\[0\].name: "rt-2" is not a name' "{$R, \"models\": [{\"preempt\": \"lazy\", \"name\": \"rt-2\"}]}"
cp configs/studies/rostedt-2023.json "$TMP/Bad name.json"
rc=0
"$SB" study "$TMP/Bad name.json" >"$TMP/out" 2>"$TMP/err" || rc=$?
check "study: a file name that is no study name -> exit 2 ($rc): $(cat "$TMP/err")" \
	grep -q '(file name): "Bad name": only letters' "$TMP/err"
rc=0
"$SB" study --tsv configs/studies/*.json "$TMP/baseline.json" >"$TMP/out" 2>"$TMP/err" || rc=$?
check "study: one bad file among good ones: exit 2 ($rc), nothing printed" test "$rc" -eq 2 -a ! -s "$TMP/out"

# --- a tree in which studies.sh runs nothing for real -------------------------
# Its own configs/ (to hold a bad study), the real build/, no make (a
# Makefile that builds nothing), and a vm.sh that passes --check-options
# to the real one and logs any other call: a boot.
T=$TMP/tree
mkdir -p "$T/scripts"
cp -r configs "$T/configs"
ln -s "$PWD/build" "$T/build"
printf 'all:\n\t@:\n' >"$T/Makefile"
cp scripts/studies.sh "$T/scripts/"
cat >"$T/scripts/vm.sh" <<EOF
#!/bin/bash
for a in "\$@"; do [ "\$a" != --check-options ] || exec "$PWD/scripts/vm.sh" "\$@"; done
echo "BOOT \$*" >>"$TMP/boots"
exit 1
EOF
chmod +x "$T/scripts/vm.sh"
: >"$TMP/boots"

rc=0
"$T/scripts/studies.sh" --plan --out "$TMP/p" >"$TMP/plan" 2>"$TMP/plan.err" || rc=$?
check "plan: studies.sh --plan exits 0 ($rc)" test "$rc" -eq 0
[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/plan.err"
check "plan: no guest booted, no command run" test ! -s "$TMP/boots"
check "plan: nothing written (no $TMP/p)" test ! -e "$TMP/p"
# What each study's file asks for, in the plan's own words.
for f in configs/studies/*.json; do
	s=$(basename "$f" .json)
	# The results the steps write: one per place, model and boot.
	want=$(jq -r --arg s "$s" --arg o "$TMP/p" '
		(.places // ["vm", "host"]) as $pl | (.boots // 1) as $b |
		(if (.models // []) == [] then ["vm"] else [.models[] | "vm-" + (.name // .preempt)] end) as $vms |
		(if ($pl | index("vm")) then $vms[] as $v | range(1; $b + 1) as $k |
			if $k == 1 then "\($o)/\($s)-\($v).json" else "\($o)/boots/\($s)-\($v)-\($k).json" end
		 else empty end),
		(if ($pl | index("host")) then "\($o)/\($s)-host.json" else empty end)' "$f" | sort)
	got=$(grep "^step [0-9]*/[0-9]* $s " "$TMP/plan" | grep -oE -- '--out [^ ]+' | cut -d' ' -f2 | sort)
	check "plan: $s: the steps write exactly the results its file asks for ($(wc -w <<<"$got"))" \
		test "$want" = "$got"
	# Each guest step: the config, the timeout, the model's preempt and
	# variant, and every vm_arg.
	bad_steps=0
	while read -r line; do
		out=$(grep -oE -- '--out [^ ]+' <<<"$line" | cut -d' ' -f2)
		v=$(sed -E "s|.*/$s-(vm(-[a-z][a-z0-9]*)*)(-[0-9]+)?\\.json$|\\1|" <<<"$out")
		need=$(jq -r --arg v "$v" '
			"--config \(.config)", "--timeout \(.timeout_s // 1500)",
			(.vm_args // [] | join(" ") | select(. != "")),
			(.models // [] | .[] | select("vm-" + (.name // .preempt) == $v) |
				"--preempt \(.preempt) --variant \(.variant // "default")")' "$f")
		while IFS= read -r n; do
			[[ " $line " == *" $n "* ]] || { bad_steps=$((bad_steps + 1)); echo "# $s: '$n' not in: $line"; }
		done <<<"$need"
	done < <(grep "^step [0-9]*/[0-9]* $s vm" "$TMP/plan")
	check "plan: $s: each guest step has its config, timeout, model and vm_args" test "$bad_steps" -eq 0
	# The --within tables: each place of "within" x baseline x metric, md and json.
	want=$(jq -r --arg s "$s" '
		(.places // ["vm", "host"]) as $pl |
		(if (.models // []) == [] then ["vm"] else [.models[] | "vm-" + (.name // .preempt)] end) as $vms |
		(.within // (if ($pl | index("vm")) then ["vm"] else ["host"] end)) as $w |
		($w[] | if . == "vm" then $vms[] else "host" end) as $p | (.baselines // [])[] as $b |
		("", ((.metrics // [])[] | "-" + .)) as $m | ("md", "json") as $x |
		"compare/\($s)-within-\($p)-\($b)\($m).\($x)"' "$f" | sort)
	got=$(grep "^report $s: .* compare --exploratory --within " "$TMP/plan" | grep -oE -- '-o [^ ]+' | cut -d' ' -f2 | sort)
	check "plan: $s: the --within tables are its within x baselines x metrics ($(wc -w <<<"$got"))" \
		test "$want" = "$got"
	plot=$(grep "^report $s: .* plot " "$TMP/plan")
	q=$(jq -r '.question // ""' "$f")
	if [ -n "$q" ]; then
		check "plan: $s: the plot answers its question" grep -qF -- "--question $q " <<<"$plot"
	else
		check "plan: $s: the plot has no question" test -n "$plot" -a "${plot/--question/}" = "$plot"
	fi
	nb=$(jq -r '.baselines // [] | map("--baseline " + .) | join(" ")' "$f")
	check "plan: $s: the plot has its baselines" grep -qF -- "$nb" <<<"$plot"
done
# The boots of a guest result are the noise of its comparisons.
check "plan: interference's comparisons take its two other boots as --noise" \
	grep -qF -- '--noise boots/interference-vm-2.json --noise boots/interference-vm-3.json -o compare/interference-within-vm-spin-tas-victim_p99.json' "$TMP/plan"
check "plan: contention pairs its two models" \
	grep -qE '^report contention: .* compare --exploratory contention-vm-lazy.json contention-vm-full.json -f json -o compare/contention-lazy-vs-full.json$' "$TMP/plan"
n=$(grep -cE "^report preempt-regression: .* compare --exploratory preempt-regression-vm-none.json preempt-regression-vm-(voluntary|lazy|full).json -f json -o compare/preempt-regression-none-vs-(voluntary|lazy|full).json$" "$TMP/plan")
check "plan: preempt-regression pairs its first model, none, with each of the three others ($n)" test "$n" -eq 3

# --boots and --host-only change the plan, not the files.
"$T/scripts/studies.sh" --plan --boots 2 --only rostedt-2023,slice-durations --out "$TMP/p" >"$TMP/plan2" 2>/dev/null
check "plan: --boots 2 overrides a study's boots (rostedt-2023: 2 guest steps, not 3)" \
	test "$(grep -c '^step [0-9/]* rostedt-2023 vm:' "$TMP/plan2")" -eq 2
check "plan: ... and gives slice-durations a second boot" \
	grep -qF -- '--out '"$TMP"'/p/boots/slice-durations-vm-2.json --timeout 1500 --meta study=slice-durations --preempt lazy --no-selftest' "$TMP/plan2"
"$T/scripts/studies.sh" --plan --host-only --out "$TMP/p" >"$TMP/plan3" 2>/dev/null
check "plan: --host-only: only host steps" test "$(grep '^step' "$TMP/plan3" | grep -vc ' host: ')" -eq 0
check "plan: --host-only: memcached runs on the host" grep -q '^step [0-9/]* memcached host: build/slicebench run --config configs/memcached.json' "$TMP/plan3"
check "plan: --host-only: no step for slice-durations (guest only)" \
	test "$(grep -c '^step [0-9/]* slice-durations' "$TMP/plan3")" -eq 0
# --reports-only: the reports of the results that are there, nothing else.
mkdir -p "$TMP/r"
gzip -cd results/reference/memcached-host.json.gz >"$TMP/r/memcached-host.json"
"$T/scripts/studies.sh" --plan --reports-only --only memcached,applications --out "$TMP/r" >"$TMP/plan4" 2>"$TMP/plan4.err"
check "plan: --reports-only: no step" test "$(grep -c '^step' "$TMP/plan4")" -eq 0
check "plan: --reports-only: memcached's table and plot from the host result" \
	grep -qF 'report memcached: build/slicebench plot memcached-host.json --baseline program --question configs/questions/memcached.json --out plots/memcached' "$TMP/plan4"
check "plan: --reports-only: applications has no result there" \
	grep -q "^studies.sh: applications: no result in $TMP/r" "$TMP/plan4.err"
check "plan: still no guest booted" test ! -s "$TMP/boots"

# --- a bad study file stops the driver before anything runs --------------------
sed 's/"spin-tas"/"spin-tsa"/' configs/studies/rostedt-2023.json >"$T/configs/studies/rostedt-2023.json"
rc=0
"$T/scripts/studies.sh" --host-only --only syscall-vs-atomic,rostedt-2023 --out "$TMP/o" >/dev/null 2>"$TMP/e" || rc=$?
check "driver: a bad study file: exit 2 ($rc)" test "$rc" -eq 2
check "driver: ... naming the file and key: $(cat "$TMP/e")" \
	grep -q '^slicebench: configs/studies/rostedt-2023.json: baselines\[0\]: "spin-tsa" is not a workload' "$TMP/e"
check "driver: ... before anything ran (no $TMP/o)" test ! -e "$TMP/o"
cp configs/studies/rostedt-2023.json "$T/configs/studies/"
# vm.sh's own checks of a study's vm_args, before any boot.
jq '.vm_args = ["--smp", "0"]' configs/studies/syscall-vs-atomic.json >"$T/configs/studies/syscall-vs-atomic.json"
rc=0
"$T/scripts/studies.sh" --vm-only --only syscall-vs-atomic --out "$TMP/o" >/dev/null 2>"$TMP/e" || rc=$?
check "driver: vm_args vm.sh refuses: exit 2 ($rc)" test "$rc" -eq 2
check "driver: ... with vm.sh's reason and the study file: $(tr '\n' ' ' <"$TMP/e")" \
	grep -q 'studies.sh: configs/studies/syscall-vs-atomic.json: refused by scripts/vm.sh' "$TMP/e"
check "driver: ... no boot, nothing written" test ! -s "$TMP/boots" -a ! -e "$TMP/o"
# A stray file in configs/studies/ is skipped, named, and blocks nothing.
"$T/scripts/studies.sh" --plan --host-only --out "$TMP/o" >"$TMP/nostray" 2>/dev/null
cp configs/studies/rostedt-2023.json "$T/configs/studies/Copy of rostedt.json"
rc=0
"$T/scripts/studies.sh" --plan --host-only --out "$TMP/o" >"$TMP/stray" 2>"$TMP/e" || rc=$?
check "driver: a stray file in configs/studies/: exit 0 ($rc), named: $(head -1 "$TMP/e")" \
	grep -qx "studies.sh: configs/studies/Copy of rostedt.json: not a study name (letters, digits, '-'): skipped" "$TMP/e"
check "driver: ... every study planned as without it ($(grep -c '^report [a-z0-9-]*: build/slicebench plot' "$TMP/stray") plots)" \
	cmp -s "$TMP/stray" "$TMP/nostray"
rm "$T/configs/studies/Copy of rostedt.json"
rc=0
"$T/scripts/studies.sh" --plan --only nosuch --out "$TMP/o" >/dev/null 2>"$TMP/e" || rc=$?
check "driver: an unknown study: exit 2 ($rc), $(cat "$TMP/e")" \
	grep -qx 'studies.sh: no configs/studies/nosuch.json' "$TMP/e"
