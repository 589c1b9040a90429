/* fuzz_simpleperf.c: simpleperf report-sample profiles (Android Studio's
 * Callstack Sample recordings). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("simpleperf", data, size);
}
