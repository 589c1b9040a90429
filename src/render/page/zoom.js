/* page/zoom.js: zoom into frame z (0 or out of range: the whole graph) */

function zoom(z) {
	if (!(z >= 0 && z < n)) z = 0;
	Z = z;
	K = GW / wd[z];
	unhover();
	draw();
	rz.classList.toggle("h", z === 0);
	if (ax) ax.classList.toggle("h", z !== 0);   /* its times are the whole chart's */
	if (re) matched();
	save();
}
