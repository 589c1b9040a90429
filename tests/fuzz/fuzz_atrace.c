/* fuzz_atrace.c: atrace/systrace captures in every container. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("atrace", data, size);
}
