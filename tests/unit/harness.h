/* harness.h: a tiny unit-test harness. A check that fails prints file:line
 * with what it got and what it expected, and the test goes on; each test
 * is reported once as PASS or FAIL. Tests are listed in test_list.h. */
#ifndef AF_HARNESS_H
#define AF_HARNESS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

extern int harness_failures;   /* failed checks in the current test */

#define TEST(name) void name(void);
#include "test_list.h"
#undef TEST

#define OK(cond) do { \
	if (!(cond)) { \
		printf("    %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
		harness_failures++; \
	} \
} while (0)

#define INT_EQ(got, want) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (g_ != w_) { \
		printf("    %s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #got, g_, w_); \
		harness_failures++; \
	} \
} while (0)

#define STR_EQ(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	if (!g_ || strcmp(g_, w_) != 0) { \
		printf("    %s:%d: %s is\n\"%s\"\n    expected\n\"%s\"\n", __FILE__, __LINE__, #got, g_ ? g_ : "(null)", w_); \
		harness_failures++; \
	} \
} while (0)

#endif
