/* page/main.js: the graph as the URL fragment left it */

showIcase();
restore();
