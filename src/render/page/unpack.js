/* page/unpack.js: the names and frames (D.n, D.c, D.f), unpacked from D.z
 * after the first paint (start() in main.js). render_svg.c writes them as
 * JSON of D.zn bytes, deflated in zlib's format and in base64 (pack.h):
 * the browser parses every byte of the file before the first paint, and
 * those were most of the data (1.0 MB of 1.9 at 200k frames, 0.25 MB
 * packed). The browser's own DecompressionStream inflates them
 * ("deflate" is the zlib format), so the result arrives asynchronously:
 * main.js queues what needs it. JSON.parse, not the script's compiler,
 * reads them: names stay data. */

/* a promise of D with its packed members in place; rejected (an Error
 * saying why) when D.z is not base64 of a whole zlib stream of D.zn bytes
 * of JSON, or the browser has no DecompressionStream */
function unpack() {
	if (!D.z) return Promise.resolve(D);
	return new Promise(function (done) {
		var s = atob(D.z), z = new Uint8Array(s.length), k;
		for (k = 0; k < s.length; k++) z[k] = s.charCodeAt(k);
		var ds = new DecompressionStream("deflate");
		done(new Response(new Blob([z]).stream().pipeThrough(ds)).arrayBuffer());
	}).then(function (b) {
		if (b.byteLength !== D.zn) throw new Error(b.byteLength + " bytes of " + D.zn);
		var o = JSON.parse(new TextDecoder().decode(b)), k;
		for (k in o) D[k] = o[k];
		D.z = null;
		return D;
	});
}
