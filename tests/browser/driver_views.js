/* driver_views.js: the checks of the views (issue 20: menu, Back, Esc,
 * invert, sandwich, their URLs) and of sub-pixel runs (issue 19), part of
 * driver.js's closure: run.sh pastes this file into it, before its last
 * line, as it does driver_page.js. Only function declarations here (they
 * are hoisted; the dispatcher runs before this text is reached): the
 * constants PITCH and ITEM stay in driver.js.
 * This file is pasted into CDATA and into an HTML <script>: it must never
 * contain the CDATA end marker nor a closing script tag. */
	/* ---- views (issue 20) ----
	 * The driver reads a view back as folded stacks from what is drawn:
	 * each frame's name and count by hovering it, its caller from the
	 * geometry (the frame on the next row towards the root whose span holds
	 * its centre), its own weight as its count less its callees'. */
	function frames(g) {
		return g.drawn().map(function (r) {
			var d = parse(g.hover(r));
			return { r: r, name: d ? d.name : "?", n: d ? d.n : NaN, kids: [] };
		});
	}
	/* the frames of fs whose row is `step` rows from root's, outwards,
	 * as folded lines "root;...;frame self" (the root's name left out when
	 * skipRoot) */
	function foldFrom(fs, root, step, skipRoot) {
		var lines = [], todo = [{ f: root, path: skipRoot ? [] : [root.name] }];
		fs.forEach(function (f) {
			var y = f.r.y - step, cx = f.r.x + f.r.w / 2;
			fs.forEach(function (p) {
				if (near(p.r.y, y, 0.5) && cx >= p.r.x && cx <= p.r.x + p.r.w) p.kids.push(f);
			});
		});
		while (todo.length) {
			var t = todo.pop(), self = t.f.n;
			t.f.kids.forEach(function (k) {
				self -= k.n;
				todo.push({ f: k, path: t.path.concat([k.name]) });
			});
			if (self > 0 && t.path.length) lines.push(t.path.join(";") + " " + self);
		}
		return lines.sort();
	}
	/* a flame graph (root at the bottom) as folded stacks, "all" left out */
	function foldedGraph(g) {
		var fs = frames(g), root = fs.filter(function (f) { return f.name === "all"; })[0];
		if (!root) throw new Error("no frame all");
		fs.forEach(function (f) { f.kids = []; });
		return foldFrom(fs, root, -PITCH, true);
	}
	/* a sandwich: the callers (rows above the function's) and the callees
	 * (rows below), each as folded stacks starting with the function */
	function foldedSandwich(g, name) {
		var fs = frames(g), mid = fs.filter(function (f) { return f.name === name && f.r.w === 1180; });
		if (mid.length !== 1) throw new Error(mid.length + " full-width frames named " + name);
		var m = mid[0], up = fs.filter(function (f) { return f.r.y <= m.r.y; });
		var down = fs.filter(function (f) { return f.r.y >= m.r.y; });
		return { callers: foldFrom(up, m, -PITCH, false),
			 callees: (m.kids = [], foldFrom(down, m, PITCH, false)) };
	}
	/* the menu open, the pointer moving over frames: no tooltip over it */
	function menuTip(g) {
		var fs = g.drawn(), c = g.centre(fs[fs.length - 1]), mn = g.svg.getElementsByClassName("mn")[0];
		g.mouseAt("contextmenu", c[0], c[1]);
		fs.forEach(function (r) { g.over(r); });
		g.over(fs[fs.length - 1]);
		ok("menu: no tooltip while it is open", !hiddenEl(mn) && (hiddenEl(g.tt) || !overlap(g.tt, mn)),
		   "tooltip shown over the menu");
		g.press(g.svg);
	}
	function menuPick(g, name, k) {
		var c = g.centre(g.rect(name));
		g.mouseAt("contextmenu", c[0], c[1]);
		var mn = g.svg.getElementsByClassName("mn")[0];
		ok("menu opens on " + name, mn && !hiddenEl(mn), "menu hidden");
		g.press(g.svg.getElementsByClassName("mi")[k]);
		ok("menu closes", hiddenEl(mn), "menu still shown");
	}
	function fullWidth(g, name) {
		return g.drawn().some(function (r) {
			var d = r.w === 1180 && parse(g.hover(r));
			return d && d.name === name;
		});
	}
	function views(g) {
		var X = cfg.x, E = X.expect, back = g.svg.getElementsByClassName("bk")[0];
		var invBt = g.svg.getElementsByClassName("iv")[0];
		var initial = g.geometry().join("|"), H = g.svg.viewBox.baseVal.height;
		function backToStart(what) {
			g.press(back);
			eq(what + ": Back restores the graph", g.geometry().join("|") === initial, true);
			eq(what + ": Back clears the fragment", location.hash, "");
			ok(what + ": Back hidden", hiddenEl(back), "shown");
		}
		["hide", "include", "root"].forEach(function (what) {
			run(what, function () {
				ok(what + ": Back hidden at first", hiddenEl(back), "shown");
				menuPick(g, X.names[what], ITEM[what]);
				eq(what + ": same stacks as the command line", foldedGraph(g).join("\n"), E[what].join("\n"));
				ok(what + ": in the URL", /^#t=[hir]\d+$/.test(location.hash), location.hash);
				info("hash " + what + " " + location.hash);
				ok(what + ": Back shown", !hiddenEl(back), "hidden");
				ok(what + ": details line says the view", /^View: /.test(g.dt.textContent), g.dt.textContent);
				backToStart(what);
			});
		});
		run("menu and tooltip", function () { menuTip(g); });
		run("zoom in a view", function () {
			menuPick(g, X.names.root, ITEM.root);
			g.click(g.rect(X.names.root));
			ok("zoom in a view: zoomed", !hiddenEl(g.rz) && fullWidth(g, X.names.root), "not zoomed");
			ok("zoom in a view: in the URL", /^#t=r\d+&z=\d+$/.test(location.hash), location.hash);
			info("hash rootzoom " + location.hash);
			g.press(g.rz);
			backToStart("zoom in a view");
		});
		run("invert", function () {
			g.press(invBt);
			eq("invert: same stacks as the command line's reversed", foldedGraph(g).join("\n"), E.invert.join("\n"));
			eq("invert: in the URL", location.hash, "#u=1");
			info("hash invert " + location.hash);
			g.press(invBt);
			eq("invert again: the graph", g.geometry().join("|") === initial, true);
			eq("invert again: fragment", location.hash, "");
			g.press(back);
			eq("Back undoes the second toggle", location.hash, "#u=1");
			backToStart("invert");
		});
		run("sandwich", function () {
			menuPick(g, X.names.sandwich, ITEM.sandwich);
			var s = foldedSandwich(g, X.names.sandwich);
			eq("sandwich: callees as --root", s.callees.join("\n"), E.callees.join("\n"));
			eq("sandwich: callers as the stacks reversed", s.callers.join("\n"), E.callers.join("\n"));
			ok("sandwich: in the URL", /^#w=\d+$/.test(location.hash), location.hash);
			info("hash sandwich " + location.hash);
			var fc = g.svg.getElementsByClassName("fc")[0], mid = g.drawn().filter(function (r) { return r.w === 1180; });
			ok("sandwich: the function's frame outlined", fc && !hiddenEl(fc) && mid.some(function (r) {
				return near(+fc.getAttribute("y"), r.y + 0.5, 0.1) && parse(g.hover(r)).name === X.names.sandwich;
			}), fc && fc.getAttribute("y"));
			g.over(mid.filter(function (r) { return near(+fc.getAttribute("y"), r.y + 0.5, 0.1); })[0]);
			eq("sandwich: the tooltip says which", tipOf(g).pop(), "the function sandwiched");
			g.out();
			var h = g.svg.viewBox.baseVal.height, ys = g.drawn().map(function (r) { return r.y; });
			ok("sandwich: the image grew for its rows", h > H, h + " <= " + H);
			ok("sandwich: frames inside the image, above the details line",
			   Math.min.apply(null, ys) > 0 && Math.max.apply(null, ys) + PITCH < +g.dt.getAttribute("y"),
			   Math.min.apply(null, ys) + ".." + Math.max.apply(null, ys) + " dt " + g.dt.getAttribute("y"));
			eq("sandwich: hover", g.hover(g.drawn().filter(function (r) { return r.w === 1180; })[0]).replace(/ \(.*/, ""),
			   X.names.sandwich);
			backToStart("sandwich");
			eq("sandwich: image back to its size", g.svg.viewBox.baseVal.height, H);
			ok("sandwich: outline gone", hiddenEl(g.svg.getElementsByClassName("fc")[0]), "still shown");
		});
		run("sandwich from the table", function () {
			g.press(g.svg.getElementsByClassName("tb")[0]);
			var tb = table(g), r = tb.tr[rowOf(tb, X.names.sandwich)];
			g.press(r.getElementsByClassName("sw")[0]);
			ok("table: Sandwich closes it", !table(g), "still shown");
			var s = foldedSandwich(g, X.names.sandwich);
			eq("table: its sandwich's callees", s.callees.join("\n"), E.callees.join("\n"));
			eq("table: its sandwich's callers", s.callers.join("\n"), E.callers.join("\n"));
			g.press(g.svg.getElementsByClassName("tb")[0]);
			var mid = table(g).rows[rowOf(table(g), X.names.sandwich)];
			ok("table: the sandwich's function at 100%", mid && mid[4] === "100.00%", JSON.stringify(mid));
			g.press(g.svg.getElementsByClassName("tb")[0]);
			backToStart("sandwich from the table");
		});
		run("steps", function () {
			menuPick(g, X.names.hide, ITEM.hide);
			menuPick(g, X.names.include, ITEM.include);
			eq("hide then include: as the command line", foldedGraph(g).join("\n"), E.chain.join("\n"));
			ok("two steps in the URL", /^#t=h\d+\.i\d+$/.test(location.hash), location.hash);
			info("hash chain " + location.hash);
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
			eq("Esc goes back one step", foldedGraph(g).join("\n"), E.hide.join("\n"));
			g.search("^c$");
			ok("search in a view", /^Matched: [\d.]+%, \d+ frames?$/.test(g.mt.textContent), g.mt.textContent);
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
			eq("Esc clears the search first", foldedGraph(g).join("\n"), E.hide.join("\n"));
			document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
			eq("Esc again: the graph", g.geometry().join("|") === initial, true);
			var c = g.centre(g.rect("all"));
			g.mouseAt("contextmenu", c[0], c[1]);
			ok("no menu on the root", hiddenEl(g.svg.getElementsByClassName("mn")[0]), "menu shown");
		});
		checkIntact("", cfg.scripts);
	}
	/* loaded with a fragment the views run printed */
	function viewurl(g) {
		var X = cfg.x, w = X.want, E = X.expect;
		run("restored " + w, function () {
			if (w === "sandwich") {
				var s = foldedSandwich(g, X.names.sandwich);
				eq("callees", s.callees.join("\n"), E.callees.join("\n"));
				eq("callers", s.callers.join("\n"), E.callers.join("\n"));
			} else if (w === "rootzoom") {
				ok("zoom restored", !hiddenEl(g.rz) && fullWidth(g, X.names.root), "not zoomed");
			} else {
				eq("stacks", foldedGraph(g).join("\n"), E[w].join("\n"));
			}
			eq("fragment kept", location.hash, X.hash);
			ok("Back shown", !hiddenEl(g.svg.getElementsByClassName("bk")[0]), "hidden");
		});
		checkIntact("", cfg.scripts);
	}

	/* runs of sub-pixel frames (issue 19): every box drawn (the paths
	 * shown, or the canvas), in order of colour, row and x */
	function boxes(g) {
		return g.drawn().sort(function (a, b) {
			return a.fill < b.fill ? -1 : a.fill > b.fill ? 1 : a.y - b.y || a.x - b.x;
		});
	}
	/* boxes the same but for rounding to 0.1 px (the layout's widths and
	 * the page's weight * scale may round apart) */
	function sameBox(a, b) {
		return a.fill === b.fill && a.y === b.y && a.h === b.h &&
			Math.abs(a.x - b.x) < 0.11 && Math.abs(a.w - b.w) < 0.11;
	}
	/* the blended boxes drawn: in the paths of <g class="fm">, or on the
	 * canvas the boxes it says are blends */
	function blended(g, fm) {
		var c = g.canvas();
		if (c) return canvasBoxes(g, c).filter(function (r) { return r.blend; });
		var p = fm && shownIn(fm, g.svg) ? fm.getElementsByTagName("path") : [], out = [];
		for (var i = 0; i < p.length; i++) out = out.concat(rects(p[i]));
		return out;
	}
	/* boxes under a pixel wide drawn in a group's own colour (outside
	 * <g class="fm">, or not a blend on the canvas): none, lone narrow
	 * frames too are blends */
	function narrowExact(g, fm) {
		var c = g.canvas();
		if (c) return canvasBoxes(g, c).filter(function (r) { return !r.blend && r.w < 1; });
		var p = g.fr.getElementsByTagName("path"), out = [];
		for (var i = 0; i < p.length; i++)
			if (p[i].parentNode !== fm && shownIn(p[i], g.svg))
				out = out.concat(rects(p[i]).filter(function (r) { return r.w < 1; }));
		return out;
	}
	/* The file's image (the blended boxes, g.image) against the canvas of
	 * the same boxes drawn by the page at the same scale: both give a
	 * pixel its boxes' colours weighted by the area each covers and as
	 * alpha the area covered (blend.c, raster() in draw.js), so they
	 * agree but for rounding, wherever no box of a name's own colour
	 * (a path in the file) shares the pixel. Returns the pixels compared
	 * and the first few that differ. */
	function imageMatchesCanvas(g, c) {
		var im = g.image, fo = c.parentNode, fx = +fo.getAttribute("x"), fy = +fo.getAttribute("y");
		var sx = c.width / +fo.getAttribute("width"), sy = c.height / +fo.getAttribute("height");
		var cp = c.getContext("2d").getImageData(0, 0, c.width, c.height).data, W = c.width;
		var own = new Uint8Array(c.width * c.height), list = c.aflameBoxes(), bad = [], n = 0, x, y, i;
		if (sx !== 1 || sy !== 1) throw new Error("canvas at " + sx + "x" + sy + " device px a unit, not 1");
		list.forEach(function (b) {   /* pixels a box of a name's colour touches */
			if (b.blend) return;
			for (y = Math.floor(b.y - fy); y < Math.ceil(b.y + b.h - fy); y++)
				own.fill(1, y * W + Math.max(0, Math.floor(b.x - fx)), y * W + Math.min(W, Math.ceil(b.x + b.w - fx)));
		});
		for (y = 0; y < im.h; y++)
			for (x = 0; x < im.w; x++) {
				var cx = x + im.x - fx, cy = y + im.y - fy, k = 4 * (y * im.w + x), q = 4 * (cy * W + cx);
				if (cx < 0 || cy < 0 || cx >= W || cy >= c.height) {
					if (im.px[k + 3]) bad.push("image pixel " + x + "," + y + " outside the rows drawn");
					continue;
				}
				if (own[cy * W + cx]) continue;
				n++;
				/* colours read back from a canvas lose precision at low alpha (premultiplied) */
				var tol = 2 + 255 / Math.max(1, Math.min(im.px[k + 3], cp[q + 3]));
				for (i = 0; i < 4; i++)
					if (Math.abs(im.px[k + i] - cp[q + i]) > (i === 3 ? 2 : tol) && (im.px[k + 3] || cp[q + 3])) {
						bad.push("pixel " + (x + im.x) + "," + (y + im.y) + ": image " +
							 Array.prototype.slice.call(im.px, k, k + 4) + ", canvas " +
							 Array.prototype.slice.call(cp, q, q + 4));
						break;
					}
				if (bad.length > 3) return { n: n, bad: bad };
			}
		return { n: n, bad: bad };
	}
	function merged(g) {
		var fm = g.svg.getElementsByClassName("fm")[0], file = boxes(g), initial = g.geometry().join("|");
		run("paths in the file", function () {
			var p = g.fr.getElementsByTagName("path"), empty = 0;
			for (var i = 0; i < p.length; i++) if (!p[i].getAttribute("d")) empty++;
			eq("no empty path in the file", empty, 0);
			eq("no box under a pixel in a name's colour", JSON.stringify(narrowExact(g, fm).slice(0, 2)), "[]");
		});
		run("runs merged in the file", function () {
			/* the blends are one image in <g class="fm">, no path */
			ok("blends drawn as the file's image", fm && g.image && fm.getElementsByTagName("image").length === 1 &&
			   g.imageCells() > 0, "no <g class=fm> with an image that draws something");
			eq("no blend as a path", fm ? fm.getElementsByTagName("path").length : -1, 0);
		});
		run("zoom at the same scale draws the file's boxes", function () {
			/* the root's only child, all_threads, is as wide as the root */
			var rows = g.drawn().filter(function (r) { return r.w === 1180; }).map(function (r) { return r.y; });
			rows.sort(function (a, b) { return b - a; });
			g.click({ x: 10, y: rows[1], w: 1180, h: 15 });
			var now = boxes(g), mine = now.filter(function (b) { return !b.blend; }), blends = now.length - mine.length;
			var diff = mine.filter(function (b, i) { return !file[i] || !sameBox(b, file[i]); });
			ok("same boxes of a name's colour", mine.length === file.length && diff.length === 0,
			   mine.length + " vs " + file.length + " boxes; first differing: " + JSON.stringify(diff.slice(0, 2)));
			var m = imageMatchesCanvas(g, g.canvas());
			info("the file's image against the canvas: " + m.n + " pixels compared");
			ok("the file's image shows the blended boxes the page draws", m.n > 0 && m.bad.length === 0,
			   m.n + " pixels compared; " + m.bad.slice(0, 3).join("; "));
			ok("as many blends as the image has pixels a row, or up to twice", blends > 0 &&
			   blends * 2 >= g.imageCells() && blends <= 2 * g.imageCells(), blends + " blends, " + g.imageCells() + " pixels");
			if (!cfg.x.lone)
				ok("fewer boxes than frames", now.length < cfg.x.frames * 0.6, now.length + " boxes, " + cfg.x.frames + " frames");
			ok("blended boxes at most a pixel wide", blended(g, fm).every(function (r) { return r.w > 0 && r.w <= 1; }),
			   JSON.stringify(blended(g, fm).filter(function (r) { return !(r.w > 0 && r.w <= 1); }).slice(0, 2)));
			ok("zoomed", !hiddenEl(g.rz), "Reset Zoom hidden");
			eq("zoomed: no box under a pixel in a name's colour", JSON.stringify(narrowExact(g, fm).slice(0, 2)), "[]");
			ok("zoomed: the file's image hidden", !shownIn(fm.getElementsByTagName("image")[0], g.svg), "image shown");
			g.press(g.rz);
			ok("Reset Zoom restores the file's paths", g.geometry().join("|") === initial, "geometry differs");
			ok("Reset Zoom shows the file's image", shownIn(fm.getElementsByTagName("image")[0], g.svg), "image hidden");
		});
		run("zoom into a quarter: no runs left", function () {
			var q = g.drawn().filter(function (r) { return r.w > 200 && r.w < 400; })[0];
			g.click(q);
			var now = g.drawn(), narrow = now.filter(function (r) { return r.w < 1; }).length;
			/* its tail frames are two pixels wide now: none merged */
			ok("no box under a pixel", q && narrow === 0 && blended(g, fm).length === 0,
			   narrow + " narrow boxes, " + blended(g, fm).length + " blended");
			g.press(g.rz);
			ok("Reset Zoom restores the file's paths", g.geometry().join("|") === initial, "geometry differs");
		});
		checkIntact("", cfg.scripts);
	}

