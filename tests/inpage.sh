# inpage.sh - headless chromium for the report tests (sourced after
# lib.sh).  in_page JS PAGE PROFILE [END_HTML] [TOP_HTML]: the check lines
# ("ok ..." / "not ok ...") that script JS writes when it runs in a copy of
# PAGE with END_HTML at the end of its body and TOP_HTML at its top; JS
# hands its lines to checks_out(lines), which puts them in the DOM that
# --dump-dom prints.  The window is INPAGE_SIZE (default 1280,800).
# shellcheck shell=bash
chrome=$(command -v chromium || true)
inpage_prelude='function checks_out(out) {
	var pre = document.createElement("pre");
	pre.id = "checks";
	pre.textContent = "\n" + out.join("\n") + "\n";
	document.body.appendChild(pre);
}'
in_page() {
	local html c="${2%.html}-check.html"
	html=$(<"$2")
	html=${html%</body></html>*}
	printf '%s%s<script>\n%s\n%s\n</script></body></html>\n' "${html/<body>/<body>${5:-}}" "${4:-}" \
		"$inpage_prelude" "$(<"$1")" >"$c"
	"$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		"--window-size=${INPAGE_SIZE:-1280,800}" --virtual-time-budget=10000 \
		--user-data-dir="$TMP/$3" --dump-dom "file://$(realpath "$c")" >"$TMP/dom-$3.html" 2>"$TMP/chrome-$3.err"
	sed -n '/<pre id="checks">/,/<\/pre>/p' "$TMP/dom-$3.html" | grep -E '^(not )?ok '
}
