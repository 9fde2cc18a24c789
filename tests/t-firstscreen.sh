#!/usr/bin/env bash
# tier: host
# t-firstscreen.sh - the first screen of a report, as a reader's browser
# draws it: two study reports plotted from the committed reference results
# (rostedt-2023, and contention with its four baselines, the largest) and
# the replication page, each opened in Debian's headless chromium at
# 1280x1000.  From inside the page: the question, the answer figure and
# the verdict table start within the first 1,000 px; at most 80 words of
# description are visible above the table and no visible paragraph has
# more; no "skipped" text is visible; every image loads and none is taller
# than 1,600 px; no table header breaks inside a word.  A control page
# that breaks each rule must fail each check.  preempt-regression: no
# image taller than 1,600 px (a family in parts).  The answer figures of
# guzik-question and interference: no two rows of a panel share a label,
# and each row of interference's names the extension length it asks about.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/inpage.sh
. "$(dirname "$0")/inpage.sh"
export INPAGE_SIZE=1280,1000

if [ -z "$chrome" ]; then
	notok "firstscreen: chromium is not installed (scripts/install-deps.sh check installs it)"
	exit 1
fi
if ! command -v gnuplot >/dev/null; then
	notok "firstscreen: gnuplot is not installed (gnuplot-nox, from scripts/install-deps.sh check)"
	exit 1
fi
ref=results/reference

# The checks run in the page: a copy of it with this script, which writes
# one line per check into the DOM that --dump-dom prints.
cat >"$TMP/check.js" <<'JS'
window.addEventListener('load', function () {
	var out = [], H = 1000;
	var top = function (e) {
		return e ? Math.round(e.getBoundingClientRect().top + window.scrollY) : -1;
	};
	// shown: no ancestor hidden, none inside a closed <details> but its summary
	var shown = function (e) {
		for (var n = e; n && n.nodeType === 1; n = n.parentElement) {
			var d = n.parentElement;
			if (d && d.tagName === 'DETAILS' && !d.open && n.tagName !== 'SUMMARY') return false;
			if (getComputedStyle(n).display === 'none') return false;
		}
		return true;
	};
	var words = function (s) { return s.split(/\s+/).filter(function (w) { return w; }).length; };
	var q = document.getElementById('question'), img = document.querySelector('figure img'),
		tab = document.getElementById('verdict-table');
	[['the question', q], ['the answer figure', img], ['the verdict table', tab]].forEach(function (x) {
		var t = top(x[1]);
		out.push((t >= 0 && t < H ? 'ok' : 'not ok') + ' firstscreen: PAGE: ' + x[0] + ' starts at ' +
			(t >= 0 ? t + ' px' : 'nowhere') + ' (within ' + H + ')');
	});
	// description: the visible prose (p, li, figcaption) before the table,
	// the lines saying where it ran (p.ext) aside; and each visible one
	var above = 0, worst = 0, what = '';
	document.querySelectorAll('p, li, figcaption').forEach(function (e) {
		if (!shown(e)) return;
		var n = words(e.innerText || '');
		if (n > worst) { worst = n; what = e.tagName + ': ' + e.innerText.slice(0, 50); }
		if (!e.classList.contains('ext') && tab &&
			(e.compareDocumentPosition(tab) & Node.DOCUMENT_POSITION_FOLLOWING)) above += n;
	});
	out.push((tab && above <= 80 ? 'ok' : 'not ok') + ' firstscreen: PAGE: ' + above +
		' words of description above the verdict table (at most 80)');
	out.push((worst <= 80 ? 'ok' : 'not ok') + ' firstscreen: PAGE: the longest visible description has ' +
		worst + ' words (at most 80)' + (worst > 80 ? ': ' + what : ''));
	var sk = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (var t = walk.nextNode(); t; t = walk.nextNode())
		if (/skipped/i.test(t.nodeValue) && shown(t.parentElement))
			sk.push(t.nodeValue.trim().slice(0, 50));
	out.push((sk.length ? 'not ok' : 'ok') + ' firstscreen: PAGE: no visible "skipped" text' +
		(sk.length ? ': ' + sk.slice(0, 3).join(' | ') : ''));
	var bad = [], imgs = document.images;
	for (var i = 0; i < imgs.length; i++)
		if (!imgs[i].complete || imgs[i].naturalHeight === 0 || imgs[i].naturalHeight > 1600 ||
			imgs[i].clientHeight > 1600)
			bad.push(imgs[i].getAttribute('src') + ':' + imgs[i].naturalHeight);
	out.push((bad.length || !imgs.length ? 'not ok' : 'ok') + ' firstscreen: PAGE: ' + imgs.length +
		' images load, none taller than 1600 px' + (bad.length ? ': ' + bad.slice(0, 4).join(' ') : ''));
	// a header breaks between words only ("MDE" once read "MD E")
	var split = [];
	document.querySelectorAll('th').forEach(function (th) {
		if (!shown(th)) return;
		var w = th.textContent.match(/[^\s\/-]+/g) || [], r = document.createRange(), t = th.firstChild;
		for (var i = 0, at = 0; t && t.nodeType === 3 && i < w.length; i++) {
			at = t.nodeValue.indexOf(w[i], at);
			r.setStart(t, at);
			r.setEnd(t, at + w[i].length);
			at += w[i].length;
			if (r.getClientRects().length > 1) split.push(w[i]);
		}
	});
	out.push((split.length ? 'not ok' : 'ok') + ' firstscreen: PAGE: no table header breaks inside a word' +
		(split.length ? ': ' + split.slice(0, 4).join(' ') : ''));
	checks_out(out);
});
JS
# page NAME PAGE: the eight checks of PAGE, each an ok or not ok line.
page() {
	local lines
	lines=$(in_page "$TMP/check.js" "$2" "$1" | sed "s/ PAGE: / $1: /")
	if [ "$(grep -c '^' <<<"$lines")" -ne 8 ]; then
		notok "firstscreen: $1: the checks did not run in chromium: $(tail -2 "$TMP/chrome-$1.err" | tr '\n' ' ')"
	else
		echo "$lines"
	fi
}

