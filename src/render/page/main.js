/* page/main.js: the graph's frames, as the URL fragment left them.
 *
 * The picture needs none of the script: unpacking and decoding the
 * frames (D.z, D.f), and priming the canvas's drawing and the search
 * (prime() in draw.js, primeSearch() in search.js), wait until the
 * document has loaded and the browser has put the file's picture on the
 * screen: two animation frames after the load event (the first paints
 * the picture, the second starts once it is shown), then a task (at
 * 200k frames that work held the picture up: issue 34, traces in
 * docs/interactive.md, "The first paint"); or they start at once when
 * the URL has a state to restore.
 *
 * The browser unpacks D.z asynchronously (unpack.js), so an event that
 * needs the frames before they are there is queued (withFrames()) and
 * handled, in the order events came, once they are: nothing the user does
 * is lost.
 * Of the hovers queued only the latest is handled. When the frames are
 * ready the root <svg> gets data-ready="yes" and an "aflameready" event;
 * when D.z does not unpack, data-ready="no" and the details line says
 * why, and queued and later events are dropped. */

var pending = null, refused = false, hoverSeq = 0;
/* start unpacking (once); a promise of the frames decoded and in use */
function start() {
	if (pending) return pending;
	pending = unpack().then(function () {
		BASE = decode();
		use(BASE);
		prime();   /* draw.js: so that the first zoom runs compiled */
		primeSearch();   /* search.js: and the first search */
		restore();
		readyAs("yes");
	}, function (e) {
		refused = true;
		refuse("Data refused: the frames did not unpack (" + (e && e.message || e) + ")");
		readyAs("no");
	});
	return pending;
}
function readyAs(v) {
	svg.setAttribute("data-ready", v);
	svg.dispatchEvent(new Event("aflameready"));
}
/* f() now when the frames are ready, else once they are, after what was
 * queued before; nothing when they were refused. A handler's exception
 * is reported as a listener's would be, and the queue goes on. */
function withFrames(f) {
	if (BASE) return f();
	if (refused) return;
	pending = start().then(function () {
		if (!BASE) return;
		try {
			f();
		} catch (e) {
			setTimeout(function () { throw e; }, 0);
		}
	});
}
/* a hover queued: handled only if no later hover was queued by then */
function withFramesHover(f) {
	if (BASE) return f();
	var k = ++hoverSeq;
	withFrames(function () { if (k === hoverSeq) f(); });
}
/* after the document has loaded (a frame can come while a large file is
 * still being parsed, and the decode would hold the parser up), two
 * animation frames, then a task */
function later() {
	if (window.requestAnimationFrame)
		requestAnimationFrame(function () {
			requestAnimationFrame(function () { setTimeout(start, 0); });
		});
	else
		setTimeout(start, 0);
}
showIcase();
showRx();
if (top && location.hash.length > 1) start();
else if (document.readyState === "complete") later();
else window.addEventListener("load", later);
