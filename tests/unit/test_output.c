/* test_output.c: an output reports into its caller's diag, naming itself,
 * and the first error there wins; a file appears whole or not at all, and
 * replaces a file as rename does. */
#include "core/output.h"
#include "harness.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void fill(struct af_sink *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		af_sink_puts(s, "0123456789abcdef");
}

/* A directory of its own under $TMPDIR or /tmp; "" if none could be made. */
static void scratch(char *dir, size_t n)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, n, "%s/af-output-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		dir[0] = 0;
}

void test_output_errors_name_the_output(void)
{
	struct af_diag d;
	af_diag_init(&d, "in.trace");
	struct af_output out;
	INT_EQ(af_output_open(&out, "/nonexistent-dir/x.svg", &d), -1);
	OK(d.set);
	char line[512];
	af_diag_format(&d, line, sizeof line);
	STR_EQ(line, "/nonexistent-dir/x.svg: cannot create output: No such file or directory");

	af_diag_init(&d, "in.trace");   /* the name a service shows */
	INT_EQ(af_output_open_as(&out, "/nonexistent-dir/t0.svg", "t0.svg", &d), -1);
	af_diag_format(&d, line, sizeof line);
	STR_EQ(line, "t0.svg: cannot create output: No such file or directory");
}

void test_output_first_error_wins(void)
{
	/* a render error recorded first is kept when the output then fails */
	struct af_diag d;
	af_diag_init(&d, "in.trace");
	af_diag_error(&d, "nothing to draw");
	struct af_output out;
	INT_EQ(af_output_open(&out, "/nonexistent-dir/x.svg", &d), -1);
	char line[512];
	af_diag_format(&d, line, sizeof line);
	STR_EQ(line, "in.trace: nothing to draw");

	/* a writer that gave up because the device is full: the abort names it */
	af_diag_init(&d, "in.trace");
	if (af_output_open(&out, "/dev/full", &d) == 0) {
		fill(&out.sink, 8192);   /* 128 KiB, past the sink's block */
		INT_EQ(af_output_close(&out, -1), -1);
		af_diag_format(&d, line, sizeof line);
		STR_EQ(line, "/dev/full: cannot write output: No space left on device");
	}
}

void test_output_whole_or_nothing(void)
{
	char dir[4096], path[4200];
	scratch(dir, sizeof dir);
	if (!dir[0])
		return;
	snprintf(path, sizeof path, "%s/out.txt", dir);
	struct af_diag d;
	af_diag_init(&d, "in");
	struct af_output out;
	INT_EQ(af_output_open(&out, path, &d), 0);
	fill(&out.sink, 10);
	INT_EQ(af_output_close(&out, -1), -1);   /* the render failed */
	OK(!d.set);                              /* nothing of the output's own */
	OK(access(path, F_OK) != 0);
	INT_EQ(af_output_open(&out, path, &d), 0);
	fill(&out.sink, 10);
	INT_EQ(af_output_close(&out, 0), 0);
	struct stat st;
	OK(stat(path, &st) == 0 && st.st_size == 160);
	OK(!d.set);
	unlink(path);
	OK(rmdir(dir) == 0);                     /* no temporary file left */
}

/* A file written over another replaces it as rename does (it is
 * exchanged with the temporary file, which is then removed): the new
 * bytes, the old mode, a hard link to the old file keeps the old bytes,
 * no temporary file left; over a directory, refused. */
void test_output_replaces_a_file(void)
{
	char dir[4096], path[4200], link_path[4200];
	scratch(dir, sizeof dir);
	if (!dir[0])
		return;
	snprintf(path, sizeof path, "%s/out.txt", dir);
	snprintf(link_path, sizeof link_path, "%s/old.txt", dir);
	FILE *fp = fopen(path, "w");
	fputs("old", fp);
	fclose(fp);
	chmod(path, 0640);
	OK(link(path, link_path) == 0);
	struct af_diag d;
	af_diag_init(&d, "in");
	struct af_output out;
	INT_EQ(af_output_open(&out, path, &d), 0);
	fill(&out.sink, 10);
	INT_EQ(af_output_close(&out, 0), 0);
	struct stat st, old;
	OK(stat(path, &st) == 0 && st.st_size == 160 && (st.st_mode & 07777) == 0640);
	OK(stat(link_path, &old) == 0 && old.st_size == 3 && old.st_ino != st.st_ino);
	unlink(path);
	unlink(link_path);
	OK(mkdir(path, 0700) == 0);
	OK(af_output_open(&out, path, &d) < 0);   /* a directory: refused at the open */
	rmdir(path);
	OK(rmdir(dir) == 0);                     /* no temporary file left */
}
