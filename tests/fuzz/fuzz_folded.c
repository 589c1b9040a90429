/* fuzz_folded.c: folded stacks. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one(AF_FORMAT_FOLDED, data, size);
}
