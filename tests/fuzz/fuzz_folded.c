/* fuzz_folded.c: folded stacks. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("folded", data, size);
}
