/* scan.h: byte scanning for the text readers (atrace's ftrace lines, the
 * trace marks the slice builder reads): a bounded memmem, digits read 8 at
 * a time, spaces skipped. Every function stops at `end`; none allocates. */
#ifndef AF_SCAN_H
#define AF_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

/* memmem() without _GNU_SOURCE: first occurrence of needle, or NULL. */
static inline const char *af_scan_find(const char *hay, size_t n, const char *needle, size_t k)
{
	if (k == 0 || n < k)
		return k == 0 ? hay : NULL;
	const char *end = hay + n - k + 1;
	for (const char *p = hay; p < end; p++) {
		p = memchr(p, needle[0], (size_t)(end - p));
		if (!p)
			return NULL;
		if (memcmp(p, needle, k) == 0)
			return p;
	}
	return NULL;
}

static inline bool af_scan_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits at *p (at most 19, so no overflow); false if none. Fewer than 8
 * digits with 8 bytes to read (pids, tids, seconds) are read 8 bytes at a
 * time; the rest a digit at a time. */
static inline bool af_scan_digits(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p, *q = s, *stop = end - s > 19 ? s + 19 : end;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - s >= 8) {
		uint64_t w, ones = 0x0101010101010101ull, hi = 0xf0 * ones;
		memcpy(&w, s, sizeof w);
		/* a byte is a digit when it and it + 6 are both 0x3_ (a carry
		 * out of a byte past 0xf9 only touches bytes after a non-digit) */
		uint64_t other = ((w & hi) ^ 0x30 * ones) | (((w + 6 * ones) & hi) ^ 0x30 * ones);
		if (other) {
			unsigned n = (unsigned)__builtin_ctzll(other) / 8;   /* digits before the first other byte */
			if (n == 0) {
				*v = 0;
				return false;
			}
			uint64_t d = (w & 0x0f * ones) << (8 * (8 - n));   /* leading zeros, first digit highest */
			d = (d * 10 + (d >> 8)) & 0x00ff00ff00ff00ffull;
			d = (d * 100 + (d >> 16)) & 0x0000ffff0000ffffull;
			d = (d * 10000 + (d >> 32)) & 0xffffffffull;
			*p = s + n;
			*v = d;
			return true;
		}
	}
#endif
	uint64_t x = 0;
	for (unsigned d; q < stop && (d = (unsigned)(unsigned char)*q - '0') < 10; q++)
		x = x * 10 + d;
	*p = q;
	*v = x;
	return q > s && (q == end || !af_scan_is_digit(*q));
}

static inline const char *af_scan_spaces(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

#endif
