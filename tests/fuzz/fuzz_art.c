/* fuzz_art.c: ART method traces, every variant (detected from the bytes). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("art", data, size);
}
