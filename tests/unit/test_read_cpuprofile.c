/* test_read_cpuprofile.c: the V8 .cpuprofile reader's corner rules
 * (read_cpuprofile.c, docs/semantics.md), on profiles written here and read
 * through the reader table: nodes + samples + timeDeltas with each sample
 * weighing the time to the next (the last nothing), "(root)" not a frame
 * while "(program)", "(idle)" and "(garbage collector)" are, the older
 * head + timestamps shape, and a file cut short refused at its offset. */
#include "harness.h"
#include "support.h"

#include <stdlib.h>

static void run(struct read_result *r, const char *s)
{
	read_input(r, s, strlen(s), "t.cpuprofile", NULL, NULL);
}

/* (root) 1 -> main 2 (children as ids) -> work 3 ("parent" instead) */
#define NODES "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":-1},\"children\":[2]}," \
	"{\"id\":2,\"callFrame\":{\"functionName\":\"main\",\"url\":\"file:///a/app.js\",\"lineNumber\":4}}," \
	"{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"\",\"url\":\"lib/w.js\",\"lineNumber\":0}}],"

/* Deltas make times 1, 5, 11, 14, 21: each sample weighs the time to the
 * next (main 4 + 7, the anonymous work 3), the last (at 21) nothing; the
 * sample on (root) has no frame, so its 6 is drawn nowhere. */
void test_cpuprofile_nodes_and_deltas(void)
{
	struct read_result r;
	run(&r, NODES "\"startTime\":0,\"endTime\":30,\"samples\":[2,1,3,2,3],\"timeDeltas\":[1,4,6,3,7]}");
	INT_EQ(r.rc, 0);
	STR_EQ(r.p.format, "cpuprofile");
	STR_EQ(r.folded, "JavaScript (0);main (app.js:5) 11\n"
		"JavaScript (0);main (app.js:5);(anonymous) (w.js:1) 3\n");
	read_result_release(&r);
}

/* "(root)" is not a frame; "(program)", "(idle)" and "(garbage
 * collector)" are, as V8 names the time outside JavaScript. */
void test_cpuprofile_root_not_a_frame(void)
{
	struct read_result r;
	run(&r, "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\"},\"children\":[2,3,4]},"
		"{\"id\":2,\"callFrame\":{\"functionName\":\"(program)\",\"url\":\"\"}},"
		"{\"id\":3,\"callFrame\":{\"functionName\":\"(idle)\",\"url\":\"\"}},"
		"{\"id\":4,\"callFrame\":{\"functionName\":\"(garbage collector)\",\"url\":\"\"}}],"
		"\"startTime\":0,\"endTime\":20,\"samples\":[2,3,4,1],\"timeDeltas\":[0,1,2,4]}");
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "JavaScript (0);(garbage collector) 4\n"
		"JavaScript (0);(idle) 2\n"
		"JavaScript (0);(program) 1\n");
	read_result_release(&r);
}

/* The older shape: a nested "head" and absolute "timestamps". */
void test_cpuprofile_head_and_timestamps(void)
{
	struct read_result r;
	run(&r, "{\"head\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":0,\"id\":1,\"children\":["
		"{\"functionName\":\"f\",\"url\":\"a.js\",\"lineNumber\":3,\"id\":2,\"children\":["
		"{\"functionName\":\"g\",\"url\":\"a.js\",\"lineNumber\":9,\"id\":3,\"children\":[]}]}]},"
		"\"startTime\":1,\"endTime\":2,\"samples\":[3,2,1,2],\"timestamps\":[1000,1500,1600,1650]}");
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "JavaScript (0);f (a.js:4) 100\n"
		"JavaScript (0);f (a.js:4);g (a.js:10) 500\n");
	read_result_release(&r);
}

/* A file cut short is refused, naming the byte offset, with nothing drawn. */
void test_cpuprofile_truncated_refused(void)
{
	struct read_result r;
	const char *cut = NODES "\"samples\":[2,3";
	run(&r, cut);
	INT_EQ(r.rc, -1);
	OK(r.folded == NULL);
	char want[120];
	snprintf(want, sizeof want, "t.cpuprofile: offset 0x%zx: the file ends inside its JSON (cut short?)",
		strlen(cut));
	OK(strstr(r.error, want) != NULL);
	if (!strstr(r.error, want))
		printf("    got \"%s\"\n", r.error);
	read_result_release(&r);
}
