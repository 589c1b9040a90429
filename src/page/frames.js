/* page/frames.js: the frames of D.f decoded into arrays indexed by frame
 * (pre-order): nm name index in D.n, dp depth, par parent (-1 for the
 * root), en one past the last frame of its subtree, st start and wd width
 * in weight units. row lists the frames of each depth in pre-order, which
 * is left-to-right order, from rowAt[depth]. */

var F = D.f, n = F.length / 4;
var nm = new Int32Array(n), dp = new Int32Array(n), par = new Int32Array(n);
var en = new Int32Array(n), st = new Float64Array(n), wd = new Float64Array(n);
var maxd = 0;
(function decode() {
	var next = [], path = [], i, j, d;
	for (i = 0; i < n; i++) {
		nm[i] = F[4 * i];
		wd[i] = F[4 * i + 2];
		d = i ? dp[i - 1] + 1 - F[4 * i + 3] : 0;
		dp[i] = d;
		if (d > maxd) maxd = d;
		st[i] = (i === 0 ? 0 : d === dp[i - 1] + 1 ? st[i - 1] : next[d]) + F[4 * i + 1];
		next[d] = st[i] + wd[i];
		if (i)
			for (j = dp[i - 1]; j >= d; j--) en[path[j]] = i;
		path[d] = i;
		par[i] = d ? path[d - 1] : -1;
	}
	for (j = dp[n - 1]; j >= 0; j--) en[path[j]] = n;
})();
var rowAt = new Int32Array(maxd + 2), row = new Int32Array(n);
(function rows() {
	var fill = new Int32Array(maxd + 1), i, d;
	for (i = 0; i < n; i++) rowAt[dp[i] + 1]++;
	for (d = 0; d <= maxd; d++) rowAt[d + 1] += rowAt[d];
	for (i = 0; i < n; i++) row[rowAt[dp[i]] + fill[dp[i]]++] = i;
})();
/* flame charts with several threads: band k is frames [B[3k], B[3k+1])
 * drawn from row B[3k+2] up; a frame's row is its depth plus ro[] */
var B = D.b || [], nb = B.length / 3, ro = new Int32Array(n), bandOf = new Int32Array(n).fill(-1);
var bandRows = [];
(function bands() {
	var i, k;
	for (k = 0; k < nb; k++) {
		bandRows[k] = 0;
		for (i = B[3 * k]; i < B[3 * k + 1]; i++) {
			ro[i] = B[3 * k + 2] - 1;
			bandOf[i] = k;
			if (dp[i] > bandRows[k]) bandRows[k] = dp[i];
		}
	}
})();
var TOTAL = wd[0];
K = TOTAL > 0 ? GW / TOTAL : 0;
mark = new Uint8Array(n);
