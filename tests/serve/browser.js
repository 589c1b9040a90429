/* tests/serve/browser.js: drives the serve pages in headless Chromium, from
 * a test page that holds the server's pages in an iframe (browser.sh serves
 * it from another loopback port and starts Chromium without the same-origin
 * checks, so this script can reach into the frames as a user's hands would).
 * CFG (set by browser.sh): app (server URL), drop / pick ({name, hash, b64,
 * threads}): the file dropped on the form and the one chosen with the file
 * input. Writes PASS:/FAIL: lines into #out, then END.
 *
 * Every wait polls the server's status URL, so time only moves (Chromium's
 * virtual time) while the server is actually answering. */
(function () {
	"use strict";
	var out = document.getElementById("out"), app = document.getElementById("app");
	function line(s) { out.textContent += s + "\n"; }
	function pass(n) { line("PASS: browser/" + n); }
	function fail(n, why) { line("FAIL: browser/" + n + ": " + why); }
	function check(n, c, why) { if (c) pass(n); else fail(n, why || "no"); }
	function finish() { line("END"); }

	function bytes(b64) {
		var s = atob(b64), a = new Uint8Array(s.length);
		for (var i = 0; i < s.length; i++) a[i] = s.charCodeAt(i);
		return a;
	}
	function doc() {
		try { return app.contentDocument; } catch (e) { return null; }
	}
	/* wait until cond() gives something, polling through the network at
	 * most `tries` times; then next(value), or fail(name) */
	function wait(name, tries, cond, next) {
		var v = null;
		try { v = cond(); } catch (e) { v = null; }
		if (v) return next(v);
		if (tries <= 0) { fail(name, "timed out"); return finish(); }
		fetch(CFG.app + "/", { cache: "no-store" }).then(function () {}, function () {}).then(function () {
			setTimeout(function () { wait(name, tries - 1, cond, next); }, 50);
		});
	}
	function file(w, f) {
		return new w.File([bytes(f.b64)], f.name, { type: "application/octet-stream" });
	}
	function openForm(next) {
		app.src = CFG.app + "/?" + Math.random();
		wait("form loads", 400, function () {
			var d = doc();
			return d && d.readyState === "complete" && d.getElementById("drop") && d;
		}, next);
	}
	function result(f, next) {
		wait(f.name + ": result page", 4000, function () {
			var d = doc();
			return d && d.location.pathname === "/trace/" + f.hash && d.readyState === "complete" &&
				d.querySelector("h1") && /^Flame graphs/.test(d.querySelector("h1").textContent) && d;
		}, next);
	}

	/* the frames of an SVG graph: the boxes of its <g class="fr"> paths
	 * (colour_path() in render_svg.c: M x y or m dx dy starts a row, a box
	 * is v h h w v -h from its top left corner, h gap moves to the next) */
	var STEP = /([Mmhv])(-?[\d.]+)(?: (-?[\d.]+))?/g;
	function frames(sdoc) {
		var fr = sdoc.getElementsByClassName("fr")[0], all = [], p, m, c, x, y, k;
		if (!fr) return null;
		p = fr.getElementsByTagName("path");
		for (var i = 0; i < p.length; i++) {
			for (c = [], STEP.lastIndex = 0; (m = STEP.exec(p[i].getAttribute("d") || ""));)
				c.push([m[1], +m[2], +m[3]]);
			for (x = y = k = 0; k < c.length; k++) {
				if (c[k][0] === "M" || c[k][0] === "m") {
					x = (c[k][0] === "M" ? 0 : x) + c[k][1];
					y = (c[k][0] === "M" ? 0 : y) + c[k][2];
				} else if (c[k][0] === "v" && c[k][1] > 0 && k + 2 < c.length) {
					all.push({ x: x, y: y, w: c[k + 1][1], h: c[k][1] });
					x += c[k + 1][1];
					k += 2;
				} else {
					x += c[k][1];
				}
			}
		}
		return all.length ? { fr: fr, rects: all } : null;
	}
	/* what the graph shows: its frame paths while shown, else the boxes
	 * on the page's canvas (a zoom draws there, src/render/page/draw.js), which
	 * must have something on it */
	function drawing(fr) {
		var d = fr.ownerDocument, w = d.defaultView, s = "";
		var c = d.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "canvas")[0];
		if (c && w.getComputedStyle(c.parentNode).display !== "none") {
			var px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data, ink = 0;
			for (var k = 3; k < px.length; k += 4) ink += px[k] !== 0;
			return ink ? "canvas " + JSON.stringify(c.aflameBoxes()) : "an empty canvas";
		}
		var p = fr.getElementsByTagName("path");
		for (var i = 0; i < p.length; i++) s += p[i].getAttribute("d");
		return s;
	}

	/* the first graph of the result page: sandboxed, and a click zooms it */
	function clickGraph(d, f, next) {
		var frame = d.querySelector('iframe[src="/trace/' + f.hash + '/t0.svg"]');
		if (!frame) { fail(f.name + ": first graph", "no iframe for t0.svg"); return next(); }
		check(f.name + ": graph frame is sandboxed", frame.getAttribute("sandbox") === "allow-scripts",
		      frame.getAttribute("sandbox"));
		frame.scrollIntoView();
		wait(f.name + ": graph loads", 400, function () {
			var s = frame.contentDocument;
			return s && s.readyState === "complete" && frames(s) && s;
		}, function (sdoc) {
			zoomOnce(sdoc, frame.contentWindow, f.name + ": clicking a frame zooms the graph", function () {
				check(f.name + ": the graph's only script is its own",
				      sdoc.getElementsByTagName("script").length === 1,
				      sdoc.getElementsByTagName("script").length + " scripts");
				next();
			});
		});
	}

	/* click the widest frame that is not the bottom "all" row of the graph
	 * in sdoc (window sw); the drawing must change (the graph zooms) */
	/* once the graph has unpacked its frames (data-ready: the page does it
	 * asynchronously, main.js), a click on a frame redraws it */
	function zoomOnce(sdoc, sw, name, next) {
		wait(name + " (the frames unpacked)", 400, function () {
			return sdoc.documentElement.getAttribute("data-ready") === "yes";
		}, function () { clickZoom(sdoc, sw, name, next); });
	}
	function clickZoom(sdoc, sw, name, next) {
		var g = frames(sdoc), bottom = 0, best = null, i;
		for (i = 0; i < g.rects.length; i++) bottom = Math.max(bottom, g.rects[i].y);
		for (i = 0; i < g.rects.length; i++) {
			var r = g.rects[i];
			if (r.y < bottom && r.w > 2 && (!best || r.w < best.w) && r.w < 1100) best = r;
		}
		if (!best) { fail(name, "no frame to click"); return next(); }
		var svg = sdoc.documentElement, m = svg.getScreenCTM();
		var x = m.a * (best.x + best.w / 2) + m.e, y = m.d * (best.y + best.h / 2) + m.f;
		var before = drawing(g.fr), target = sdoc.elementFromPoint(x, y);
		if (!target || !svg.contains(target)) target = g.fr;
		target.dispatchEvent(new sw.MouseEvent("click", { bubbles: true, cancelable: true, view: sw,
								clientX: x, clientY: y }));
		var after = drawing(g.fr);
		check(name, after !== before && after !== "an empty canvas",
		      after === before ? "the drawing did not change" : after);
		next();
	}

	function checkReport(d, f, next) {
		var frame = d.querySelector('iframe[src="/trace/' + f.hash + '/report.html"]');
		if (!frame) { fail(f.name + ": profile table", "no report frame"); return next(); }
		frame.scrollIntoView();
		wait(f.name + ": report loads", 400, function () {
			var r = frame.contentDocument;
			return r && r.readyState === "complete" && r.getElementById("profile") && r;
		}, function (r) {
			check(f.name + ": profile table has rows", r.getElementById("profile").tBodies[0].rows.length > 0);
			next();
		});
	}

	function checkPage(d, f) {
		var rows = d.querySelectorAll("table.list tbody tr").length, up = d.querySelector("h1 .upload");
		check(f.name + ": the result page names the uploaded file", up && up.textContent === f.name &&
		      d.title.indexOf(f.name) >= 0, up ? up.textContent : "no name in the heading");
		var first = d.querySelector("iframe, table"), graphs = d.querySelectorAll("figure.graph iframe");
		check(f.name + ": graphs before the tables", first && first.tagName === "IFRAME",
		      first ? first.tagName : "neither");
		for (var i = 0; i < graphs.length; i++) {
			var a = graphs[i].parentNode.querySelector("figcaption a");
			if (!a || a.getAttribute("href") !== graphs[i].getAttribute("src")) {
				fail(f.name + ": each graph links its SVG", "graph " + i + " has no link to its SVG");
				break;
			}
		}
		if (i === graphs.length && i > 0) pass(f.name + ": each graph links its SVG (" + i + ")");
		/* in a window narrower than a graph, its frame keeps the graph's
		 * ratio (the graph inside shrinks to its width): no blank band */
		var app = document.getElementById("app"), wide = app.width, bad = [];
		app.width = 800;
		for (i = 0; i < graphs.length; i++) {
			var r = graphs[i].getBoundingClientRect(), want = graphs[i].height / graphs[i].width;
			if (!(r.width < +graphs[i].width) || Math.abs((r.height - 2) / (r.width - 2) - want) > 0.01 * want)
				bad.push(i + ": " + Math.round(r.width) + "x" + Math.round(r.height) + " for " +
					 graphs[i].width + "x" + graphs[i].height);
		}
		app.width = wide;
		check(f.name + ": graphs keep their ratio in a narrow window", graphs.length && !bad.length, bad.join(", "));
		check(f.name + ": " + f.threads + " threads listed", rows === f.threads, rows + " rows");
		check(f.name + ": no script in the result page", d.getElementsByTagName("script").length === 0,
		      d.getElementsByTagName("script").length + " scripts");
		check(f.name + ": no element from a frame name", d.getElementsByTagName("img").length === 0 &&
		      d.getElementsByTagName("b").length === 0, "found <img> or <b>");
	}

	/* 1. drop a file on the form */
	function dropFile() {
		openForm(function (d) {
			var w = app.contentWindow, dt = new w.DataTransfer();
			var formats = d.getElementById("formats"), text = formats ? formats.textContent : "";
			check("form: names Perfetto, simpleperf and perf.data",
			      /Perfetto/.test(text) && /simpleperf/.test(text) && /perf\.data/.test(text), text);
			dt.items.add(file(w, CFG.drop));
			d.getElementById("drop").dispatchEvent(new w.DragEvent("drop",
				{ bubbles: true, cancelable: true, dataTransfer: dt }));
			check("drop: the form says it is uploading",
			      /^Uploading /.test(d.getElementById("note").textContent), d.getElementById("note").textContent);
			result(CFG.drop, function (rd) {
				pass(CFG.drop.name + ": dropped file lands on /trace/<its sha256>");
				checkPage(rd, CFG.drop);
				clickGraph(rd, CFG.drop, function () { checkReport(rd, CFG.drop, pickFile); });
			});
		});
	}

	/* 2. choose a file with the input and press Upload */
	function pickFile() {
		openForm(function (d) {
			var w = app.contentWindow, dt = new w.DataTransfer();
			dt.items.add(file(w, CFG.pick));
			d.getElementById("file").files = dt.files;
			d.getElementById("send").click();
			result(CFG.pick, function (rd) {
				pass(CFG.pick.name + ": chosen file lands on /trace/<its sha256>");
				checkPage(rd, CFG.pick);
				clickGraph(rd, CFG.pick, checkIndex);
			});
		});
	}

	/* 3. the per-thread index.html of the command line (issue 34 item 6):
	 * each graph with weight open live (an <object> whose graph zooms on a
	 * click), each SVG linked, a thread of 0 µs listed, not drawn */
	function checkIndex() {
		if (!CFG.index) return finish();
		app.src = CFG.index.url;
		wait("index: loads", 400, function () {
			var d = doc();
			return d && /\/idx\/index\.html$/.test(d.location.pathname) && d.readyState === "complete" &&
				d.querySelector("table.list") && d;
		}, function (d) {
			var rows = d.querySelectorAll("table.list tbody tr").length;
			var objs = d.querySelectorAll("figure.graph object[type='image/svg+xml']");
			check("index: " + CFG.index.threads + " threads listed", rows === CFG.index.threads, rows + " rows");
			check("index: " + CFG.index.drawn + " graphs open live", objs.length === CFG.index.drawn,
			      objs.length + " objects");
			check("index: no <img> of an interactive SVG", d.getElementsByTagName("img").length === 0,
			      d.getElementsByTagName("img").length + " images");
			var links = {}, a = d.querySelectorAll("a[href$='.svg']"), missing = [];
			for (var i = 0; i < a.length; i++) links[a[i].getAttribute("href")] = 1;
			for (i = 0; i < CFG.index.svgs.length; i++)
				if (!links[CFG.index.svgs[i]]) missing.push(CFG.index.svgs[i]);
			check("index: links each SVG (" + CFG.index.svgs.length + ")", missing.length === 0,
			      "not linked: " + missing.join(", "));
			var empty = d.evaluate("count(//td[contains(., '(nothing to draw)')])", d, null, 1, null).numberValue;
			check("index: threads of 0 µs listed, not drawn", empty === CFG.index.threads - CFG.index.drawn,
			      empty + " rows say nothing to draw");
			if (!objs.length) return finish();
			var obj = objs[0];
			obj.scrollIntoView();
			wait("index: first graph loads", 400, function () {
				var s = obj.contentDocument;
				return s && s.readyState === "complete" && frames(s) && s;
			}, function (sdoc) { zoomOnce(sdoc, obj.contentWindow, "index: clicking a frame zooms the graph", finish); });
		});
	}

	dropFile();
})();
