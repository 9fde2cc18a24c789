#!/usr/bin/env bash
# tier: host
# t-report.sh - the report as a reader gets it: plot the committed reference
# results of one study with its question, open index.html in Debian's
# headless chromium at a laptop's window size, and check from inside the
# page that the first figure is the answer and rendered, that every image
# loaded and nothing is wider than the page; the same for the report of
# every reference study that has a question; a screenshot must come out.
# Every report stays within its size budget (harness/report/plothtml.h).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/inpage.sh
. "$(dirname "$0")/inpage.sh"

if [ -z "$chrome" ]; then
	notok "report: chromium is not installed (scripts/install-deps.sh check installs it)"
	exit 1
fi
out="$TMP/report"
ref=results/reference
"$SB" plot "$ref/rostedt-2023-vm.json.gz" "$ref/rostedt-2023-host.json.gz" --baseline spin-tas \
	--question configs/questions/rostedt-2023.json --out "$out" 2>"$TMP/plot.err"
rc=$?
check "report: plot of the rostedt-2023 reference exits 0 (rc=$rc)" test "$rc" -eq 0
check "report: the answer figure comes before the verdicts" \
	awk '/id="answer-spin-tas"/ {a = NR} /id="verdicts"/ {v = NR} END {exit !(a && v && a < v)}' "$out/index.html"
n=$(grep -c '<figcaption>' "$out/index.html")
m=$(grep -c '<img ' "$out/index.html")
check "report: every figure has a caption ($n of $m)" test "$n" -eq "$m" -a "$m" -ge 5
check "report: index.html loads nothing from the network" \
	test -z "$(grep -Eo '(src|href)="(https?:)?//[^"]*' "$out/index.html")"

# The checks run in the page: a copy of index.html with a script that
# writes one line per check into the DOM, which --dump-dom prints.
cat >"$TMP/check.js" <<'JS'
window.addEventListener('load', function () {
	var out = [], w = document.documentElement.clientWidth;
	var imgs = document.images, bad = [];
	var a = imgs.length ? imgs[0] : null, ar = a ? a.getBoundingClientRect() : null;
	out.push((a && /(^|\/)answer\.png$/.test(a.getAttribute('src')) && a.complete &&
		a.naturalWidth > 0 && ar.width > 300 && ar.height > 100 ? 'ok' : 'not ok') +
		' report: the first figure is the answer, drawn ' +
		(ar ? Math.round(ar.width) + 'x' + Math.round(ar.height) : 'nowhere') +
		(a ? ' from ' + a.getAttribute('src') + ' (' + a.naturalWidth + ' px wide)' : ''));
	for (var i = 0; i < imgs.length; i++)
		if (!imgs[i].complete || imgs[i].naturalWidth === 0) bad.push(imgs[i].getAttribute('src'));
	out.push((imgs.length && !bad.length ? 'ok' : 'not ok') + ' report: ' + imgs.length +
		' images loaded' + (bad.length ? ', broken: ' + bad.join(' ') : ''));
	var wide = [], all = document.body.getElementsByTagName('*');
	for (var j = 0; j < all.length; j++) {
		var r = all[j].getBoundingClientRect();
		if (r.width && r.right > w + 1) wide.push(all[j].tagName + '#' + (all[j].id || j) + ':' + Math.round(r.right));
	}
	out.push((wide.length ? 'not ok' : 'ok') + ' report: nothing wider than the page (' + w +
		' px)' + (wide.length ? ': ' + wide.slice(0, 5).join(' ') : ''));
	out.push((document.documentElement.scrollWidth <= w ? 'ok' : 'not ok') +
		' report: no horizontal scrolling (scroll width ' + document.documentElement.scrollWidth +
		' of ' + w + ')');
	checks_out(out);
});
JS
lines=$(in_page "$TMP/check.js" "$out/index.html" profile1 "")
if [ -z "$lines" ]; then
	notok "report: the checks did not run in chromium: $(tail -3 "$TMP/chrome-profile1.err" | tr '\n' ' ')"
else
	echo "$lines"
	check "report: all four in-page checks reported" test "$(echo "$lines" | wc -l)" -eq 4
