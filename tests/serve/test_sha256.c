/* test_sha256.c: src/sha256.c against the FIPS 180-4 example vectors (NIST
 * CSRC "SHA256.pdf", "SHA2_Additional.pdf") fed whole and in every split,
 * plus padding edges. With file arguments: prints "<hex>  <file>" for each
 * like sha256sum, feeding odd-sized pieces, so tests/suites/serve.sh can
 * compare with coreutils over many lengths. Prints PASS:/FAIL: lines. */
#include "serve/sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void hex_of(const void *data, size_t len, size_t step, char out[AF_SHA256_HEX + 1])
{
	struct af_sha256 c;
	af_sha256_init(&c);
	const unsigned char *p = data;
	for (size_t off = 0; off < len;) {
		size_t n = step && step < len - off ? step : len - off;
		af_sha256_update(&c, p + off, n);
		off += n;
	}
	af_sha256_final_hex(&c, out);
}

static void vector(const char *name, const void *data, size_t len, const char *want)
{
	char got[AF_SHA256_HEX + 1];
	size_t steps[] = { 0, 1, 3, 55, 56, 63, 64, 65, 1000 };
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
		hex_of(data, len, steps[i], got);
		if (strcmp(got, want) != 0) {
			printf("FAIL: sha256/%s (pieces of %zu): got %s, expected %s\n", name, steps[i], got, want);
			failures++;
			return;
		}
	}
	printf("PASS: sha256/%s\n", name);
}

static int hash_files(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		struct af_sha256 c;
		af_sha256_init(&c);
		size_t n, k = 0;
		while ((n = fread(buf, 1, 1 + (k++ * 37) % sizeof buf, f)) > 0)
			af_sha256_update(&c, buf, n);
		fclose(f);
		char hex[AF_SHA256_HEX + 1];
		af_sha256_final_hex(&c, hex);
		printf("%s  %s\n", hex, argv[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return hash_files(argc, argv);
	vector("empty", "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	vector("abc", "abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	vector("448-bit", m448, strlen(m448),
	       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
			   "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	vector("896-bit", m896, strlen(m896),
	       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	unsigned char *a = malloc(1000000);
	memset(a, 'a', 1000000);
	vector("million-a", a, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* SHA2_Additional.pdf: 55 and 56 zero bytes straddle the length field */
	memset(a, 0, 1000);
	vector("55-zeros", a, 55, "02779466cdec163811d078815c633f21901413081449002f24aa3e80f0b88ef7");
	vector("56-zeros", a, 56, "d4817aa5497628e7c77e6b606107042bbba3130888c5f47a375e6179be789fbb");
	vector("1000-zeros", a, 1000, "541b3e9daa09b20bf85fa273e5cbd3e80185aa4ec298e765db87742b70138a53");
	free(a);
	return failures != 0;
}
