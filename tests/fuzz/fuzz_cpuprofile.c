/* fuzz_cpuprofile.c: V8 .cpuprofile files (nodes + timeDeltas, and the
 * older head + timestamps). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("cpuprofile", data, size);
}
