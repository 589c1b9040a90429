/* devtools.h: Flutter DevTools snapshots, an envelope peeled before
 * detection (read.c). DevTools' Performance page exports
 *
 *   {"devToolsSnapshot": true, "activeScreenId": "performance",
 *    "performance": {"traceBinary": [10, 133, ...], ...}}
 *
 * where traceBinary is a Perfetto trace, byte by byte (DevTools 2.34 and
 * later; before, the page exported Chrome trace events, "traceEvents",
 * which the chrome reader reads as they are). */
#ifndef AF_DEVTOOLS_H
#define AF_DEVTOOLS_H

#include <stdbool.h>
#include "read.h"
#include "core/buf.h"

/* True for a JSON object naming "devToolsSnapshot" in its first 64 KiB. */
bool af_devtools_is_snapshot(const uint8_t *data, size_t len);
/* The snapshot's traceBinary bytes into out: 1, or 0 when it has none
 * (*has_events: whether it has "traceEvents"; screen: its activeScreenId,
 * for the message), -1 with diag set for bad JSON or a value no byte. */
int af_devtools_unwrap(const struct af_input *in, struct af_buf *out, bool *has_events, char screen[32],
		       struct af_diag *d);

#endif
