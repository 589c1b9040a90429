/* driver.js: drives aflame-render SVGs inside headless Chromium.
 *
 * run.sh appends this (after a small `var AFT = {...}` config script) to a
 * copy of a rendered SVG, or to an HTML page with several SVGs inlined. It
 * dispatches real DOM mouse and keyboard events on the graph, reads what the
 * graph shows (details line, tooltip, rect geometry, labels, "Matched:") and
 * writes one line per check between AFT-BEGIN and AFT-END into the document,
 * which run.sh reads back with --dump-dom. Everything runs synchronously
 * while the document is parsed: the graph's script has already run.
 *
 * AFT.mode: "known"   the folded input written by run.sh, exact expectations
 *           "fragment" the same graph loaded with #z=2&s=%5EBA&i=1
 *           "html"    several graphs inlined in one HTML page
 *           "generic" any aflame-render SVG (also reports timings)
 * This file is pasted into CDATA and into an HTML <script>: it must never
 * contain the CDATA end marker nor a closing script tag. */
(function () {
	"use strict";
	var cfg = window.AFT || { mode: "generic" };
	var label = cfg.label ? cfg.label + ": " : "";
	var out = [], t0 = performance.now();
	var prompted = [];

	function pass(n) { out.push("PASS: " + label + n); }
	function fail(n, why) { out.push("FAIL: " + label + n + ": " + why); }
	function info(s) { out.push("INFO: " + label + s); }
	function eq(n, got, want) {
		if (got === want) pass(n);
		else fail(n, "got " + JSON.stringify(got) + ", want " + JSON.stringify(want));
	}
	function ok(n, cond, why) {
		if (cond) pass(n);
		else fail(n, why);
	}
	function run(n, f) {
		try {
			f();
		} catch (e) {
			fail(n, "exception: " + (e && e.stack ? e.stack.split("\n").slice(0, 3).join(" | ") : e));
		}
	}
	function flush() {
		var text = "AFT-BEGIN\n" + out.join("\n") + "\nAFT-END\n";
		var root = document.documentElement, e;
		if (document.body) {
			e = document.createElement("pre");
			document.body.appendChild(e);
		} else {
			e = document.createElementNS("http://www.w3.org/2000/svg", "desc");
			root.appendChild(e);
		}
		e.setAttribute("id", "aft-out");
		e.textContent = text;
	}

	window.prompt = function (msg, def) {
		prompted.push(msg);
		return cfg.answer !== undefined ? cfg.answer : def;
	};

	/* ---- one graph ---- */
	function Graph(svg) {
		var g = this;
		function cls(c) { return svg.getElementsByClassName(c)[0]; }
		g.svg = svg;
		g.fr = cls("fr");
		g.lb = cls("lb");
		g.dt = cls("dt");
		g.mt = cls("mt");
		g.sr = cls("sr");
		g.rz = cls("rz");
		g.ic = cls("ic");
		g.tt = cls("tt");
		g.rects = g.fr ? Array.prototype.slice.call(g.fr.children) : [];
		g.byName = null;
	}
	Graph.prototype.point = function (el) {
		var b = el.getBoundingClientRect();
		return { x: b.left + Math.max(0.5, b.width / 2), y: b.top + b.height / 2 };
	};
	Graph.prototype.mouse = function (type, el, extra) {
		var p = this.point(el), init = { bubbles: true, cancelable: true, view: window,
						 clientX: p.x, clientY: p.y };
		for (var k in extra || {}) init[k] = extra[k];
		el.dispatchEvent(new MouseEvent(type, init));
	};
	Graph.prototype.hover = function (el) {
		this.mouse("mouseover", el);
		this.mouse("mousemove", el);
		var s = this.dt.textContent;
		this.mouse("mouseout", el);
		return s;
	};
	Graph.prototype.click = function (el) { this.mouse("click", el); };
	/* name -> rects, learnt by hovering (small graphs only) */
	Graph.prototype.names = function () {
		if (this.byName) return this.byName;
		var m = {};
		for (var i = 0; i < this.rects.length; i++) {
			var d = parse(this.hover(this.rects[i]));
			if (!d) continue;
			(m[d.name] = m[d.name] || []).push(this.rects[i]);
		}
		return (this.byName = m);
	};
	Graph.prototype.rect = function (name) {
		var r = this.names()[name];
		if (!r) throw new Error("no frame named " + JSON.stringify(name));
		return r[0];
	};
	Graph.prototype.search = function (regex) {
		if (this.sr.textContent !== "Search") this.click(this.sr);
		cfg.answer = regex;
		this.click(this.sr);
		cfg.answer = undefined;
	};
	Graph.prototype.marked = function () {
		return this.rects.filter(function (r) { return r.classList.contains("m"); });
	};
	Graph.prototype.labels = function () {
		return Array.prototype.map.call(this.lb.children, function (t) { return t.textContent; });
	};
	Graph.prototype.geometry = function () {
		return this.rects.map(function (r) {
			return [r.getAttribute("x"), r.getAttribute("width"), shown(r)].join(" ");
		});
	};

	function w(r) { return parseFloat(r.getAttribute("width")); }
	function x(r) { return parseFloat(r.getAttribute("x")); }
	function shown(r) {
		return getComputedStyle(r).display !== "none" && r.getBoundingClientRect().width > 0;
	}
	function hiddenEl(e) { return !e || getComputedStyle(e).display === "none"; }
	function parse(s) {
		var m = /^(.*) \(([\d,]+) (.+?), (\d+\.\d\d)%(?:, (\d+\.\d\d)% of zoom)?\)$/.exec(s);
		return m && { name: m[1], n: +m[2].replace(/,/g, ""), unit: m[3], pct: +m[4],
			      zpct: m[5] === undefined ? null : +m[5] };
	}
	function near(a, b, tol) { return Math.abs(a - b) <= tol; }
	function svgs() {
		return Array.prototype.filter.call(document.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg"),
			function (s) { return s.getElementsByClassName("fr").length; });
	}

	/* things no frame name may ever cause */
	function checkIntact(n, wantScripts) {
		run(n + "no alert ran", function () {
			eq(n + "no alert ran", (window.__aftAlerts || []).length, 0);
		});
		run(n + "no event-handler attributes", function () {
			var bad = [], all = document.getElementsByTagName("*");
			for (var i = 0; i < all.length; i++)
				for (var j = 0; j < all[i].attributes.length; j++)
					if (/^on/i.test(all[i].attributes[j].name))
						bad.push(all[i].tagName + "@" + all[i].attributes[j].name);
			ok(n + "no event-handler attributes", bad.length === 0, bad.join(", "));
		});
		run(n + "no injected elements", function () {
			eq(n + "script elements", document.getElementsByTagName("script").length, wantScripts);
			eq(n + "no <b> element", document.getElementsByTagName("b").length, 0);
		});
	}

	/* ---- the known folded input (see run.sh) ---- */
	var EVIL1 = "<" + "/script><" + "script>alert(1)<" + "/script>";
	var EVIL2 = "\"onload=\"alert(1)";

	function known(g) {
		run("script initialised", function () {
			ok("script initialised", g.svg.classList.contains("js"), "svg has no class js");
		});
		run("hover tooltip", function () {
			var foo = g.rect("foo");
			g.mouse("mouseover", foo);
			g.mouse("mousemove", foo);
			eq("hover details line", g.dt.textContent, "foo (5,500 samples, 56.70%)");
			eq("hover tooltip text", g.tt.textContent, "foo (5,500 samples, 56.70%)");
			ok("hover tooltip shown", !hiddenEl(g.tt), "tooltip hidden");
			g.mouse("mouseout", foo);
			ok("tooltip hidden after mouseout", hiddenEl(g.tt), "tooltip still shown");
			eq("hover all", g.hover(g.rects[0]), "all (9,700 samples, 100.00%)");
		});
		run("hostile names", function () {
			eq("hostile name shown as text", g.hover(g.rect(EVIL1)), EVIL1 + " (700 samples, 7.22%)");
			eq("hostile attribute name shown as text", g.hover(g.rect(EVIL2)), EVIL2 + " (600 samples, 6.19%)");
			var markup = "x]]" + ">y<b>&'q'";
			eq("markup name shown as text", g.hover(g.rect(markup)), markup + " (400 samples, 4.12%)");
			ok("hostile label is text", g.labels().indexOf("\"onload..") >= 0,
			   "labels: " + JSON.stringify(g.labels()));
		});
		var initial = g.geometry(), initialLabels = g.labels().join("|");
		run("click zoom", function () {
			g.click(g.rect("foo"));
			var foo = g.rect("foo");
			ok("zoomed frame full width", x(foo) === 10 && w(foo) === 1180, "x " + x(foo) + " w " + w(foo));
			eq("child rescaled", w(g.rect("bar")), 643.6);
			ok("sibling hidden", !shown(g.rect("qux")), "qux still shown");
			ok("other subtree hidden", !shown(g.rect("other")), "other still shown");
			ok("ancestor stays, full width", shown(g.rect("main")) && w(g.rect("main")) === 1180,
			   "main w " + w(g.rect("main")));
			ok("Reset Zoom shown", !hiddenEl(g.rz), "Reset Zoom hidden");
			var l = g.labels();
			ok("labels recomputed", l.indexOf("bar") >= 0 && l.indexOf("qux") < 0 && l.indexOf("main") >= 0,
			   JSON.stringify(l));
			eq("hover when zoomed", g.hover(g.rect("bar")), "bar (3,000 samples, 30.93%, 54.55% of zoom)");
			eq("fragment after zoom", location.hash, "#z=2");
		});
		run("click ancestor", function () {
			g.click(g.rect("main"));
			eq("ancestor now full width", w(g.rect("main")), 1180);
			ok("former sibling back", shown(g.rect("qux")) && w(g.rect("qux")) === 358.5, "qux w " + w(g.rect("qux")));
			eq("former zoom rescaled", w(g.rect("foo")), 821.5);
			ok("outside still hidden", !shown(g.rect("other")), "other shown");
		});
		run("reset zoom", function () {
			g.click(g.rz);
			var now = g.geometry(), diff = [];
			for (var i = 0; i < now.length; i++)
				if (now[i] !== initial[i]) diff.push(i + ": " + initial[i] + " -> " + now[i]);
			ok("Reset Zoom restores every frame", diff.length === 0, diff.slice(0, 3).join("; "));
			eq("Reset Zoom restores labels", g.labels().join("|"), initialLabels);
			ok("Reset Zoom hidden again", hiddenEl(g.rz), "still shown");
			eq("fragment cleared", location.hash, "");
		});
		run("search", function () {
			g.search("^ba");
			var m = g.marked();
			ok("search highlights matches", m.length === 2 && m.indexOf(g.rect("bar")) >= 0 &&
			   m.indexOf(g.rect("baz")) >= 0, m.length + " marked");
			ok("highlight colour", getComputedStyle(g.rect("bar")).fill === "rgb(230, 0, 230)",
			   getComputedStyle(g.rect("bar")).fill);
			eq("Matched value", g.mt.textContent, "Matched: 51.55%");
			eq("fragment after search", location.hash, "#s=%5Eba");
			g.search("^(foo|bar)$");
			eq("nested match not double counted", g.mt.textContent, "Matched: 56.70%");
			g.search("FOO$");
			eq("case-sensitive by default", g.mt.textContent, "Matched: 0.00%");
			g.click(g.ic);
			eq("case-insensitive toggle", g.mt.textContent, "Matched: 72.16%");
			eq("toggle matches both cases", g.marked().length, 2);
			eq("fragment keeps case flag", location.hash, "#s=FOO%24&i=1");
			g.click(g.ic);
			g.search("^ba");
			g.click(g.rect("main"));
			eq("Matched relative to zoom", g.mt.textContent, "Matched: 51.55% (63.29% of zoom)");
			g.click(g.rect("foo"));
			eq("Matched relative to deeper zoom", g.mt.textContent, "Matched: 51.55% (90.91% of zoom)");
			g.click(g.rz);
			g.click(g.sr);
			eq("Search again clears", g.marked().length, 0);
			ok("Matched cleared", g.mt.textContent.trim() === "", JSON.stringify(g.mt.textContent));
			eq("button back to Search", g.sr.textContent, "Search");
		});
		run("keyboard", function () {
			cfg.answer = "qux";
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "f", ctrlKey: true, bubbles: true, cancelable: true }));
			cfg.answer = undefined;
			eq("Ctrl-F searches", g.mt.textContent, "Matched: 24.74%");
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
			eq("Escape clears", g.marked().length, 0);
		});
		checkIntact("", cfg.scripts);
	}

	function fragment(g) {
		run("fragment restores zoom", function () {
			var foo = g.rect("foo");
			ok("fragment zoom applied", x(foo) === 10 && w(foo) === 1180 && !shown(g.rect("qux")),
			   "foo x " + x(foo) + " w " + w(foo));
			ok("fragment Reset Zoom shown", !hiddenEl(g.rz), "hidden");
		});
		run("fragment restores search", function () {
			eq("fragment search applied", g.mt.textContent, "Matched: 51.55% (90.91% of zoom)");
			eq("fragment case flag applied", g.marked().length, 2);
			eq("fragment kept", location.hash, "#z=2&s=%5EBA&i=1");
		});
		checkIntact("", cfg.scripts);
	}

	function html() {
		var all = svgs();
		eq("three graphs found", all.length, 3);
		var gs = all.map(function (s) { return new Graph(s); });
		var a = gs[0], b = gs[1], c = gs[2];
		run("all initialised", function () {
			ok("all initialised", gs.every(function (g) { return g.svg.classList.contains("js"); }),
			   "some graph has no class js");
		});
		run("ids unique", function () {
			var seen = {}, dup = [], els = document.querySelectorAll("[id]");
			for (var i = 0; i < els.length; i++) {
				if (seen[els[i].id]) dup.push(els[i].id);
				seen[els[i].id] = 1;
			}
			ok("ids unique", dup.length === 0, "duplicates: " + dup.join(", "));
			gs.forEach(function (g, i) {
				var bg = g.svg.getElementsByTagName("rect")[0].getAttribute("fill");
				var id = /^url\(#(.*)\)$/.exec(bg);
				var grad = id && document.getElementById(id[1]);
				ok("graph " + i + " gradient is its own", grad && g.svg.contains(grad), bg);
			});
		});
		run("independent hover", function () {
			var before = b.dt.textContent;
			a.mouse("mouseover", a.rect("foo"));
			eq("hover sets own details", a.dt.textContent, "foo (5,500 samples, 56.70%)");
			eq("other copy's details untouched", b.dt.textContent, before);
			a.mouse("mouseout", a.rect("foo"));
		});
		run("independent zoom", function () {
			var wb = w(b.rect("foo")), gc = c.geometry().join();
			a.click(a.rect("foo"));
			eq("zoom in first copy", w(a.rect("foo")), 1180);
			eq("second copy not zoomed", w(b.rect("foo")), wb);
			ok("second copy Reset Zoom hidden", hiddenEl(b.rz), "shown");
			ok("third graph untouched", c.geometry().join() === gc, "changed");
		});
		run("independent search", function () {
			b.search("^ba");
			eq("search in second copy", b.marked().length, 2);
			eq("first copy not searched", a.marked().length, 0);
			eq("second copy Matched", b.mt.textContent, "Matched: 51.55%");
			ok("first copy Matched empty", a.mt.textContent.trim() === "", JSON.stringify(a.mt.textContent));
			eq("third graph not searched", c.marked().length, 0);
		});
		run("third graph works", function () {
			var d = parse(c.hover(c.rects[0]));
			ok("third graph hover", d && d.name === "all" && d.pct === 100, c.dt.textContent);
		});
		run("inline graphs leave the URL alone", function () {
			eq("inline graphs leave the URL alone", location.hash, "");
		});
		checkIntact("", cfg.scripts);
	}

	/* any graph: invariants and timings, no knowledge of the input */
	function generic(g) {
		var n = g.rects.length;
		info(n + " frames, " + Math.round(t0) + " ms from navigation to driver start");
		run("script initialised", function () {
			ok("script initialised", g.svg.classList.contains("js"), "svg has no class js");
		});
		var root, first;
		run("hover", function () {
			root = parse(g.hover(g.rects[0]));
			ok("hover all", root && root.name === "all" && root.pct === 100, g.dt.textContent);
		});
		if (n < 2 || !root)
			return;
		run("hover percentage", function () {
			first = parse(g.hover(g.rects[1]));
			ok("hover format", first !== null, g.dt.textContent);
			ok("hover percentage matches width", near(first.pct, w(g.rects[1]) / 11.8, 0.02),
			   first.pct + "% vs " + w(g.rects[1]) + " px");
			ok("hover count matches percentage",
			   near(first.n * 100 / root.n, first.pct, 0.005 + 1e-9), first.n + " of " + root.n);
		});
		var initial = g.geometry();
		run("zoom", function () {
			var r = g.rects[1], y = r.getAttribute("y"), sib = null;
			for (var i = 2; i < n && !sib; i++)
				if (g.rects[i].getAttribute("y") === y) sib = g.rects[i];
			var s = performance.now();
			g.click(r);
			r.getBoundingClientRect();
			info("zoom into frame 1 took " + Math.round(performance.now() - s) + " ms");
			ok("zoomed frame full width", x(r) === 10 && w(r) === 1180, "x " + x(r) + " w " + w(r));
			ok("ancestor full width", shown(g.rects[0]) && w(g.rects[0]) === 1180, "all w " + w(g.rects[0]));
			if (sib) ok("sibling hidden", !shown(sib), "sibling shown");
			var d = parse(g.hover(r));
			ok("hover when zoomed", d && d.zpct === null && d.pct === first.pct, g.dt.textContent);
			s = performance.now();
			g.click(g.rz);
			g.rects[0].getBoundingClientRect();
			info("reset zoom took " + Math.round(performance.now() - s) + " ms");
			var now = g.geometry(), diff = 0;
			for (i = 0; i < n; i++) if (now[i] !== initial[i]) diff++;
			eq("Reset Zoom restores every frame", diff, 0);
		});
		run("search", function () {
			var re = "^" + first.name.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&") + "$";
			var s = performance.now();
			g.search(re);
			g.rects[0].getBoundingClientRect();
			info("search took " + Math.round(performance.now() - s) + " ms");
			ok("search highlights", g.rects[1].classList.contains("m"), "frame 1 not marked");
			var m = /^Matched: (\d+\.\d\d)%$/.exec(g.mt.textContent);
			ok("Matched shown", m && +m[1] >= first.pct && +m[1] <= 100, g.mt.textContent);
			g.click(g.sr);
			eq("search cleared", g.marked().length, 0);
		});
		checkIntact("", cfg.scripts);
	}

	run("driver", function () {
		if (cfg.mode === "html") {
			html();
		} else {
			var s = svgs();
			if (!s.length) throw new Error("no graph in the document");
			var g = new Graph(s[0]);
			if (cfg.mode === "known") known(g);
			else if (cfg.mode === "fragment") fragment(g);
			else generic(g);
		}
	});
	flush();
})();
