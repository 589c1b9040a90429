/* driver_kinds.js: the checks of other kinds of graph on the known input
 * (--nameattr, --inverted, --diff) and of a hostile regex in the URL, part
 * of driver.js's closure: run.sh pastes this file into it, before its last
 * line, as it does driver_views.js and driver_page.js. Only function
 * declarations here (they are hoisted; the dispatcher runs before this text
 * is reached).
 * This file is pasted into CDATA and into an HTML <script>: it must never
 * contain the CDATA end marker nor a closing script tag. */
	/* --nameattr (tests/cases/nameattr-svg): the attribute elements' rects
	 * follow their frames on zoom and hide when their frame is not shown */
	function nameattr(g) {
		var na = g.svg.getElementsByClassName("na")[0];
		if (!na) return fail("nameattr group", "missing");
		var items = na.children;
		eq("nameattr elements", items.length, 3);
		function geo(k) {
			var r = items[k].lastChild;
			return [r.getAttribute("x"), r.getAttribute("width"), r.getAttribute("display") || ""].join(",");
		}
		eq("f under main before zoom", geo(0), "10,590,");
		var r = items[1].lastChild;   /* g's element is a <g>: clicking it zooms, no link */
		g.click({ x: +r.getAttribute("x"), y: +r.getAttribute("y"), w: +r.getAttribute("width"),
			  h: +r.getAttribute("height") });
		eq("f under main hidden when zoomed into g", geo(0), "10,590,none");
		eq("g as wide as the graph", geo(1), "10,1180,");
		eq("f under g follows its frame", geo(2), "403.3,786.7,");
		eq("link kept", items[0].getAttribute("href"), "https://example.com/src?f=1&line=2");
		eq("no alert", window.__aftAlerts.length, 0);
	}

	/* the known input as an icicle graph (--inverted): root at the top */
	function icicle(g) {
		run("icicle title", function () {
			eq("icicle default title", g.svg.getElementsByClassName("ti")[0].textContent, "Icicle Graph");
		});
		run("icicle rows", function () {
			var all = g.rect("all"), main = g.rect("main"), foo = g.rect("foo"), bar = g.rect("bar");
			ok("root row on top", all.y < main.y && main.y < foo.y && foo.y < bar.y,
			   [all.y, main.y, foo.y, bar.y].join(" "));
			eq("icicle hover", g.hover(foo), "foo (5,500 samples, 56.70%)");
		});
		run("icicle zoom", function () {
			var before = g.rect("bar").y;
			g.click(g.rect("foo"));
			var foo = g.rect("foo"), bar = g.rect("bar");
			ok("zoomed frame full width", foo.x === 10 && foo.w === 1180, "x " + foo.x + " w " + foo.w);
			eq("callee stays below", bar.y, before);
			eq("callee rescaled", bar.w, 643.6);
			ok("root still on top", g.rect("all").y < foo.y, "all moved");
			eq("icicle hover when zoomed", g.hover(bar), "bar (3,000 samples, 30.93%, 54.55% of zoom)");
			g.press(g.rz);
			ok("reset zoom", g.shown("qux"), "qux not back");
		});
		checkIntact("", cfg.scripts);
	}

	/* a differential graph: change in the tooltip, colours per frame */
	function diff(g) {
		run("diff tooltips", function () {
			eq("grew", g.hover(g.rect("bar")), "bar (3,500 samples, 46.05%; +6.58%)");
			eq("shrank", g.hover(g.rect("baz")), "baz (1,000 samples, 13.16%; -13.16%)");
			eq("new", g.hover(g.rect("qux")), "qux (2,400 samples, 31.58%; +11.84%)");
			eq("same", g.hover(g.rect("Foo")), "Foo (1,500 samples, 19.74%; 0.00%)");
		});
		run("diff colours", function () {
			eq("grew is red", g.rect("bar").fill, "#ff6969");
			eq("shrank most is deep blue", g.rect("baz").fill, "#0000ff");
			eq("same is white", g.rect("Foo").fill, "#ffffff");
		});
		run("diff zoom keeps colours", function () {
			g.click(g.rect("foo"));
			eq("zoomed", g.rect("foo").w, 1180);
			eq("colour after zoom", g.rect("bar").fill, "#ff6969");
			eq("blue after zoom", g.rect("baz").fill, "#0000ff");
			eq("hover after zoom", g.hover(g.rect("bar")), "bar (3,500 samples, 46.05%, 70.00% of zoom; +6.58%)");
			g.press(g.rz);
		});
		run("diff search", function () {
			g.search("^ba");
			eq("diff Matched", g.mt.textContent, "Matched: 59.21%, 2 frames");
			g.press(g.sr);
		});
		checkIntact("", cfg.scripts);
	}

	/* a name that makes (a+)+$ backtrack exponentially, the regex given by
	 * the URL (#s=(a%2B)%2B%24): the page loaded, so it did not hang */
	function redos(g) {
		run("redos", function () {
			var X = cfg.x || { want: "Search refused (nested repetition): (a+)+$", hash: "#s=(a%2B)%2B%24" };
			info(Math.round(t0) + " ms from navigation to driver start");
			eq("URL regex refused", g.mt.textContent, X.want);
			ok("loaded within seconds", t0 < 5000, t0 + " ms");
			eq("fragment kept", location.hash, X.hash);
			ok("the field shows the pattern", g.field() && !hiddenEl(g.field().parentNode.parentNode) &&
			   g.field().value === decodeURIComponent(X.hash.slice(3)), g.field() && g.field().value);
			key("Escape");
			ok("Esc clears the refused pattern", g.mt.textContent.trim() === "" && location.hash === "",
			   JSON.stringify(g.mt.textContent) + " " + location.hash);
		});
		checkIntact("", cfg.scripts);
	}
