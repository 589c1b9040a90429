/* fuzz_perfdata.c: perf.data recordings (simpleperf record, Linux perf). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("perf-data", data, size);
}
