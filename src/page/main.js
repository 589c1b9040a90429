/* page/main.js: the graph's frames, as the URL fragment left them */

BASE = decode();
use(BASE);
showIcase();
restore();
