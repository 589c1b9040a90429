'use strict';
/* tests/browser/cdp.js: one headless Chromium for many pages.
 *
 *   node cdp.js CHROMIUM PROFILE_DIR    then, one per line on stdin:
 *   OUT_FILE [@WxH] URL                  load URL in a fresh tab (a W x H
 *                                        viewport, else 1400 x 1000), wait
 *                                        until the test driver (driver.js)
 *                                        has written its results, write the
 *                                        DOM to OUT_FILE, print "done"
 *
 * What `chromium --headless --dump-dom URL` does, through the DevTools
 * protocol on a pipe (--remote-debugging-pipe: JSON messages ended by NUL
 * on file descriptors 3 and 4), so that the browser starts once, not once a
 * page: a start costs about 2 s of CPU. Each page gets its own tab; the tab
 * is closed after. */
const { spawn } = require('child_process');
const fs = require('fs');
const readline = require('readline');

const [chromium, profile] = process.argv.slice(2);
const browser = spawn(chromium, [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync',
	`--user-data-dir=${profile}`, '--window-size=1400,1000', '--remote-debugging-pipe',
	'about:blank',
], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
let closing = false;
browser.on('exit', () => process.exit(closing ? 0 : 1));

let lastId = 0, received = '';
const replies = new Map();

browser.stdio[4].setEncoding('utf8');
browser.stdio[4].on('data', (chunk) => {
	received += chunk;
	for (let end; (end = received.indexOf('\0')) >= 0;) {
		const message = JSON.parse(received.slice(0, end));
		received = received.slice(end + 1);
		dispatch(message);
	}
});

function dispatch(m) {
	const r = replies.get(m.id);   // events (no id) are not asked for
	if (!r)
		return;
	replies.delete(m.id);
	if (m.error) r.reject(new Error(`${r.method}: ${m.error.message}`));
	else r.resolve(m.result);
}

function send(method, params, sessionId) {
	const message = { id: ++lastId, method, params: params || {} };
	if (sessionId) message.sessionId = sessionId;
	browser.stdio[3].write(JSON.stringify(message) + '\0');
	return new Promise((resolve, reject) => replies.set(message.id, { method, resolve, reject }));
}

// the DOM as --dump-dom prints it
const dumpDom = '(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + "\\n" : "")' +
	' + document.documentElement.outerHTML';

// the driver (driver.js) has written its results: AFT-BEGIN ... AFT-END
const finished = '(function () { var o = document.getElementById("aft-out");' +
	' return !!o && /\\nAFT-END\\s*$/.test(o.textContent); })()';

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function evaluate(sessionId, expression) {
	const { result } = await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
	return result.value;
}

/* The page's DOM once its driver has finished, or after `seconds` (a page
 * that never finishes then shows no results, which the caller reports). */
async function load(seconds, url, width, height) {
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
	const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
	try {
		await send('Emulation.setDeviceMetricsOverride',
			{ width, height, deviceScaleFactor: 1, mobile: false }, sessionId);
		await send('Page.navigate', { url }, sessionId);
		for (const end = Date.now() + seconds * 1000; Date.now() < end; await pause(50))
			if (await evaluate(sessionId, finished).catch(() => false))
				break;
		return String(await evaluate(sessionId, dumpDom));
	} finally {
		await send('Target.closeTarget', { targetId });
	}
}

async function main() {
	const lines = readline.createInterface({ input: process.stdin });
	for await (const line of lines) {
		const [, out, w, h, url] = /^(\S+) (?:@(\d+)x(\d+) )?(.*)$/.exec(line) || [];
		let dom = '';
		try {
			dom = await load(60, url, +(w || 1400), +(h || 1000));
		} catch (e) {
			process.stderr.write(`cdp.js: ${url}: ${e.message}\n`);
		}
		fs.writeFileSync(out, dom + '\n');
		process.stdout.write('done\n');
	}
	// exit when the browser has (it writes its profile until then)
	closing = true;
	setTimeout(() => browser.kill('SIGKILL'), 10000).unref();
	await send('Browser.close').catch(() => browser.kill());
}
main();