"$SB" plot "$ref/rostedt-2023-vm.json.gz" "$ref/rostedt-2023-host.json.gz" --baseline spin-tas \
	--question configs/questions/rostedt-2023.json --out "$TMP/rostedt" 2>"$TMP/plot.err" ||
	notok "firstscreen: plot of rostedt-2023: $(tail -1 "$TMP/plot.err")"
"$SB" plot "$ref"/contention-vm-full.json.gz "$ref"/contention-vm-lazy.json.gz \
	"$ref"/contention-host.json.gz --baseline spin-tas --baseline mcs+none --baseline adaptive \
	--baseline flexguard+none --question configs/questions/contention.json \
	--out "$TMP/contention" 2>"$TMP/plot.err" ||
	notok "firstscreen: plot of contention: $(tail -1 "$TMP/plot.err")"
mkdir -p "$TMP/rv"
for f in "$ref"/replicate-vm/*.json.gz; do gzip -cd "$f" >"$TMP/rv/$(basename "$f" .gz)"; done
scripts/replicate.sh --results "$TMP/rv" --out "$TMP/rv/replicate" >/dev/null 2>"$TMP/rep.err" ||
	notok "firstscreen: replicate.sh: $(tail -1 "$TMP/rep.err")"
page rostedt-2023 "$TMP/rostedt/index.html"
page contention "$TMP/contention/index.html"
page replication "$TMP/rv/replicate/index.html"
check "firstscreen: the replication page says it ran in a TCG guest" \
	grep -q '<p class="ext">Ran on a TCG guest' "$TMP/rv/replicate/index.html"
check "firstscreen: the replication page has the reports' stylesheet" \
	grep -qF "$(sed -n '/^body{/p' plots/templates/report.css)" "$TMP/rv/replicate/index.html"

# The control: rostedt's page with 1,000 px of 90-word paragraphs, a
# "(skipped)" entry and a 1,700 px image on top must fail every check.
gnuplot -e "set terminal pngcairo size 100,1700; set output '$TMP/rostedt/tall.png'; plot x" 2>/dev/null
words=$(printf 'word %.0s' $(seq 90))
lines=$(in_page "$TMP/check.js" "$TMP/rostedt/index.html" control "" \
	"<table style=\"width:60px\"><tr><th style=\"overflow-wrap:anywhere\">verdict_column_header</th></tr></table><figure><img src=\"tall.png\"></figure><p>$words</p><ul><li>a figure (skipped)</li></ul><div style=\"height:1000px\"></div>" | sed "s/ PAGE: / control: /")
for c in 'no table header breaks inside' 'the question starts at' 'the verdict table starts at' 'words of description above' \
	'the longest visible description has 90 words' 'no visible "skipped" text' 'images load, none taller'; do
	check "firstscreen: control: the broken page fails '$c'" grep -q "^not ok firstscreen: control: .*$c" <<<"$lines"
done

# Labels of the answer figures, from their data: "# PANEL | GROUP | SERIES".
for s in guzik-question interference; do
	ins=()
	for f in "$ref/$s"-vm*.json.gz "$ref/$s-host.json.gz"; do [ -f "$f" ] && ins+=("$f"); done
	"$SB" plot "${ins[@]}" --question "configs/questions/$s.json" --out "$TMP/$s" 2>"$TMP/plot.err" ||
		notok "firstscreen: plot of $s: $(tail -1 "$TMP/plot.err")"
	same=$(grep -h '^# .* | ' "$TMP/$s/answer.dat" | sort | uniq -d | head -2 | tr '\n' ' ')
	check "firstscreen: $s: no two rows of an answer panel share a label${same:+ ($same)}" test -z "$same"
done
n=$(grep -c '^# .* | ' "$TMP/interference/answer.dat")
k=$(grep -c '^# .* | .*slice_ext_nsec=[0-9]* | ' "$TMP/interference/answer.dat")
check "firstscreen: interference: every answer row names its extension length ($k of $n)" test "$n" -ge 8 -a "$k" -eq "$n"
# The values beside contention's ratios beyond the axis (column 5 of
# contention_ratio.dat): at most five characters, which fit the 35 px
# between neighbouring thread counts ("x1.1e+03x9012x10082" ran together).
long=$(awk '!/^#/ && NF >= 5 && $5 != "-" && length($5) > 5 {print $5}' "$TMP/contention/contention_ratio.dat" | head -3 | tr '\n' ' ')
n=$(awk '!/^#/ && NF >= 5 && $5 != "-"' "$TMP/contention/contention_ratio.dat" | wc -l)
check "firstscreen: contention: the $n values beside points off the ratio axis are short${long:+ (not: $long)}" \
	test "$n" -ge 10 -a -z "$long"
# A family too tall for one figure goes in parts, and a panel too long for
# one figure goes on in the next (preempt-regression: twenty panels of one
# lock family, a compare panel of 108 rows): no image the page shows is
# taller than 1,600 px.
s=preempt-regression
"$SB" plot "$ref/$s"-vm-*.json.gz --baseline spin-tas --baseline pg-spin+none \
	--question "configs/questions/$s.json" --out "$TMP/$s" 2>"$TMP/plot.err" ||
	notok "firstscreen: plot of $s: $(tail -1 "$TMP/plot.err")"
tall="" n=0
for img in $(grep -o '<img src="[^"]*\.png"' "$TMP/$s/index.html" | sed 's/.*src="//; s/"$//'); do
	h=$(file "$TMP/$s/$img" | sed -n 's/.*PNG image data, [0-9]* x \([0-9]*\),.*/\1/p')
	n=$((n + 1))
	[ "${h:-99999}" -le 1600 ] || tall="$tall $img:${h:-none}"
done
check "firstscreen: $s: none of its $n images is taller than 1600 px${tall:+ (not:$tall)}" test "$n" -ge 20 -a -z "$tall"
