/* main.c: runs every unit test in test_list.h (or those named on the
 * command line) and prints PASS:/FAIL: lines for tests/run.sh. */
#include "harness.h"
#include "core/label.h"

#include <stdlib.h>

int harness_failures;

static const struct { const char *name; void (*fn)(void); } tests[] = {
#define TEST(name) { #name, name },
#include "test_list.h"
#undef TEST
};

/* --label [right]: for tests/suites/labels.sh, each line "ROOM<tab>NAME" of
 * standard input as its label (core/label.h), to compare with the page's
 * label.js on the same lines. */
static int labels(bool right)
{
	struct af_labeler lb;
	af_labeler_init(&lb, right ? AF_LABEL_RIGHT : AF_LABEL_SMART);
	char line[8192];
	while (fgets(line, sizeof line, stdin)) {
		size_t len = strcspn(line, "\n");
		char *tab = memchr(line, '\t', len);
		if (!tab)
			continue;
		unsigned long room = strtoul(line, NULL, 10);
		af_label(&lb, tab + 1, len - (size_t)(tab + 1 - line), room);
		printf("%lu\t%s\n", room, lb.text.data);
	}
	af_labeler_release(&lb);
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0;
	if (argc >= 2 && strcmp(argv[1], "--label") == 0)
		return labels(argc >= 3 && strcmp(argv[2], "right") == 0);
	for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
		bool wanted = argc < 2;
		for (int a = 1; a < argc; a++)
			wanted |= strcmp(argv[a], tests[i].name) == 0;
		if (!wanted)
			continue;
		harness_failures = 0;
		tests[i].fn();
		printf("%s: unit/%s\n", harness_failures ? "FAIL" : "PASS", tests[i].name);
		failed += harness_failures != 0;
	}
	return failed != 0;
}
