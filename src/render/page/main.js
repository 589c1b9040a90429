/* page/main.js: the graph's frames, as the URL fragment left them.
 *
 * The picture needs none of the script: decoding the frames (D.f), and
 * priming the canvas's drawing (prime() in draw.js), is deferred until the
 * document has loaded and the browser has painted it (a frame, then a
 * task), or done at once when an event or a URL state needs them
 * (ready()). At 200k frames that is 65-115 ms of CPU for the decode and
 * about as much for the priming that the first paint no longer waits for. */

function ready() {
	if (BASE) return;
	BASE = decode();
	use(BASE);
	prime();   /* draw.js: so that the first zoom runs compiled */
	primeSearch();   /* search.js: and the first search */
	restore();
}
/* after the document has loaded (a frame can come while a large file is
 * still being parsed, and the decode would hold the parser up), a frame,
 * then a task */
function later() {
	if (window.requestAnimationFrame) requestAnimationFrame(function () { setTimeout(ready, 0); });
	else setTimeout(ready, 0);
}
showIcase();
showRx();
if (top && location.hash.length > 1) ready();
else if (document.readyState === "complete") later();
else window.addEventListener("load", later);
