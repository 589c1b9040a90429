/* replay.c: runs saved fuzz inputs through a target's LLVMFuzzerTestOneInput
 * as an ordinary program, so a fixed crash stays fixed (make check runs it
 * over tests/fuzz/corpus/ and tests/fuzz/crashes/ of its target). Arguments
 * are files or directories; prints one PASS line per directory or file.
 * `--sweep FILE` runs FILE damaged every way tests/lib.sh's damage_sweep
 * asks: cut at every offset and with each byte flipped (options byte 0),
 * made here in memory rather than as thousands of files on disk. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes of path, after `skip` bytes left free at the front. */
static uint8_t *slurp(const char *path, size_t skip, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		printf("FAIL: fuzz replay %s: cannot open\n", path);
		return NULL;
	}
	size_t cap = 1 << 16;
	uint8_t *buf = malloc(cap);
	*len = skip;
	for (size_t n; buf && (n = fread(buf + *len, 1, cap - *len, fp)) > 0;) {
		*len += n;
		if (*len == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(fp);
	return buf;
}

static int run_file(const char *path)
{
	size_t len;
	uint8_t *buf = slurp(path, 0, &len);
	if (!buf)
		return 1;
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

/* The first len bytes of buf in an allocation of exactly that size, so
 * that the sanitizers see a read past the input's end. */
static void run_exact(const uint8_t *buf, size_t len)
{
	uint8_t *copy = malloc(len);
	if (!copy)
		return;
	memcpy(copy, buf, len);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
}

/* Every cut (the first i bytes) and every flip (byte i ^ 0xff) of path,
 * each after an options byte of 0. */
static int run_sweep(const char *path, size_t *count)
{
	size_t len;
	uint8_t *buf = slurp(path, 1, &len);
	if (!buf)
		return 1;
	buf[0] = 0;
	for (size_t i = 1; i < len; i++) {
		run_exact(buf, i);
		buf[i] ^= 0xff;
		run_exact(buf, len);
		buf[i] ^= 0xff;
	}
	free(buf);
	*count = 2 * (len - 1);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of a directory in name order, so runs are repeatable. */
static int run_dir(const char *dir, size_t *count)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;   /* an absent directory (no crashes yet) is fine */
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp);
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		bad |= run_file(names[i]);
		free(names[i]);
	}
	free(names);
	*count += n;
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		size_t count = 0;
		if (!strcmp(argv[i], "--sweep") && i + 1 < argc)
			bad |= run_sweep(argv[++i], &count);
		else if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			bad |= run_dir(argv[i], &count);
		else if (stat(argv[i], &st) == 0)
			bad |= run_file(argv[i]), count = 1;
		printf("PASS: fuzz replay %s (%zu inputs)\n", argv[i], count);
	}
	return bad;
}
