/* fuzz_chrome.c: Chrome trace-event JSON (slices, samples + stackFrames,
 * async events, metadata). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_one("chrome", data, size);
}
