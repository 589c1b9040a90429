/* escape.h: untrusted text (frame, thread and file names from a trace)
 * written for where it lands. One UTF-8 decoder repairs every string the
 * same way: a byte that does not start a valid, shortest-form sequence is
 * U+FFFD, and so are C0 and C1 controls, DEL and U+FFFE/U+FFFF, which XML
 * cannot carry; so every XML, HTML and JSON output parses, and a tooltip
 * shows what its label shows. The writers go onto an af_sink. */
#ifndef AF_ESCAPE_H
#define AF_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

/* Decode one code point of s[0..len) (len >= 1) as described above.
 * Returns the bytes used (1 for a repaired byte); *cp is the code point. */
size_t af_utf8_next(const unsigned char *s, size_t len, uint32_t *cp);
/* Code points in s as the writers will write them. */
size_t af_utf8_count(const char *s, size_t len);
/* cp as UTF-8 in out; returns its length (1..4). */
size_t af_utf8_encode(uint32_t cp, char out[4]);
void af_put_utf8(struct af_sink *out, uint32_t cp);
/* A repaired copy of s (for cairo and pango); caller frees with free(). */
char *af_utf8_clean(const char *s, size_t len);

/* XML or HTML character data or attribute value: & < > " ' as entities.
 * _n writes at most max_cp code points. */
void af_escape_xml(struct af_sink *out, const char *s);
void af_escape_xml_n(struct af_sink *out, const char *s, size_t len, size_t max_cp);
/* A JSON string with its quotes, also safe inside <script> and CDATA:
 * < > & and U+2028/U+2029 as \u escapes. */
void af_escape_json(struct af_sink *out, const char *s, size_t len);
/* A CSS string for a font family: all but letters, digits, space, '-' and
 * '_' as CSS hex escapes. */
void af_escape_css(struct af_sink *out, const char *s);
/* A CSV cell (RFC 4180), quoted when needed; one that starts like a formula
 * gets a leading apostrophe. */
void af_escape_csv(struct af_sink *out, const char *s, size_t len);
/* Text for a terminal: control characters, bad bytes and bidi controls as
 * visible \x or \u escapes (no ESC or OSC sequence gets through), a
 * backslash doubled. */
void af_escape_term(struct af_sink *out, const char *s, size_t len);
/* The same into a new string; caller frees with free(). */
char *af_escape_term_dup(const char *s);

#endif
