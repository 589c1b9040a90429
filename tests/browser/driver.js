/* driver.js: drives aflame-render SVGs inside headless Chromium.
 *
 * run.sh appends this (after a small `var AFT = {...}` config script) to a
 * copy of a rendered SVG, or to an HTML page with several SVGs inlined. It
 * dispatches real DOM mouse and keyboard events on the graph, reads what the
 * graph shows (details line, tooltip, rect geometry, labels, "Matched:") and
 * writes one line per check between AFT-BEGIN and AFT-END into the document,
 * which run.sh reads back (cdp.js, or --dump-dom). It starts while the
 * document is parsed (the graph's script has run) and checks once every
 * graph has its frames (data-ready on its <svg>, main.js), synchronously.
 *
 * AFT.mode: "known"   the folded input written by run.sh, exact expectations
 *           "fragment" the same graph loaded with #z=2&s=%5EBA&i=1
 *           "html"    several graphs inlined in one HTML page
 *           "icicle"  the known input drawn with --inverted
 *           "diff"    tests/data/folded/diff.folded, a differential graph
 *           "nameattr" tests/cases/nameattr-svg with its --nameattr file
 *           "chart"   a flame chart: wheel, drag, W/S/A/D, the axis; prints
 *                     the link it then has (a window and a search)
 *           "chartlink" that chart opened from that link (AFT.x)
 *                     (these, fit, bigtable, refusedview, queued and
 *                     unpackfail: driver_page.js;
 *                     views, viewurl and merged: driver_views.js;
 *                     nameattr, icicle, diff and redos: driver_kinds.js;
 *                     run.sh pastes the three into this closure)
 *           "fit"     any graph in a window of AFT.x.size: nothing outside it
 *           "bigtable" a graph of thousands of functions: the table lists
 *                     each (AFT.x: how many, their names)
 *           "views"   issue 20's views (menu, invert, sandwich) on the folded
 *                     input of run.sh, against the command line's results
 *                     in AFT.x.expect; prints each view's URL fragment
 *           "viewurl" the same graph loaded with one of those fragments
 *                     (AFT.x.want names which)
 *           "merged"  frames half a pixel wide (AFT.x.frames of them):
 *                     runs merged into blended boxes, the same after a
 *                     zoom at the same scale as in the file; with
 *                     AFT.x.lone, frames 0.7 px wide, each alone in its
 *                     run and still drawn in a blend's colour
 *           "generic" any aflame-render SVG (also reports timings)
 *           "paint"   only the times to the first paint and to the frames
 *                     decoded (bench/browser.sh)
 *           "deferred" the known input: the work the first picture does not
 *                     need is done after it, without an event
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

	/* the page must never open a dialog (the search has its own field) */
	window.prompt = function (msg) {
		prompted.push(msg);
		return null;
	};
	/* a key pressed where the focus is, as a user's would be */
	function key(k, extra) {
		var init = { key: k, bubbles: true, cancelable: true };
		for (var x in extra || {}) init[x] = extra[x];
		(document.activeElement || document).dispatchEvent(new KeyboardEvent("keydown", init));
	}

	/* ---- one graph ----
	 * Frames are the boxes of the filled <path>s in <g class="fr"> (one a
	 * colour, see fileBoxes()); the driver learns them by parsing those
	 * paths and learns names by hovering their centres, as a user would. */
	function Graph(svg) {
		var g = this;
		function cls(c) { return svg.getElementsByClassName(c)[0]; }
		g.svg = svg;
		g.fr = cls("fr");
		g.hl = cls("hl");
		g.lb = cls("lb");
		g.dt = cls("dt");
		g.mt = cls("mt");
		g.sr = cls("sr");
		g.rz = cls("rz");
		g.ic = cls("ic");
		g.tt = cls("tt");
	}
	/* filled rectangles: the page's highlights (M x y h w v h h-w each),
	 * or the file's frames (fileBoxes()) */
	var SUB = /M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)v(-?[\d.]+)h-?[\d.]+/g;
	function rects(path) {
		var out = [], m, d = path.getAttribute("d") || "", colour = path.getAttribute("fill");
		if (colour) return fileBoxes(d, colour);
		SUB.lastIndex = 0;
		while ((m = SUB.exec(d)))
			out.push({ x: +m[1], y: +m[2], w: +m[3], h: +m[4], fill: path.getAttribute("fill") });
		return out;
	}
	/* The boxes of a frame path in the file (colour_path() in
	 * render_svg.c): M x y or m dx dy starts a row, each box is v h h w
	 * v -h from its top left corner, h gap moves along the row's top to
	 * the next. Positions are summed from relative steps of tenths (x) and
	 * hundredths (y), so they are rounded back to those. Anything else in
	 * the data throws: a path this cannot read is a failure, not no boxes. */
	var STEP = /\s*([Mmhv])(-?[\d.]+)(?: (-?[\d.]+))?/y;
	function fileBoxes(d, colour) {
		var c = [], m, k, x = 0, y = 0, out = [], at = 0, end = d.replace(/\s+$/, "").length;
		for (STEP.lastIndex = 0; at < end; at = STEP.lastIndex) {
			if (!(m = STEP.exec(d)))
				throw new Error("frame path not understood at " + at + ": " + d.slice(at, at + 40));
			c.push({ op: m[1], a: +m[2], b: m[3] === undefined ? NaN : +m[3] });
		}
		for (k = 0; k < c.length; k++) {
			if (c[k].op === "M" || c[k].op === "m") {
				x = (c[k].op === "M" ? 0 : x) + c[k].a;
				y = (c[k].op === "M" ? 0 : y) + c[k].b;
			} else if (c[k].op === "h") {
				x += c[k].a;
			} else if (c[k].op === "v" && c[k + 2] && c[k + 1].op === "h" && c[k + 2].op === "v" &&
				   c[k + 2].a === -c[k].a && c[k].a > 0) {
				out.push({ x: Math.round(x * 10) / 10, y: Math.round(y * 100) / 100, w: c[k + 1].a, h: c[k].a,
					   fill: colour });
				x += c[k + 1].a;
				k += 2;
			} else {
				throw new Error("frame path: unexpected " + c[k].op + c[k].a);
			}
		}
		return out;
	}
	/* The frames drawn: the file's paths, or, once a zoom or a view has
	 * drawn on the page's canvas (src/render/page/draw.js), the boxes the canvas
	 * says it drew, each checked against its pixels (canvasBoxes()). */
	Graph.prototype.drawn = function () {
		var c = this.canvas();
		if (c) return canvasBoxes(this, c);
		var out = [], p = this.fr.getElementsByTagName("path");
		for (var i = 0; i < p.length; i++)
			if (shownIn(p[i], this.svg)) out = out.concat(rects(p[i]));
		return out;
	};
	/* The file's blended boxes as one PNG image (blend.h in src/render):
	 * calls done() once its pixels are read into this.image ({x, y, w, h}
	 * in SVG units, px its RGBA bytes), or at once with this.image null
	 * when the file has none. */
	Graph.prototype.readImage = function (done) {
		var g = this, im = g.fr.getElementsByTagName("image")[0], o = new Image();
		g.image = null;
		if (!im) return done();
		o.onload = function () {
			run("the file's image decodes", function () {
				var c = document.createElementNS("http://www.w3.org/1999/xhtml", "canvas"), x;
				var r = { x: +im.getAttribute("x"), y: +im.getAttribute("y"), w: +im.getAttribute("width"),
					  h: +im.getAttribute("height") };
				eq("image: its size in pixels is its size in the SVG", o.naturalWidth + "x" + o.naturalHeight,
				   r.w + "x" + r.h);
				c.width = o.naturalWidth;
				c.height = o.naturalHeight;
				x = c.getContext("2d");
				x.drawImage(o, 0, 0);
				r.px = x.getImageData(0, 0, c.width, c.height).data;
				g.image = r;
			});
			done();
		};
		o.onerror = function () {
			fail("the file's image decodes", "the browser cannot decode it");
			done();
		};
		o.src = im.getAttribute("href");
	};
	/* pixels of the file's image with something drawn (alpha > 0) on the
	 * first scanline of a row (the one above it empty: rows are a pixel
	 * apart): what the blended boxes cover, a pixel a row */
	Graph.prototype.imageCells = function () {
		var n = 0, px = this.image ? this.image.px : [], W = this.image ? 4 * this.image.w : 0;
		for (var i = 3; i < px.length; i += 4) if (px[i] && (i < W || !px[i - W])) n++;
		return n;
	};
	/* the page's canvas when it is shown, else null */
	Graph.prototype.canvas = function () {
		var c = this.svg.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "canvas")[0];
		return c && !hiddenEl(c.parentNode) ? c : null;
	};
	Graph.prototype.client = function (x, y) {
		var m = this.svg.getScreenCTM();
		return { x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f };
	};
	Graph.prototype.mouseAt = function (type, x, y, extra) {
		var p = this.client(x, y), init = { bubbles: true, cancelable: true, view: window,
						    clientX: p.x, clientY: p.y };
		for (var k in extra || {}) init[k] = extra[k];
		var target = document.elementFromPoint(p.x, p.y);
		if (!target || !this.svg.contains(target)) target = this.fr;
		target.dispatchEvent(new MouseEvent(type, init));
	};
	Graph.prototype.centre = function (r) { return [r.x + r.w / 2, r.y + r.h / 2]; };
	Graph.prototype.over = function (r) {
		var c = this.centre(r);
		this.mouseAt("mouseover", c[0], c[1]);
		this.mouseAt("mousemove", c[0], c[1]);
	};
	Graph.prototype.out = function () {
		this.fr.dispatchEvent(new MouseEvent("mouseout", { bubbles: true, view: window, relatedTarget: null }));
	};
	Graph.prototype.hover = function (r) {
		this.over(r);
		var s = this.dt.textContent;
		this.out();
		return s;
	};
	Graph.prototype.click = function (r) {
		var c = this.centre(r);
		this.mouseAt("click", c[0], c[1]);
	};
	Graph.prototype.press = function (el) {
		el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
	};
	/* name -> drawn rectangle, learnt by hovering (small graphs only) */
	Graph.prototype.names = function (list) {
		var m = {}, all = list || this.drawn();
		for (var i = 0; i < all.length; i++) {
			var d = parse(this.hover(all[i]));
			if (d && !m[d.name]) m[d.name] = all[i];
		}
		return m;
	};
	Graph.prototype.rect = function (name) {
		var r = this.names()[name];
		if (!r) throw new Error("no frame named " + JSON.stringify(name));
		return r;
	};
	Graph.prototype.shown = function (name) { return !!this.names()[name]; };
	/* the search field (field.js), made when first opened */
	Graph.prototype.field = function () { return this.svg.getElementsByClassName("sq")[0] || null; };
	Graph.prototype.type = function (text) {
		var f = this.field();
		f.value = text;
		f.dispatchEvent(new Event("input", { bubbles: true }));
	};
	/* a search as a user makes one: Search (Reset Search first), the
	 * field's regex toggle set, the text typed */
	Graph.prototype.search = function (text, plain) {
		if (this.sr.textContent !== "Search") this.press(this.sr);
		this.press(this.sr);
		var rx = this.svg.getElementsByClassName("rx")[0];
		if (rx.classList.contains("on") === !!plain) this.press(rx);
		this.type(text);
	};
	Graph.prototype.marked = function () {
		return Object.keys(this.names(this.hl ? rects(this.hl) : [])).sort();
	};
	Graph.prototype.labels = function () {
		return Array.prototype.map.call(this.lb.children, function (t) { return t.textContent; });
	};
	/* what is drawn: each path's data when shown, the canvas's boxes when
	 * it is, and the highlights */
	Graph.prototype.geometry = function () {
		var p = this.fr.getElementsByTagName("path"), s = [], c = this.canvas();
		for (var i = 0; i < p.length; i++)
			s.push(shownIn(p[i], this.svg) ? p[i].getAttribute("d") : "hidden");
		var im = this.fr.getElementsByTagName("image")[0];
		if (im)
			s.push(shownIn(im, this.svg) ? ["x", "y", "width", "height", "href"].map(function (a) {
				return a === "href" ? im.getAttribute(a).length : im.getAttribute(a);
			}).join(",") : "hidden");
		if (c) s.push(JSON.stringify(canvasBoxes(this, c)));
		s.push(this.hl ? this.hl.getAttribute("d") : "");
		return s;
	};

	function hiddenEl(e) { return !e || getComputedStyle(e).display === "none"; }
	/* e and its ancestors up to top not display:none */
	function shownIn(e, top) {
		for (; e && e !== top; e = e.parentNode) if (hiddenEl(e)) return false;
		return !!e;
	}
	/* The boxes the canvas c drew (its list, in SVG units), checked against
	 * what is on it; throws, failing the check that asked, when
	 *  - the canvas is not at the size it is shown at in device pixels
	 *    (blurred, or drawn at the wrong scale), or not where its
	 *    <foreignObject> is;
	 *  - a box 3 device pixels wide or more is not its colour, opaque, at
	 *    its centre; a narrower one has nothing drawn at its centre;
	 *  - something is drawn more than a pixel away from every box. */
	function canvasBoxes(g, c) {
		var fo = c.parentNode, fx = +fo.getAttribute("x"), fy = +fo.getAttribute("y");
		var fw = +fo.getAttribute("width"), fh = +fo.getAttribute("height"), m = g.svg.getScreenCTM();
		var dpr = window.devicePixelRatio || 1, want = Math.ceil(fw * m.a * dpr), bad = [];
		if (Math.abs(c.width - want) > 1)
			throw new Error("canvas " + c.width + " px wide, shown at " + want + " device px");
		var cr = c.getBoundingClientRect(), at = g.client(fx, fy);
		if (!near(cr.left, at.x, 1) || !near(cr.top, at.y, 1) || !near(cr.width, fw * m.a, 1) ||
		    !near(cr.height, fh * m.d, 1))
			throw new Error("canvas at " + [cr.left, cr.top, cr.width, cr.height] + ", its place " +
					[at.x, at.y, fw * m.a, fh * m.d]);
		var sx = c.width / fw, sy = c.height / fh, W = c.width, H = c.height;
		var px = c.getContext("2d").getImageData(0, 0, W, H).data, cover = new Uint8Array(W * H);
		var list = c.aflameBoxes(), i, k, x, y;
		list.forEach(function (b) {
			var x0 = Math.max(0, Math.floor((b.x - fx) * sx) - 1), x1 = Math.min(W, Math.ceil((b.x + b.w - fx) * sx) + 1);
			var y0 = Math.max(0, Math.floor((b.y - fy) * sy) - 1), y1 = Math.min(H, Math.ceil((b.y + b.h - fy) * sy) + 1);
			for (y = y0; y < y1; y++) cover.fill(1, y * W + x0, y * W + x1);
			x = Math.floor((b.x + b.w / 2 - fx) * sx);
			y = Math.floor((b.y + b.h / 2 - fy) * sy);
			k = 4 * (y * W + x);
			var got = "#" + [px[k], px[k + 1], px[k + 2]].map(function (v) {
				return (256 + v).toString(16).slice(1);
			}).join("");
			if (b.w * sx >= 3 ? got !== b.fill || px[k + 3] !== 255 : b.w * sx >= 0.5 && px[k + 3] === 0)
				bad.push(JSON.stringify(b) + " shows " + got + "/" + px[k + 3]);
		});
		for (i = 0; i < W * H && bad.length < 5; i++)
			if (px[4 * i + 3] && !cover[i]) bad.push("pixel " + (i % W) + "," + Math.floor(i / W) + " drawn outside every box");
		if (bad.length)
			throw new Error("canvas pixels differ from its boxes: " + bad.slice(0, 3).join("; "));
		return list;
	}
	function parse(s) {
		var m = /^(.*) \(([\d,]+) (.+?), (\d+\.\d\d)%(?:, (\d+\.\d\d)% of zoom)?(?:; [-+]?\d+\.\d\d%)?\)$/.exec(s);
		return m && { name: m[1], n: +m[2].replace(/,/g, ""), unit: m[3], pct: +m[4],
			      zpct: m[5] === undefined ? null : +m[5] };
	}
	/* the current match's outline, if shown */
	function outlineOf(g) {
		var o = g.svg.getElementsByClassName("cm")[0];
		return o && !hiddenEl(o) ? { x: +o.getAttribute("x"), y: +o.getAttribute("y"), w: +o.getAttribute("width") } : null;
	}
	function near(a, b, tol) { return Math.abs(a - b) <= tol; }
	/* the tooltip's lines (hover.js: a <text> each) */
	function tipOf(g) {
		return Array.prototype.filter.call(g.tt.getElementsByTagName("text"), function (t) {
			return t.textContent !== "";
		}).map(function (t) { return t.textContent; });
	}
	/* the function table (table.js): shown, its headings and rows as text */
	function table(g) {
		var t = g.svg.getElementsByClassName("tbl")[0];
		if (!t || hiddenEl(t)) return null;
		var cells = function (tr) {
			return Array.prototype.map.call(tr.children, function (c) { return c.textContent; });
		};
		/* the rows made (the others are spacers, class pad) */
		var tr = Array.prototype.filter.call(t.getElementsByTagName("tbody")[0].children, function (r) {
			return r.hasAttribute("data-f");
		});
		return { el: t, head: cells(t.getElementsByTagName("thead")[0].firstChild), rows: tr.map(cells), tr: tr,
			 box: t.getElementsByTagName("table")[0].parentNode,
			 note: t.getElementsByTagName("div")[1].textContent };
	}
	function rowOf(tb, name) {
		for (var i = 0; i < tb.rows.length; i++) if (tb.rows[i][0] === name) return i;
		return -1;
	}
	/* the client rectangles of two elements overlap */
	function overlap(a, b) {
		var r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
		return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
	}
	function svgs() {
		return Array.prototype.filter.call(document.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg"),
			function (s) { return s.getElementsByClassName("fr").length; });
	}

	/* things no frame name may ever cause */
	function checkIntact(n, wantScripts) {
		run(n + "no alert ran", function () {
			eq(n + "no alert ran", (window.__aftAlerts || []).length, 0);
			eq(n + "no dialog opened", prompted.length, 0);
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
			g.over(g.rect("foo"));
			eq("hover details line", g.dt.textContent, "foo (5,500 samples, 56.70%)");
			eq("hover tooltip: name, total and self", tipOf(g).join(" | "),
			   "foo | total 5,500 samples (56.70%) | self 500 samples (5.15%)");
			ok("hover tooltip shown", !hiddenEl(g.tt), "tooltip hidden");
			g.out();
			ok("tooltip hidden after mouseout", hiddenEl(g.tt), "tooltip still shown");
			eq("hover all", g.hover(g.rect("all")), "all (9,700 samples, 100.00%)");
		});
		run("hostile names", function () {
			eq("hostile name shown as text", g.hover(g.rect(EVIL1)), EVIL1 + " (700 samples, 7.22%)");
			eq("hostile attribute name shown as text", g.hover(g.rect(EVIL2)), EVIL2 + " (600 samples, 6.19%)");
			var markup = "x]]" + ">y<b>&'q'";
			eq("markup name shown as text", g.hover(g.rect(markup)), markup + " (400 samples, 4.12%)");
			ok("hostile label is text", g.labels().some(function (l) { return /alert\(/.test(l); }),
			   "labels: " + JSON.stringify(g.labels()));
		});
		var initial = g.geometry().join("|"), initialLabels = g.labels().join("|");
		run("click zoom", function () {
			g.click(g.rect("foo"));
			var foo = g.rect("foo");
			ok("zoomed frame full width", foo.x === 10 && foo.w === 1180, "x " + foo.x + " w " + foo.w);
			eq("child rescaled", g.rect("bar").w, 643.6);
			ok("sibling hidden", !g.shown("qux"), "qux still shown");
			ok("other subtree hidden", !g.shown("other") && !g.shown(EVIL1), "other still shown");
			ok("ancestor stays, full width", g.rect("main").w === 1180 && g.rect("all").w === 1180,
			   "main w " + g.rect("main").w);
			ok("Reset Zoom shown", !hiddenEl(g.rz), "Reset Zoom hidden");
			var l = g.labels();
			ok("labels recomputed", l.indexOf("bar") >= 0 && l.indexOf("qux") < 0 && l.indexOf("main") >= 0,
			   JSON.stringify(l));
			eq("hover when zoomed", g.hover(g.rect("bar")), "bar (3,000 samples, 30.93%, 54.55% of zoom)");
			g.over(g.rect("bar"));
			eq("tooltip when zoomed", tipOf(g).join(" | "),
			   "bar | total 3,000 samples (30.93%, 54.55% of zoom) | self 3,000 samples (30.93%)");
			g.out();
			eq("fragment after zoom", location.hash, "#z=2");
		});
		run("click ancestor", function () {
			g.click(g.rect("main"));
			eq("ancestor now full width", g.rect("main").w, 1180);
			ok("former sibling back", g.shown("qux") && g.rect("qux").w === 358.5,
			   "qux " + JSON.stringify(g.names().qux));
			eq("former zoom rescaled", g.rect("foo").w, 821.5);
			ok("outside still hidden", !g.shown("other"), "other shown");
		});
		run("reset zoom", function () {
			g.press(g.rz);
			eq("Reset Zoom restores every frame", g.geometry().join("|"), initial);
			eq("Reset Zoom restores labels", g.labels().join("|"), initialLabels);
			ok("Reset Zoom hidden again", hiddenEl(g.rz), "still shown");
			eq("fragment cleared", location.hash, "");
		});
		run("search", function () {
			g.search("^ba");
			eq("search highlights matches", g.marked().join(), "bar,baz");
			eq("highlight colour", getComputedStyle(g.hl).fill, "rgb(230, 0, 230)");
			eq("Matched value", g.mt.textContent, "Matched: 51.55%, 2 frames");
			eq("fragment after search", location.hash, "#s=%5Eba");
			g.search("^(foo|bar)$");
			eq("nested match not double counted", g.mt.textContent, "Matched: 56.70%, 2 frames");
			g.search("FOO$");
			eq("case-sensitive by default", g.mt.textContent, "Matched: 0.00%, 0 frames");
			g.press(g.ic);
			eq("case-insensitive toggle", g.mt.textContent, "Matched: 72.16%, 2 frames");
			eq("toggle matches both cases", g.marked().join(), "Foo,foo");
			eq("fragment keeps case flag", location.hash, "#s=FOO%24&i=1");
			g.press(g.ic);
			g.search("^ba");
			g.click(g.rect("main"));
			eq("Matched relative to zoom", g.mt.textContent, "Matched: 51.55% (63.29% of zoom), 2 frames");
			g.click(g.rect("foo"));
			eq("Matched relative to deeper zoom", g.mt.textContent, "Matched: 51.55% (90.91% of zoom), 2 frames");
			eq("highlight follows zoom", g.marked().join(), "bar,baz");
			g.press(g.rz);
			g.press(g.sr);
			eq("Search again clears", g.marked().join(), "");
			ok("Matched cleared", g.mt.textContent.trim() === "", JSON.stringify(g.mt.textContent));
			eq("button back to Search", g.sr.textContent, "Search");
		});
		run("keyboard", function () {
			key("f", { ctrlKey: true });
			ok("Ctrl-F focuses the search field", g.field() && document.activeElement === g.field(),
			   "focus on " + (document.activeElement && document.activeElement.tagName));
			g.type("qux");
			eq("Ctrl-F searches", g.mt.textContent, "Matched: 24.74%, 1 frame");
			key("Escape");
			eq("Escape clears", g.marked().join(), "");
			ok("Escape closes the field", hiddenEl(g.field().parentNode.parentNode), "field shown");
		});
		run("search field", function () {
			key("/");
			ok("slash focuses the field", document.activeElement === g.field(), "not focused");
			var info = g.svg.getElementsByClassName("sn")[0];
			g.type("^b");
			eq("matches as you type: one character", g.marked().join(), "bar,baz");
			g.type("^ba");
			eq("matches as you type", g.mt.textContent, "Matched: 51.55%, 2 frames");
			eq("count and share beside the field", info.textContent, "2 frames, 51.55%");
			key("Enter");
			eq("Enter: next match", g.mt.textContent, "Matched: 51.55%, match 1 of 2");
			eq("Enter: the match described", g.dt.textContent, "bar (3,000 samples, 30.93%)");
			key("Enter");
			eq("Enter again", g.mt.textContent, "Matched: 51.55%, match 2 of 2");
			key("Enter", { shiftKey: true });
			eq("Shift-Enter: previous", g.mt.textContent, "Matched: 51.55%, match 1 of 2");
			eq("position beside the field", info.textContent, "1/2 frames, 51.55%");
			g.type("(a+)+$");
			eq("refused pattern said", g.mt.textContent, "Search refused (nested repetition): (a+)+$");
			eq("refused pattern in the URL", location.hash, "#s=(a%2B)%2B%24");
			key("Escape");
			ok("Esc clears a refused pattern", g.mt.textContent.trim() === "", JSON.stringify(g.mt.textContent));
			eq("Esc clears s= from the URL", location.hash, "");
			eq("Esc empties the field", g.field().value, "");
			g.search("^ba", true);
			eq("plain text: ^ is a character", g.mt.textContent, "Matched: 0.00%, 0 frames");
			g.search("ba", true);
			eq("plain text matches", g.marked().join(), "bar,baz");
			eq("plain text in the URL as p=", location.hash, "#p=ba");
			g.search("a|q", true);
			eq("plain text: | is a character", g.marked().join(), "");
			g.search(".", false);
			eq("regex: . matches any", /^Matched: 100.00%/.test(g.mt.textContent), true);
			key("Escape");
			eq("no dialog opened", prompted.length, 0);
		});
		run("next and previous match", function () {
			var nx = g.svg.getElementsByClassName("nx")[0], pv = g.svg.getElementsByClassName("pv")[0];
			ok("next hidden without a search", hiddenEl(nx) && hiddenEl(pv), "shown");
			g.search("^(foo|Foo|other)$");   /* in pre-order: foo, Foo, other */
			eq("count of matched frames", g.mt.textContent, "Matched: 90.72%, 3 frames");
			ok("next shown while searching", !hiddenEl(nx) && !hiddenEl(pv), "hidden");
			g.press(nx);
			eq("next: first match", g.dt.textContent, "foo (5,500 samples, 56.70%)");
			eq("next: position", g.mt.textContent, "Matched: 90.72%, match 1 of 3");
			var o = outlineOf(g);
			ok("current match outlined", o && near(o.w, g.rect("foo").w, 0.11) && o.y === g.rect("foo").y,
			   JSON.stringify(o) + " vs " + JSON.stringify(g.rect("foo")));
			g.press(nx);
			eq("next: second match", g.mt.textContent, "Matched: 90.72%, match 2 of 3");
			eq("next: second details", g.dt.textContent, "Foo (1,500 samples, 15.46%)");
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true, cancelable: true }));
			eq("right arrow: third match", g.mt.textContent, "Matched: 90.72%, match 3 of 3");
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true, cancelable: true }));
			eq("right arrow wraps", g.mt.textContent, "Matched: 90.72%, match 1 of 3");
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft", bubbles: true, cancelable: true }));
			eq("left arrow wraps back", g.mt.textContent, "Matched: 90.72%, match 3 of 3");
			g.press(pv);
			eq("previous button", g.mt.textContent, "Matched: 90.72%, match 2 of 3");
			g.click(g.rect("foo"));
			ok("outline hidden when the match is not drawn", !outlineOf(g), JSON.stringify(outlineOf(g)));
			g.press(nx);
			eq("next zooms out to show a hidden match", g.dt.textContent, "other (1,800 samples, 18.56%)");
			ok("zoomed out for it", hiddenEl(g.rz), "still zoomed");
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
			ok("Escape clears outline and buttons", !outlineOf(g) && hiddenEl(nx), "still shown");
		});
		run("slash and Escape", function () {
			key("/");
			g.type("^ba");
			eq("slash searches", g.mt.textContent, "Matched: 51.55%, 2 frames");
			g.field().blur();
			g.click(g.rect("foo"));
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
			ok("Escape resets zoom and search", hiddenEl(g.rz) && g.marked().join() === "",
			   "zoom shown " + !hiddenEl(g.rz) + ", marked " + g.marked().join());
		});
		run("function table", function () {
			var bt = g.svg.getElementsByClassName("tb")[0];
			ok("table closed at first", !table(g), "shown");
			g.press(bt);
			var tb = table(g);
			ok("Table opens it", !!tb, "not shown");
			eq("headings", tb.head.join("|"), "Function|Self|Self %|Total \u25bc|Total %|");
			eq("foo's row", tb.rows[rowOf(tb, "foo")].slice(0, 5).join("|"), "foo|500 samples|5.15%|5,500 samples|56.70%");
			eq("sorted by total", tb.rows[0][0], "main");
			ok("every function once", tb.rows.length === 10 && rowOf(tb, EVIL1) >= 0 && rowOf(tb, EVIL2) >= 0,
			   tb.rows.length + " rows");
			g.press(tb.el.getElementsByTagName("th")[1]);
			tb = table(g);
			eq("sorted by self", tb.rows.slice(0, 3).map(function (r) { return r[0]; }).join(), "bar,baz,Foo");
			g.press(tb.el.getElementsByTagName("th")[1]);
			eq("again: reversed", table(g).rows.slice(0, 3).map(function (r) { return r[0]; }).join(), "main,other,x]]" + ">y<b>&'q'");
			g.press(table(g).el.getElementsByTagName("th")[0]);
			eq("by name", table(g).rows.map(function (r) { return r[0]; }).slice(0, 3).join(), [EVIL2, EVIL1, "Foo"].join());
			g.search("^ba");
			eq("filtered by the search", table(g).rows.map(function (r) { return r[0]; }).sort().join(), "bar,baz");
			g.press(g.sr);
			eq("all back without it", table(g).rows.length, 10);
			var qux = table(g).tr[rowOf(table(g), "qux")];
			g.press(qux.firstChild);
			ok("a row's click closes the table", !table(g), "still shown");
			eq("and highlights its frames", g.marked().join(), "qux");
			key("Escape");
			key("t");
			ok("T opens it", !!table(g), "not shown");
			key("Escape");
			ok("Esc closes it", !table(g), "still shown");
			g.press(bt);
			eq("the tooltip does not cover it", overlap(g.tt, table(g).el) && !hiddenEl(g.tt), false);
			g.press(bt);
			ok("Table again closes it", !table(g), "still shown");
		});
		run("risky regex refused", function () {
			var s = performance.now();
			g.search("(a+)+$");
			eq("nested repetition refused", g.mt.textContent, "Search refused (nested repetition): (a+)+$");
			eq("nothing marked", g.marked().join(), "");
			g.search("(x)\\1");
			eq("back-reference refused", g.mt.textContent, "Search refused (back-reference): (x)\\1");
			g.search("(");
			eq("bad regex", g.mt.textContent, "Search refused (bad regex): (");
			g.search(".*b.*r");
			eq("two unbounded repetitions allowed", g.mt.textContent, "Matched: 30.93%, 1 frame");
			ok("quick", performance.now() - s < 1000, (performance.now() - s) + " ms");
			g.search("");
		});
		checkIntact("", cfg.scripts);
	}

	function fragment(g) {
		run("fragment restores zoom", function () {
			var foo = g.rect("foo");
			ok("fragment zoom applied", foo.x === 10 && foo.w === 1180 && !g.shown("qux"),
			   "foo x " + foo.x + " w " + foo.w);
			ok("fragment Reset Zoom shown", !hiddenEl(g.rz), "hidden");
		});
		run("fragment restores search", function () {
			eq("fragment search applied", g.mt.textContent, "Matched: 51.55% (90.91% of zoom), 2 frames");
			eq("fragment case flag applied", g.marked().join(), "bar,baz");
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
			a.over(a.rect("foo"));
			eq("hover sets own details", a.dt.textContent, "foo (5,500 samples, 56.70%)");
			eq("other copy's details untouched", b.dt.textContent, before);
			a.out();
		});
		run("independent zoom", function () {
			var wb = b.rect("foo").w, gc = c.geometry().join();
			a.click(a.rect("foo"));
			eq("zoom in first copy", a.rect("foo").w, 1180);
			eq("second copy not zoomed", b.rect("foo").w, wb);
			ok("second copy Reset Zoom hidden", hiddenEl(b.rz), "shown");
			ok("third graph untouched", c.geometry().join() === gc, "changed");
		});
		run("independent search", function () {
			b.search("^ba");
			eq("search in second copy", b.marked().join(), "bar,baz");
			eq("first copy not searched", a.marked().join(), "");
			eq("second copy Matched", b.mt.textContent, "Matched: 51.55%, 2 frames");
			ok("first copy Matched empty", a.mt.textContent.trim() === "", JSON.stringify(a.mt.textContent));
			eq("third graph not searched", c.hl.getAttribute("d"), "");
		});
		run("third graph works", function () {
			var d = parse(c.hover(c.drawn()[0]));
			ok("third graph hover", d && d.name === "all" && d.pct === 100, c.dt.textContent);
		});
		run("canvas at the page's scale", function () {
			/* the first graph shown 1.5 times its size: a zoom draws its
			 * canvas at that many device pixels, its frames where they are */
			var h0 = +a.svg.getAttribute("height");
			a.svg.style.width = "1800px";
			a.svg.style.height = 1.5 * h0 + "px";
			a.press(a.rz);
			ok("file's paths when not zoomed", !a.canvas(), "canvas shown");
			var foo = a.rect("foo");
			a.click(foo);
			var cv = a.canvas();
			ok("canvas shown when zoomed", !!cv, "no canvas");
			if (!cv) return;
			eq("canvas device pixels", cv.width, Math.ceil(1180 * 1.5 * (window.devicePixelRatio || 1)));
			var row = a.drawn().filter(function (r) { return r.y === foo.y; });
			ok("zoomed frame full width on the canvas", row.length === 1 && row[0].x === 10 && row[0].w === 1180,
			   JSON.stringify(row.slice(0, 3)));
			var fo = cv.parentNode, sx = cv.width / +fo.getAttribute("width");
			var y = Math.floor((foo.y + 7 - +fo.getAttribute("y")) * sx), px = cv.getContext("2d").getImageData(0, y, cv.width, 1).data;
			var last = 4 * (cv.width - 2), fill = row[0] && row[0].fill;
			eq("right end of the zoomed frame drawn", "#" + [px[last], px[last + 1], px[last + 2]].map(function (v) {
				return (256 + v).toString(16).slice(1);
			}).join(""), fill);
			a.press(a.rz);
			ok("Reset Zoom shows the file's paths", !a.canvas() && a.drawn().length > 0, "canvas still shown");
			a.svg.style.width = a.svg.style.height = "";
		});
		run("inline graphs leave the URL alone", function () {
			eq("inline graphs leave the URL alone", location.hash, "");
		});
		checkIntact("", cfg.scripts);
	}

	/* the views (issue 20) and sub-pixel runs (issue 19) are checked in
	 * driver_views.js, pasted into this closure by run.sh; its constants
	 * are here, set before the dispatcher runs */
	var PITCH = 16;   /* frame height: the default layout's */
	var ITEM = { sandwich: 0, hide: 1, include: 2, root: 3 };

	/* any graph: invariants and timings, no knowledge of the input */
	function generic(g) {
		/* the file's frames drawn: its paths' boxes, and for its image
		 * (the blended boxes) each pixel it covers on a row (a box covers
		 * one or two, and two boxes at most share one) */
		var rs = g.drawn(), n = rs.length + (g.canvas() ? 0 : g.imageCells());
		g.image = null;   /* its pixels, megabytes, not kept through the timed zoom and search */
		info(n + " frames drawn, " + Math.round(t0) + " ms from navigation to driver start");
		run("script initialised", function () {
			ok("script initialised", g.svg.classList.contains("js"), "svg has no class js");
		});
		run("function table", function () {
			var s = performance.now();
			g.press(g.svg.getElementsByClassName("tb")[0]);
			var tb = table(g), h = tb ? tb.head.join("|") : "";
			info("table took " + Math.round(performance.now() - s) + " ms");
			ok("table opens with rows", tb && tb.rows.length > 0, tb ? "no rows" : "not shown");
			ok("table columns", /^Function\|Before\|After( \u25bc)?\|Change\|Change %$/.test(h) ||
			   /^Function\|Self\|Self %\|Total( \u25bc)?\|Total %/.test(h), h);
			ok("table rows have every column", tb.rows.every(function (r) {
				return r.length >= tb.head.length && r.slice(1, tb.head.length).every(function (c) { return c !== ""; });
			}), JSON.stringify(tb.rows[0]));
			info("table: " + h + " / " + tb.rows[0].join(" | "));
			g.press(g.svg.getElementsByClassName("tb")[0]);
		});
		if (cfg.label === "compare") {   /* its details line is compared(): not parse()'s */
			checkIntact("", cfg.scripts);
			return;
		}
		var root = null, rootRect = null, target = null, first = null;
		run("hover", function () {
			rs.filter(function (r) { return r.w === 1180; }).forEach(function (r) {
				var d = parse(g.hover(r));
				if (d && d.name === "all") {
					root = d;
					rootRect = r;
				}
			});
			ok("hover all", root && root.pct === 100, "no frame says all (..., 100.00%)");
		});
		rs.forEach(function (r) {
			if (r.w < 1180 * 0.7 && (!target || r.w > target.w)) target = r;
		});
		if (!root || !target)
			return;
		run("hover percentage", function () {
			first = parse(g.hover(target));
			ok("hover format", first !== null, g.dt.textContent);
			ok("hover percentage matches width", near(first.pct, target.w / 11.8, 0.02),
			   first.pct + "% vs " + target.w + " px");
			ok("hover count matches percentage",
			   near(first.n * 100 / root.n, first.pct, 0.005 + 1e-9), first.n + " of " + root.n);
			g.over(target);
			var tl = tipOf(g);
			g.out();
			info("tooltip: " + tl.join(" | "));
			if (!g.svg.getElementsByClassName("iv")[0] && !/^total /.test(tl[1] || "")) return;   /* compared runs */
			ok("tooltip: name, total, self", tl[0] === first.name && /^total [\d,.]+ .+ \(\d+\.\d\d%\)$/.test(tl[1]) &&
			   /^self [\d,.]+ .+ \(\d+\.\d\d%\)$/.test(tl[2]), tl.join(" | "));
			if (/^art-/.test(cfg.label))
				ok("tooltip: calls of an ART trace", tl.some(function (s) { return /^calls [\d,]+$/.test(s); }),
				   tl.join(" | "));
		});
		var initial = g.geometry().join("|");
		run("zoom", function () {
			var s = performance.now();
			g.click(target);
			g.svg.getBoundingClientRect();
			info("zoom into a " + first.pct + "% frame took " + Math.round(performance.now() - s) + " ms");
			var now = g.drawn(), row = now.filter(function (r) { return r.y === target.y; });
			ok("zoomed frame alone in its row, full width",
			   row.length === 1 && row[0].x === 10 && row[0].w === 1180, JSON.stringify(row.slice(0, 3)));
			ok("ancestor full width", now.some(function (r) { return r.y === rootRect.y && r.w === 1180; }),
			   "root row changed");
			ok("fewer frames drawn", now.length <= n, now.length + " > " + n);
			var d = parse(g.hover(row[0] || target));
			ok("hover when zoomed", d && d.name === first.name && d.zpct === null && d.pct === first.pct,
			   g.dt.textContent);
			s = performance.now();
			g.press(g.rz);
			g.svg.getBoundingClientRect();
			info("reset zoom took " + Math.round(performance.now() - s) + " ms");
			ok("Reset Zoom restores every frame", g.geometry().join("|") === initial, "geometry differs");
		});
		run("search", function () {
			var re = "^" + first.name.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&") + "$";
			var s = performance.now();
			g.search(re);
			g.svg.getBoundingClientRect();
			info("search took " + Math.round(performance.now() - s) + " ms");
			ok("search highlights", rects(g.hl).some(function (r) {
				return r.x === target.x && r.y === target.y && r.w === target.w;
			}), "frame not highlighted");
			var m = /^Matched: (\d+\.\d\d)%, [1-9]\d* frames?$/.exec(g.mt.textContent);
			ok("Matched shown", m && +m[1] >= first.pct && +m[1] <= 100, g.mt.textContent);
			g.press(g.sr);
			eq("search cleared", g.hl.getAttribute("d"), "");
		});
		var iv = g.svg.getElementsByClassName("iv")[0], bk = g.svg.getElementsByClassName("bk")[0];
		if (iv) run("views", function () {
			var s = performance.now();
			g.press(iv);
			g.svg.getBoundingClientRect();
			info("invert took " + Math.round(performance.now() - s) + " ms");
			ok("invert draws", g.drawn().length > 0 && g.geometry().join("|") !== initial, "nothing changed");
			g.press(bk);
			ok("Back after invert restores every frame", g.geometry().join("|") === initial, "geometry differs");
			var c = g.centre(target);
			g.mouseAt("contextmenu", c[0], c[1]);
			s = performance.now();
			g.press(g.svg.getElementsByClassName("mi")[0]);
			g.svg.getBoundingClientRect();
			info("sandwich took " + Math.round(performance.now() - s) + " ms");
			var row = g.drawn().filter(function (r) { return r.w === 1180; });
			ok("sandwich of the frame", row.some(function (r) { return parse(g.hover(r)).name === first.name; }),
			   "no full-width " + first.name);
			g.press(bk);
			ok("Back after sandwich restores every frame", g.geometry().join("|") === initial, "geometry differs");
		});
		checkIntact("", cfg.scripts);
	}

	/* these start before the page has its frames (driver_page.js) */
	if (cfg.mode === "deferred" || cfg.mode === "paint" || cfg.mode === "queued" || cfg.mode === "unpackfail") {
		run(cfg.mode, function () {
			if (cfg.mode === "paint") paint();
			else if (cfg.mode === "deferred") deferred(new Graph(svgs()[0]));
			else early(new Graph(svgs()[0]));
		});
		return;
	}
	/* the frames are unpacked asynchronously (main.js): the checks start
	 * once every graph has said data-ready (or after 20 s, and fail) */
	(function wait(t) {
		if (t < 20000 && !svgs().every(function (s) { return s.hasAttribute("data-ready"); }))
			return setTimeout(wait, 20, t + 20);
		/* the modes that read the file's image wait until it is decoded */
		var g0 = svgs().length ? new Graph(svgs()[0]) : null;
		if (g0 && (cfg.mode === "merged" || cfg.mode === "generic" || !cfg.mode)) {
			g0.readImage(function () {
				run("driver", function () {
					if (cfg.mode === "merged") merged(g0);
					else generic(g0);
				});
				flush();
			});
			return;
		}
		run("driver", function () {
			if (cfg.mode === "html") {
				html();
			} else {
				var s = svgs();
				if (!s.length) throw new Error("no graph in the document");
				var g = new Graph(s[0]);
				var modes = { known: known, fragment: fragment, icicle: icicle, diff: diff,
					      nameattr: nameattr, redos: redos, refusedview: refusedview,
					      chart: chart, chartlink: chartlink, fit: fit, bigtable: bigtable,
					      views: views, viewurl: viewurl, merged: merged };
				(Object.prototype.hasOwnProperty.call(modes, cfg.mode) ? modes[cfg.mode] : generic)(g);
			}
		});
		flush();
	})(0);
})();
