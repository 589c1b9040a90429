/* page/main.js: the graph's frames, as the URL fragment left them.
 *
 * The picture needs none of the script: decoding the frames (D.f) is
 * deferred until the browser has painted it (a frame, then a task), or
 * done at once when an event or a URL state needs them (ready()). At 200k
 * frames that is 65-115 ms of CPU the first paint no longer waits for. */

function ready() {
	if (BASE) return;
	BASE = decode();
	use(BASE);
	prime();
	restore();
}
showIcase();
if (top && location.hash.length > 1) ready();
else if (window.requestAnimationFrame) requestAnimationFrame(function () { setTimeout(ready, 0); });
else setTimeout(ready, 0);
