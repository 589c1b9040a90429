/* v8frame.h: a V8 CPU profile node's frame name, shared by the .cpuprofile
 * reader and the Chrome trace reader (whose Profile, ProfileChunk and
 * CpuProfile events carry the same nodes): "function (file:line)", the
 * url's last part and the 1-based line, "(anonymous)" when V8 gives no
 * name; the tree's "(root)" is no frame. */
#ifndef AF_V8FRAME_H
#define AF_V8FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "core/buf.h"
#include "core/tree.h"

/* The frame name of (fn, url, line) interned in t (scratch: a buffer to
 * build it in); line is V8's 0-based number, negative for none. */
uint32_t af_v8_frame(struct af_tree *t, struct af_buf *scratch, const char *fn, size_t fn_len,
		     const char *url, size_t url_len, int64_t line);
/* True for the profile tree's root node ("(root)" without a url). */
bool af_v8_is_root(const char *fn, size_t fn_len, size_t url_len);

#endif
