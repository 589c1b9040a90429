/* page/main.js: the graph's frames, as the URL fragment left them.
 *
 * The picture needs none of the script: decoding the frames (D.f), and
 * priming the canvas's drawing and the search (prime() in draw.js,
 * primeSearch() in search.js), waits until the document has loaded and
 * the browser has put the file's picture on the screen: two animation
 * frames after the load event (the first paints the picture, the second
 * starts once it is shown), then a task; or it is done at once when an
 * event or a URL state needs the frames (ready()). At 200k frames that is
 * 60-95 ms of CPU (decode, priming) that ran between those two frames,
 * after one, and so held the picture up (issue 34: traces in
 * docs/interactive.md, "The first paint"). */

function ready() {
	if (BASE) return;
	BASE = decode();
	use(BASE);
	prime();   /* draw.js: so that the first zoom runs compiled */
	primeSearch();   /* search.js: and the first search */
	restore();
}
/* after the document has loaded (a frame can come while a large file is
 * still being parsed, and the decode would hold the parser up), two
 * animation frames, then a task */
function later() {
	if (window.requestAnimationFrame)
		requestAnimationFrame(function () {
			requestAnimationFrame(function () { setTimeout(ready, 0); });
		});
	else
		setTimeout(ready, 0);
}
showIcase();
showRx();
if (top && location.hash.length > 1) ready();
else if (document.readyState === "complete") later();
else window.addEventListener("load", later);