fi
# The control: a broken image and a block wider than the window must fail
# the same checks, or they prove nothing.
lines=$(in_page "$TMP/check.js" "$out/index.html" profile3 '<img src="missing.png"><div style="width:3000px">x</div>')
check "report: control: a broken image is caught" \
	grep -q '^not ok report: [0-9]* images loaded, broken: missing.png' <<<"$lines"
check "report: control: a 3000 px block is caught" \
	grep -q '^not ok report: nothing wider than the page (1280 px): DIV' <<<"$lines"
# The control of the answer check: the same report without answer.png.
cp -r "$out" "$TMP/noanswer"
rm "$TMP/noanswer/answer.png"
lines=$(in_page "$TMP/check.js" "$TMP/noanswer/index.html" profile4 '')
check "report: control: a missing answer figure is caught" \
	grep -q '^not ok report: the first figure is the answer, drawn .* from answer.png (0 px wide)' <<<"$lines"
# Every reference study with a question: its report opens on the answer
# figure in the browser, and that figure stays within a screen's height
# or so (1,000 px: the contention study's was 1,474 before its panels
# were split by lock).
n=0
for q in configs/questions/*.json; do
	s=$(basename "$q" .json)
	ins=()
	for f in "$ref/$s"-vm*.json.gz "$ref/$s-host.json.gz"; do [ -f "$f" ] && ins+=("$f"); done
	[ "${#ins[@]}" -gt 0 ] || continue
	n=$((n + 1))
	"$SB" plot "${ins[@]}" --question "$q" --out "$TMP/study-$s" 2>"$TMP/study-$s.err"
	rc=$?
	check "report: $s: plot of its reference results exits 0 (rc=$rc)" test "$rc" -eq 0
	# A study whose treatment could not run where its results come from
	# (memcached's program+cs on the host: no slice extension) has no
	# pair to draw; its report must say so where the answer would be.
	if grep -q '^slicebench plot: answer skipped: no contrast of the question has a pair' "$TMP/study-$s.err"; then
		check "report: $s: no answer figure (no treatment result has a control: $(jq -r '[.results[] | select(.status != "ok") | "\(.workload) \(.status)"] | unique | join(", ")' <(gzip -cd "${ins[@]}") | paste -sd ' ')), and the report says why" \
			grep -Eq 'no contrast has a pair in these inputs|nothing compared: ' "$TMP/study-$s/index.html"
		continue
	fi
	lines=$(in_page "$TMP/check.js" "$TMP/study-$s/index.html" "profile-$s" "")
	check "report: $s: the answer comes first and every image loads in chromium: $(grep -c '^ok' <<<"$lines") of 4 checks ok" \
		test "$(grep -c '^ok' <<<"$lines")" -eq 4
	grep '^not ok' <<<"$lines" | sed "s/^/# $s: /"
	h=$(file "$TMP/study-$s/answer.png" | sed -n 's/.*PNG image data, [0-9]* x \([0-9]*\),.*/\1/p')
	check "report: $s: the answer figure is at most 1000 px tall (${h:-none})" test "${h:-99999}" -le 1000
done
check "report: the reference studies with a question number at least 6 ($n)" test "$n" -ge 6
(cd "$TMP" && "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--window-size=1280,800 --user-data-dir="$TMP/profile2" \
	--screenshot="$TMP/shot.png" "file://$out/index.html" >/dev/null 2>"$TMP/shot.err")
check "report: chromium took a screenshot" test -s "$TMP/shot.png"
check "report: the screenshot is a PNG" \
	test "$(head -c 8 "$TMP/shot.png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n'
if [ -n "${REPORT_SHOT:-}" ]; then cp "$TMP/shot.png" "$REPORT_SHOT"; fi

# The size budget, PLOT_INDEX_BUDGET in harness/report/plothtml.h: this report and
# every study report drawn above.
budget=$(sed -n 's/^#define PLOT_INDEX_BUDGET (\([0-9]*\) \* 1024)$/\1/p' harness/report/plothtml.h)
if [ -z "$budget" ]; then
	notok "report: no PLOT_INDEX_BUDGET in harness/report/plothtml.h"
else
	for f in "$out/index.html" "$TMP"/study-*/index.html; do
		sz=$(stat -c %s "$f")
		check "report: ${f#"$TMP"/} is within ${budget} KB ($sz bytes)" test "$sz" -le $((budget * 1024))
	done
fi
