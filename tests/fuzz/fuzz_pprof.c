/* fuzz_pprof.c: pprof profiles (google/pprof's Profile protobuf). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("pprof", data, size);
}
