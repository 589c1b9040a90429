/* driver_page.js: the checks of issue 34's page, part of driver.js's
 * closure: run.sh pastes this file into it, before its last line (so the
 * helpers there, run, ok, eq, Graph, table..., are in scope, and the
 * dispatcher there calls these). Only function declarations here: they
 * are hoisted, and the dispatcher runs before this text is reached.
 *
 *   chart      a flame chart: wheel, drag, W/S/A/D, the axis; prints its link
 *   chartlink  that chart opened from that link
 *   bigtable   the function table of thousands of functions
 *   fit        nothing outside windows of 1200 and 800 px
 *   refusedview  a link with a view too costly, with and without a search
 *   queued     the known input: events sent before the frames are unpacked
 *   deferred, paint  (see driver.js)
 *   unpackfail the known input with its packed frames (D.z) cut short
 * This file is pasted into CDATA and into an HTML <script>: it must never
 * contain the CDATA end marker nor a closing script tag. */
	/* a flame chart (issue 34, item 5): the wheel, drags, W/S/A/D, the
	 * axis redrawn with round ticks, the window in the URL */
	function axisLabels(g) {
		var ax = g.svg.getElementsByClassName("ax")[0];
		return Array.prototype.map.call(ax.getElementsByTagName("text"), function (t) { return t.textContent; });
	}
	function windowOf() {
		var m = /v=([\d.]+),([\d.]+)/.exec(location.hash);
		return m ? [+m[1], +m[2]] : null;
	}
	function chart(g) {
		var before = axisLabels(g).join("|"), mid = g.client(600, 0), fs = g.drawn();
		var low = fs.reduce(function (a, r) { return r.y > a.y ? r : a; }, fs[0]);
		function wheel(dx, dy) {
			var p = g.client(600, low.y + 7);
			g.fr.dispatchEvent(new WheelEvent("wheel", { bubbles: true, cancelable: true, clientX: p.x, clientY: p.y,
								     deltaX: dx, deltaY: dy, deltaMode: 0 }));
		}
		run("tooltip", function () {
			g.over(low);
			var tl = tipOf(g);
			g.out();
			ok("tooltip: start and duration", tl.some(function (s) {
				return /^start [\d,.]+ (µs|ms|s), duration [\d,.]+ (µs|ms|s)$/.test(s);
			}), tl.join(" | "));
		});
		run("wheel", function () {
			wheel(0, -600);
			var l = axisLabels(g);
			ok("wheel changes the axis labels", l.join("|") !== before, before);
			ok("round ticks", l.length >= 3 && l.every(function (s) { return /^\d+(\.\d+)? (ns|µs|ms|s)$/.test(s); }) &&
			   (function () {   /* steps of 1, 2 or 5 times a power of ten */
				var v = l.map(function (s) { return parseFloat(s); }), d = v[1] - v[0];
				var m = d / Math.pow(10, Math.floor(Math.log10(d)) );
				return [1, 2, 5].some(function (k) { return near(m, k, 1e-6); });
			   })(), l.join("|"));
			ok("window in the URL", !!windowOf(), location.hash);
			ok("Reset Zoom shown", !hiddenEl(g.rz), "hidden");
			var texts = g.svg.getElementsByClassName("ax")[0].getElementsByTagName("text"), bad = [];
			for (var i = 0; i < texts.length; i++) {
				var b = texts[i].getBBox();
				if (b.x < 0 || b.x + b.width > 1200) bad.push(texts[i].textContent);
			}
			eq("no label clipped at the edges", bad.join(), "");
			info("axis after the wheel: " + l.join(" | ") + " " + location.hash);
		});
		run("pan and keys", function () {
			var w0 = windowOf(), p = g.client(600, low.y + 7), q = g.client(700, low.y + 7);
			g.fr.dispatchEvent(new MouseEvent("mousedown", { bubbles: true, button: 0, buttons: 1, clientX: p.x, clientY: p.y }));
			g.fr.dispatchEvent(new MouseEvent("mousemove", { bubbles: true, buttons: 1, clientX: q.x, clientY: q.y }));
			window.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
			var w1 = windowOf();
			ok("drag right: earlier time", w1 && w1[0] < w0[0] && near(w1[1] - w1[0], w0[1] - w0[0], 1e-2),
			   JSON.stringify([w0, w1]));
			key("d");
			var w2 = windowOf();
			ok("D: later", w2[0] > w1[0], JSON.stringify([w1, w2]));
			key("a");
			ok("A: earlier", windowOf()[0] < w2[0], JSON.stringify([w2, windowOf()]));
			key("w");
			var w3 = windowOf();
			ok("W: zoom in", w3[1] - w3[0] < w2[1] - w2[0], JSON.stringify([w2, w3]));
			key("s");
			key("s");
			ok("S: zoom out", windowOf()[1] - windowOf()[0] > w3[1] - w3[0], JSON.stringify(windowOf()));
			wheel(-300, 0);
			ok("horizontal scroll pans", windowOf()[0] < w3[0] || windowOf()[0] === 0, JSON.stringify(windowOf()));
		});
		/* the link a user would share now, with a search on: run.sh opens
		 * it in a fresh page (mode "chartlink") and wants what this shows */
		run("shared link", function () {
			g.search("android.", true);   /* plain text: the dot is a dot */
			ok("link holds the window and the search", /(^#|&)v=[\d.]+,[\d.]+(&|$)/.test(location.hash) &&
			   /&p=android\.(&|$)/.test(location.hash) && /^Matched: /.test(g.mt.textContent), location.hash);
			info("shared " + location.hash + " " + JSON.stringify(chartState(g)));
		});
		run("reset", function () {
			g.press(g.sr);
			g.press(g.rz);
			eq("Reset Zoom: the file's axis", axisLabels(g).join("|"), before);
			eq("Reset Zoom: URL cleared", location.hash, "");
		});
		checkIntact("", cfg.scripts);
	}
	/* what a chart shows: its axis, frame labels, boxes (as a digest) and
	 * match line */
	function chartState(g) {
		var b = JSON.stringify(g.drawn()), h = 0;
		for (var i = 0; i < b.length; i++) h = (h * 31 + b.charCodeAt(i)) | 0;
		return { axis: axisLabels(g).join("|"), labels: g.labels().join("|"), boxes: g.drawn().length + "/" + h,
			 matched: g.mt.textContent };
	}
	/* a chart opened from a shared link (AFT.x: its hash and what the page
	 * it came from showed) */
	function chartlink(g) {
		var X = cfg.x, got;
		run("shared link", function () {
			got = chartState(g);
			eq("same axis labels", got.axis, X.want.axis);
			eq("same frames drawn", got.boxes, X.want.boxes);
			eq("same frame labels", got.labels, X.want.labels);
			eq("same search", got.matched, X.want.matched);
			ok("Reset Zoom shown", !hiddenEl(g.rz), "hidden");
			eq("link kept", location.hash, X.hash);
		});
		checkIntact("", cfg.scripts);
	}

	/* The function table of a graph of more functions than rows in sight
	 * (AFT.x: n functions, their names by name[], m of them with "f12"
	 * in their name): every one listed once as the box scrolls, sorted
	 * by each column and reversed, filtered by the search, a row's name
	 * and its Sandwich link working at the end of the list; tens of rows
	 * made, not one per function. */
	function scrolled(tb, top) {
		tb.box.scrollTop = top;
		tb.box.dispatchEvent(new Event("scroll"));
		return table(g0);
	}
	/* every row, scrolling the box from the top a page at a time */
	function allRows(g) {
		var tb = table(g), seen = [], at = {}, made = 0, top;
		for (top = 0; ; top += Math.max(1, tb.box.clientHeight - 30)) {
			tb = scrolled(tb, top);
			made = Math.max(made, tb.el.getElementsByTagName("tr").length);
			tb.rows.forEach(function (r, k) {
				var f = tb.tr[k].getAttribute("data-f");
				if (!(f in at)) {
					at[f] = seen.length;
					seen.push(r);
				}
			});
			if (top > tb.box.scrollHeight) break;
		}
		scrolled(tb, 0);
		return { rows: seen, made: made };
	}
	function num(c) { return c === "new" ? Infinity : parseFloat(c.replace(/,/g, "")); }
	var g0;   /* the graph of bigtable(), for scrolled() */
	function bigtable(g) {
		var X = cfg.x, tb, all, s;
		g0 = g;
		run("opens", function () {
			s = performance.now();
			g.press(g.svg.getElementsByClassName("tb")[0]);
			tb = table(g);
			info("table of " + X.n + " functions opened in " + Math.round(performance.now() - s) + " ms");
			ok("note: every function", tb && tb.note.indexOf(X.n.toLocaleString("en-US") + " functions.") === 0, tb && tb.note);
			ok("tens of rows made", tb.el.getElementsByTagName("tr").length < 100, tb.el.getElementsByTagName("tr").length + " rows");
		});
		run("every function", function () {
			s = performance.now();
			all = allRows(g);
			info("scrolled through in " + Math.round(performance.now() - s) + " ms, at most " + all.made + " rows made");
			var names = all.rows.map(function (r) { return r[0]; });
			eq("each listed once", names.slice().sort().join(), X.names.slice().sort().join());
			ok("at most 100 rows made at a time", all.made < 100, all.made);
			var k = tb.head.length > 5 ? 3 : 2;   /* Total, else After */
			ok("in order of the sorted column all along", all.rows.every(function (r, i) {
				return !i || num(all.rows[i - 1][k]) >= num(r[k]);
			}), "out of order");
		});
		run("sorted by each column", function () {
			var head = table(g).head, k, col, bad = [];
			for (k = 0; k < head.length; k++) {
				if (!head[k]) {   /* the Sandwich links': no sort */
					var was = table(g).head.join("|");
					g.press(table(g).el.getElementsByTagName("th")[k]);
					eq("the blank heading sorts nothing", table(g).head.join("|"), was);
					continue;
				}
				for (var again = 0; again < 2; again++) {
					g.press(table(g).el.getElementsByTagName("th")[k]);
					tb = table(g);
					col = tb.rows.map(function (r) { return k ? num(r[k]) : r[0]; });
					var down = /\u25bc/.test(tb.head[k]), up = /\u25b2/.test(tb.head[k]);
					var sorted = col.every(function (v, i) {
						return !i || (down ? col[i - 1] >= v : col[i - 1] <= v);
					});
					if (!(down || up) || !sorted || tb.rows.length < 10) bad.push(tb.head[k] + ": " + col.slice(0, 5).join());
				}
			}
			eq("each column both ways", bad.join("; "), "");
		});
		run("filtered by the search", function () {
			g.search("f12", true);
			tb = table(g);
			ok("note: what matches", tb.note.indexOf(X.m + " functions matching") === 0, tb.note);
			all = allRows(g);
			ok("only what matches, all of it", all.rows.length === X.m && all.rows.every(function (r) {
				return r[0].indexOf("f12") >= 0;
			}), all.rows.length + " rows");
			g.press(g.sr);
			eq("all back", table(g).note.indexOf(X.n.toLocaleString("en-US") + " functions.") === 0, true);
		});
		run("the last row", function () {
			tb = scrolled(table(g), 1e9);
			var last = tb.tr[tb.tr.length - 1], name = tb.rows[tb.rows.length - 1][0];
			ok("in sight at the end", last.getBoundingClientRect().bottom <= tb.box.getBoundingClientRect().bottom + 1 &&
			   last.getBoundingClientRect().top >= tb.box.getBoundingClientRect().top, "off the box");
			g.press(last.firstChild);
			ok("its click highlights its frames", !table(g) && /^Matched: [\d.]+%, [1-9]\d* frames?$/.test(g.mt.textContent) &&
			   g.field().value === "^" + name + "$", g.mt.textContent + " " + g.field().value);
			g.press(g.sr);
			if (!g.svg.getElementsByClassName("iv")[0]) return;
			g.press(g.svg.getElementsByClassName("tb")[0]);
			tb = scrolled(table(g), 1e9);
			name = tb.rows[tb.rows.length - 1][0];
			g.press(tb.tr[tb.tr.length - 1].lastChild);
			eq("its Sandwich opens its sandwich", g.dt.textContent, "View: sandwich of " + name + ": callers above, callees below");
			key("Escape");
		});
		checkIntact("", cfg.scripts);
	}

	/* Nothing of the page outside a window narrower than the image or
	 * about as wide (run.sh sets its size, AFT.x.size): as loaded, with
	 * the search field open and a search on (Reset Search, < >, the
	 * count), the tooltip and the menu at the right edge, the table open,
	 * and on a chart after a wheel zoom. Each shown text, control,
	 * <foreignObject> and the tooltip's box must lie inside the window. */
	function fit(g) {
		var vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
		function outside(state) {
			var bad = [], all = g.svg.querySelectorAll("text, foreignObject, .tt rect, .mn rect");
			if (document.documentElement.scrollWidth > vw) bad.push("scrolls to " + document.documentElement.scrollWidth);
			for (var i = 0; i < all.length; i++) {
				var e = all[i], r = e.getBoundingClientRect();
				if (!shownIn(e, document.documentElement) || !(r.width > 0) || e.textContent === " ") continue;
				if (r.left < -0.5 || r.right > vw + 0.5)
					bad.push((e.getAttribute("class") || e.tagName) + " '" + e.textContent.slice(0, 40) + "' " +
						 r.left.toFixed(1) + ".." + r.right.toFixed(1));
			}
			eq("nothing outside a " + vw + " px window: " + state, bad.slice(0, 4).join("; "), "");
		}
		info("window " + cfg.x.size + ", " + vw + "x" + vh + " inside the scroll bars; image " +
		     g.svg.getBoundingClientRect().width.toFixed(1) + " px wide");
		run("as loaded", function () { outside("as loaded"); });
		var rs = g.drawn(), name = null, right = null;
		rs.forEach(function (r) {
			if (r.x + r.w >= 1189 && r.w >= 4 && (!right || r.y < right.y)) right = r;   /* the top one at the right */
			if (!name && r.w < 1180 * 0.7 && r.w > 100) name = parse(g.hover(r));
		});
		run("searching", function () {
			g.search(name ? name.name : "a", true);
			ok("a search on", g.sr.textContent === "Reset Search" && !hiddenEl(g.field()), g.sr.textContent);
			outside("searching");
			/* the field covers neither the title nor a button, and its
			 * count is not cut */
			var fo = g.field().closest("foreignObject"), hit = [], count = fo.getElementsByClassName("sn")[0];
			["ti", "sr", "rx", "ic", "pv", "nx", "tb", "iv"].forEach(function (c) {
				var e = g.svg.getElementsByClassName(c)[0];
				if (e && !hiddenEl(e) && overlap(fo, e)) hit.push(c + " '" + e.textContent + "'");
			});
			eq("the field covers no title or button", hit.join(", "), "");
			ok("the count whole", count.getBoundingClientRect().right <= fo.getBoundingClientRect().right + 0.5 &&
			   count.scrollWidth <= count.clientWidth + 1, count.textContent);
			key("Escape");
		});
		run("tooltip and menu at the right edge", function () {
			ok("a frame at the right edge", !!right, "none");
			var y = right.y + right.h / 2;
			g.mouseAt("mouseover", right.x + right.w - 1, y);
			g.mouseAt("mousemove", right.x + right.w - 1, y);
			ok("tooltip shown", !hiddenEl(g.tt), "hidden");
			outside("tooltip");
			g.out();
			if (!g.svg.getElementsByClassName("iv")[0]) return;   /* no views, no menu */
			g.mouseAt("contextmenu", right.x + right.w - 1, y);
			ok("menu shown", !hiddenEl(g.svg.getElementsByClassName("mn")[0]), "hidden");
			outside("menu");
			key("Escape");
		});
		run("table", function () {
			g.press(g.svg.getElementsByClassName("tb")[0]);
			ok("table shown", !!table(g), "hidden");
			outside("table");
			key("Escape");
		});
		if (g.svg.getElementsByClassName("ax")[0] && /^\d/.test(axisLabels(g)[0] || "")) run("chart zoomed", function () {
			var p = g.client(1180, right.y + 7);
			g.fr.dispatchEvent(new WheelEvent("wheel", { bubbles: true, cancelable: true, clientX: p.x, clientY: p.y,
								     deltaX: 0, deltaY: -300, deltaMode: 0 }));
			ok("zoomed", !hiddenEl(g.rz), "Reset Zoom hidden");
			outside("chart zoomed");
		});
		checkIntact("", cfg.scripts);
	}

	/* loaded with a view too costly to compute (issue 36.10); AFT.x.search:
	 * (issue 36.10); AFT.x.search: the link also has a search, "plain"
	 * (p=b, matching) or "refused" ((b+)+$): the refusal stays on the
	 * details line, the search's line beside it; Esc clears both */
	function refusedview(g) {
		var X = cfg.x || {}, why = /^View refused: about [\d,]+ steps to compute/;
		run("refused view", function () {
			info(Math.round(t0) + " ms from navigation to driver start");
			ok("view refused with a message", why.test(g.dt.textContent), g.dt.textContent);
			ok("loaded within seconds", t0 < 5000, t0 + " ms");
			ok("the graph as written", hiddenEl(g.svg.getElementsByClassName("bk")[0]) && !g.canvas(),
			   "Back shown or the canvas drawn");
		});
		if (!X.search) {
			checkIntact("", cfg.scripts);
			return;
		}
		run("with a search", function () {
			if (X.search === "plain")
				ok("the search applied", /^Matched: \d+\.\d\d%, [1-9]\d* frames?$/.test(g.mt.textContent), g.mt.textContent);
			else
				eq("the pattern refused", g.mt.textContent, "Search refused (nested repetition): (b+)+$");
			g.hover(g.drawn()[0]);
			ok("the refusal back after a hover", why.test(g.dt.textContent), g.dt.textContent);
			key("Escape");
			ok("Esc clears the search and the refusal", g.mt.textContent.trim() === "" && !why.test(g.dt.textContent) &&
			   location.hash === "" && (!g.field() || hiddenEl(g.field().parentNode.parentNode)),
			   JSON.stringify([g.mt.textContent, g.dt.textContent, location.hash]));
		});
		checkIntact("", cfg.scripts);
	}


	/* "queued": events sent while the document is parsed, before the page
	 * has unpacked its frames (asynchronous: main.js), are handled once
	 * it has, in order: hovers over bar then baz, a click zooming into foo,
	 * Esc (the zoom reset), `/` (the field opened), "ba" typed (into the
	 * field, not yet there when typed), hovers over bar then baz. In any
	 * other order the zoom, the field or its text would differ; of the
	 * hovers only the last is handled (the details line never says bar). The keys' defaults are stopped at once.
	 * "unpackfail": D.z cut short: the details line says so, data-ready is
	 * "no", nothing is thrown, and events change nothing. Frames are found
	 * by their widths in the file (the names need the frames). */
	function early(g) {
		var errors = [], fs = g.drawn(), XH = "http://www.w3.org/1999/xhtml";
		window.addEventListener("error", function (e) { errors.push(String(e.message)); });
		window.addEventListener("unhandledrejection", function (e) { errors.push("rejection: " + e.reason); });
		function near(w) {   /* the frame whose width is w of the 1180 px of 9700 */
			return fs.reduce(function (a, r) {
				return Math.abs(r.w - w * 1180 / 9700) < Math.abs(a.w - w * 1180 / 9700) ? r : a;
			}, fs[0]);
		}
		function sent(k) {
			var e = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true });
			return !(document.activeElement || document).dispatchEvent(e);
		}
		var bar = near(3000), baz = near(2000), foo = near(5500), line = g.dt.textContent, stopped, shown = [];
		new MutationObserver(function () { shown.push(g.dt.textContent); })
			.observe(g.dt, { childList: true, characterData: true, subtree: true });
		g.over(bar);
		g.over(baz);
		g.click(foo);
		sent("Escape");
		stopped = sent("/");
		sent("b");
		sent("a");
		g.over(bar);
		g.over(baz);
		ok("nothing handled before the frames are there", !g.svg.hasAttribute("data-ready") &&
		   g.dt.textContent === line && !g.field(), g.dt.textContent);
		if (cfg.mode === "queued") ok("the key's default stopped at once", stopped, "/ not prevented");
		(function wait(t) {
			if (!g.svg.hasAttribute("data-ready") && t < 10000) return setTimeout(wait, 20, t + 20);
			run(cfg.mode, function () {
				var tip = tipOf(g), f = g.field();
				if (cfg.mode === "unpackfail") {
					eq("refused", g.svg.getAttribute("data-ready"), "no");
					ok("refused on the details line", /^Data refused: the frames did not unpack \(.+\)$/.test(g.dt.textContent),
					   g.dt.textContent);
					g.click(foo);
					g.over(bar);
					sent("/");
					ok("events then change nothing", !f && !g.field() && g.drawn().length === fs.length &&
					   !g.svg.getElementsByTagNameNS(XH, "canvas").length, "the page changed");
				} else {
					eq("ready", g.svg.getAttribute("data-ready"), "yes");
					eq("the last hover shows", [parse(g.dt.textContent).name, tip[0]].join(), "baz,baz");
					ok("the hovers before it never handled", !shown.some(function (t) { return /^bar /.test(t); }),
					   JSON.stringify(shown));
					ok("the field opened by / after Esc, focused", f && document.activeElement === f, "no field focused");
					eq("the keys typed before the field was there are in it", f && f.value, "ba");
					eq("they searched", g.marked().join(","), "bar,baz");
					eq("the zoom into foo reset by Esc", g.rect("bar").w, bar.w);
				}
				eq("nothing thrown", errors.join("; "), "");
			});
			flush();
		})(0);
	}

	/* "deferred" (the known input): what the first picture does not need
	 * (decoding the frames, priming the drawing and the search: main.js)
	 * waits until two animation frames after the load event, and is then
	 * done without any event: prime() has made the canvas, and a search
	 * and a zoom work on the frames decoded that way. No event is sent
	 * before the last check of the wait: the work must come unasked. */
	function deferred(g) {
		var XH = "http://www.w3.org/1999/xhtml", t = 0;
		function made() { return g.svg.getElementsByTagNameNS(XH, "canvas").length > 0; }
		ok("nothing decoded while the document is parsed", !made(), "canvas made before the load event");
		eq("a frame shows the pointer", getComputedStyle(g.fr.getElementsByTagName("path")[0]).cursor, "pointer");
		function after() {
			if (!made() && (t += 50) < 10000) return setTimeout(after, 50);
			run("deferred", function () {
				ok("the deferred work is done without an event", made(), "no canvas 10 s after the first paint");
				g.search("ba", true);
				eq("search after the deferred decode", g.marked().join(","), "bar,baz");
				g.click(g.rect("foo"));
				eq("zoom after the deferred decode", g.rect("bar").w, 643.6);
			});
			flush();
		}
		window.addEventListener("load", function () {
			requestAnimationFrame(function () {
				requestAnimationFrame(function () {
					ok("nothing decoded before the second animation frame after load", !made(),
					   "canvas made before the picture was shown");
					setTimeout(after, 0);
				});
			});
		});
	}

	/* "paint": the time a user waits for the picture, navigation until two
	 * animation frames after the load event (the first after it is painted
	 * before the second starts); then when the frames were decoded: the
	 * canvas prime() makes (main.js) appeared, seen by a MutationObserver
	 * at the end of that task (it works the same on pages that decoded
	 * synchronously, before the data was unpacked by the browser). Nothing
	 * else runs, so nothing else is timed. */
	function paint() {
		var XH = "http://www.w3.org/1999/xhtml", decoded = 0;
		new MutationObserver(function () {
			if (!decoded && document.getElementsByTagNameNS(XH, "canvas").length) decoded = performance.now();
		}).observe(document.documentElement, { childList: true, subtree: true });
		window.addEventListener("load", function () {
			requestAnimationFrame(function () {
				requestAnimationFrame(function () {
					info("painted " + Math.round(performance.now()) + " ms from navigation");
					(function wait(t) {
						if (!decoded && t < 10000) return setTimeout(wait, 10, t + 10);
						info("decoded " + Math.round(decoded) + " ms from navigation");
						flush();
					})(0);
				});
			});
		});
	}
