/* main.c: runs every unit test in test_list.h (or those named on the
 * command line) and prints PASS:/FAIL: lines for tests/run.sh. */
#include "harness.h"

int harness_failures;

static const struct { const char *name; void (*fn)(void); } tests[] = {
#define TEST(name) { #name, name },
#include "test_list.h"
#undef TEST
};

int main(int argc, char **argv)
{
	int failed = 0;
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
