# escape.sh: names no trace should be able to break an output with (issue 14,
# issue 21 item 11): invalid UTF-8, control characters, ESC/OSC sequences,
# C1 controls, U+FFFE/U+FFFF, a bidi override, markup, a CSV formula. Every
# XML, HTML and JSON output must parse; CSV cells must not start a formula;
# text for terminals must carry no ESC.
. tests/lib.sh
IN=$TMP/hostile.folded
{
	printf 'main;caf\xe9 3\n'
	printf 'main;esc\033]52;c;aGk=\007title\033[31m 2\n'
	printf 'main;c1\xc2\x85\xc2\x9bx;nonchar\xef\xbf\xbe\xef\xbf\xbf 4\n'
	printf 'main;rtl\xe2\x80\xaeevil;</script><b>&amp;]]> 5\n'
	printf 'main;=HYPERLINK("http://x");@SUM(1) 1\n'
	printf 'main;+cmd|calc;-2 1\n'
} >"$IN"
"$AFLAME" -f folded "$IN" -o "$TMP/g.svg" 2>/dev/null
check "escape/interactive SVG parses" xmllint --noout "$TMP/g.svg"
"$AFLAME" -f folded --static "$IN" -o "$TMP/s.svg" 2>/dev/null
check "escape/static SVG parses" xmllint --noout "$TMP/s.svg"
"$AFLAME" -f folded --report "$IN" -o "$TMP/r.json" 2>/dev/null
check "escape/report JSON parses" python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$TMP/r.json"
"$AFLAME" -f folded --report "$IN" -o "$TMP/r.html" 2>/dev/null
# HTML: the hostile name is text, never markup (no <b> element appears)
html_safe() {
	python3 - "$1" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    tags, text = set(), []
    def handle_starttag(self, tag, attrs): self.tags.add(tag)
    def handle_data(self, d): self.text.append(d)
p = P(convert_charrefs=True)
p.feed(open(sys.argv[1], encoding="utf-8").read())
assert "b" not in p.tags, p.tags
assert any("</script><b>" in t for t in p.text) or "<b>" not in open(sys.argv[1], encoding="utf-8").read()
PY
}
check "escape/report HTML: names are text, not markup" html_safe "$TMP/r.html"
check "escape/report HTML is valid UTF-8" python3 -c 'import sys; open(sys.argv[1], encoding="utf-8").read()' "$TMP/r.html"
"$AFLAME" -f folded --report "$IN" -o "$TMP/r.csv" 2>/dev/null
check "escape/report CSV: no cell starts a formula" python3 -c '
import csv, sys
for row in csv.reader(open(sys.argv[1], encoding="utf-8", newline="")):
    for cell in row:
        assert not cell[:1] in ("=", "+", "-", "@", "\t", "\r") or cell.lstrip("-").replace(".", "").isdigit(), cell
' "$TMP/r.csv"
check "escape/report CSV keeps the name after its apostrophe" grep -q "'=HYPERLINK" "$TMP/r.csv"
"$AFLAME" -f folded --report "$IN" -o "$TMP/r.txt" 2>/dev/null
check "escape/text report has no ESC" python3 -c 'import sys; assert b"\x1b" not in open(sys.argv[1], "rb").read()' "$TMP/r.txt"
check "escape/text report shows the ESC visibly" grep -qF 'esc\x1b]52' "$TMP/r.txt"
"$AFLAME" -f folded --diff --report "$IN" "$IN" -o "$TMP/d.json" 2>/dev/null
check "escape/comparison JSON parses" python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$TMP/d.json"
"$AFLAME" -f folded --per-thread "$TMP/batch" "$IN" 2>/dev/null
check "escape/batch index.html: names are text, not markup" html_safe "$TMP/batch/index.html"

# a thread name with ESC and OSC 52 in an atrace capture: --info escapes it
printf '# tracer: nop\n\033]52;c;aGk=\007x-5 [000] .... 1.000001: tracing_mark_write: B|5|s\n' >"$TMP/a.txt"
printf 'ev\033]0;owned\007il-7 (7) [000] .... 1.000001: tracing_mark_write: B|7|s\\033\n' >>"$TMP/a.txt"
printf 'ev\033]0;owned\007il-7 (7) [000] .... 1.000003: tracing_mark_write: E\n' >>"$TMP/a.txt"
"$AFLAME" --info "$TMP/a.txt" >"$TMP/info" 2>&1
check "escape/--info has no ESC" python3 -c 'import sys; assert b"\x1b" not in open(sys.argv[1], "rb").read()' "$TMP/info"
"$AFLAME" "$TMP/a.txt" -o /dev/null 2>"$TMP/warn"
check "escape/warnings on stderr have no ESC" python3 -c 'import sys; assert b"\x1b" not in open(sys.argv[1], "rb").read()' "$TMP/warn"
