/* fuzz_perfetto.c: Perfetto traces (slices, CPU samples, compressed packets). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("perfetto", data, size);
}
