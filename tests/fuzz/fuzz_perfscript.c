/* fuzz_perfscript.c: perf script text (Linux perf, simpleperf's
 * report_sample.py). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("perf-script", data, size);
}
