/* test_palette.c: palettes, the palette map, differential colours, the
 * app-package guess, and the folded reader's flamegraph.pl features. */
#include "harness.h"
#include "support.h"
#include "core/palette.h"
#include "core/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint32_t colour(enum af_palette p, const char *name)
{
	struct af_palette_opts o = { .palette = p };
	return af_palette_colour(&o, name, strlen(name));
}

static bool greenish(uint32_t c) { return ((c >> 8) & 0xff) > (c >> 16) && ((c >> 8) & 0xff) > (c & 0xff); }
static bool reddish(uint32_t c) { return (c >> 16) > ((c >> 8) & 0xff) && (c >> 16) > (c & 0xff); }

void test_palette_kinds(void)
{
	OK(greenish(colour(AF_PAL_JAVA, "java/lang/Thread.run")));
	OK(greenish(colour(AF_PAL_JAVA, "Interpreter_[j]")));
	OK(greenish(colour(AF_PAL_JAVA, "android.os.Looper.loop")));
	OK(reddish(colour(AF_PAL_JAVA, "libc.so.6")));
	OK(reddish(colour(AF_PAL_JAVA, "memcpy")));
	uint32_t cpp = colour(AF_PAL_JAVA, "JVM::gc");   /* yellow: red = green */
	INT_EQ(cpp >> 16, (cpp >> 8) & 0xff);
	uint32_t k = colour(AF_PAL_JAVA, "sys_write_[k]");   /* orange: no blue */
	INT_EQ(k & 0xff, 0);
	INT_EQ(colour(AF_PAL_HOT, "--"), 0xa0a0a0);
	INT_EQ(colour(AF_PAL_JAVA, "-"), 0xc8c8c8);
	/* chain: the waker's frames aqua (green = blue), the rest blue */
	uint32_t w = colour(AF_PAL_CHAIN, "fn_[w]"), b = colour(AF_PAL_CHAIN, "fn");
	INT_EQ((w >> 8) & 0xff, w & 0xff);
	OK((b & 0xff) > (b >> 16));
	/* --hash: names that start alike are close */
	struct af_palette_opts h = { .palette = AF_PAL_HOT, .hash = true };
	uint32_t a1 = af_palette_colour(&h, "abcdefgh1", 9), a2 = af_palette_colour(&h, "abcdefgh2", 9);
	OK(abs((int)((a1 >> 8) & 0xff) - (int)((a2 >> 8) & 0xff)) < 8);
}

void test_palette_change_and_background(void)
{
	INT_EQ(af_palette_change(0, 100, false), 0xffffff);
	INT_EQ(af_palette_change(100, 100, false), 0xff0000);
	INT_EQ(af_palette_change(-100, 100, false), 0x0000ff);
	INT_EQ(af_palette_change(50, 100, false), 0xff6969);
	INT_EQ(af_palette_change(50, 100, true), 0x6969ff);
	uint32_t top, bottom;
	INT_EQ(af_palette_background(NULL, AF_PAL_MEM, &top, &bottom), 0);
	INT_EQ(bottom, 0xe0ffe0);
	INT_EQ(af_palette_background(NULL, AF_PAL_RED, &top, &bottom), 0);
	INT_EQ(top, 0xf8f8f8);
	INT_EQ(af_palette_background("#102030", AF_PAL_HOT, &top, &bottom), 0);
	INT_EQ(top, 0x102030);
	INT_EQ(bottom, 0x102030);
	INT_EQ(af_palette_background("pink", AF_PAL_HOT, &top, &bottom), -1);
}

static int collect(void *ctx, const void *data, size_t len)
{
	af_buf_add(ctx, data, len);
	return 0;
}

void test_palette_map_round_trip(void)
{
	char path[] = "/tmp/aflame-palette-XXXXXX";
	int fd = mkstemp(path);
	OK(fd >= 0);
	static const char text[] = "b->rgb(1,2,3)\r\noperator->->rgb(4,5,6)\n\na->rgb(7,8,9)\n";
	OK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
	close(fd);
	struct af_palette_map *m = af_palette_map_new();
	struct af_diag d;
	af_diag_init(&d, path);
	INT_EQ(af_palette_map_read(m, path, &d), 0);
	struct af_palette_opts o = { .palette = AF_PAL_HOT, .map = m };
	INT_EQ(af_palette_colour(&o, "b", 1), 0x010203);
	INT_EQ(af_palette_colour(&o, "operator->", 10), 0x040506);
	uint32_t c = af_palette_colour(&o, "new", 3);   /* computed and added */
	INT_EQ(c, colour(AF_PAL_HOT, "new"));
	struct af_buf out;
	af_buf_init(&out);
	struct af_sink s;
	af_sink_init(&s, collect, &out);
	af_palette_map_write(m, &s);
	af_sink_finish(&s);
	char want[200];
	snprintf(want, sizeof want, "a->rgb(7,8,9)\nb->rgb(1,2,3)\nnew->rgb(%u,%u,%u)\noperator->->rgb(4,5,6)\n",
		 c >> 16, c >> 8 & 255, c & 255);
	STR_EQ(out.data, want);
	af_buf_release(&out);
	af_palette_map_free(m);
	/* a line that is not one is an error with its number */
	FILE *fp = fopen(path, "w");
	fputs("a->rgb(1,2,3)\nb->red\n", fp);
	fclose(fp);
	m = af_palette_map_new();
	af_diag_init(&d, path);
	INT_EQ(af_palette_map_read(m, path, &d), -1);
	INT_EQ(d.line, 2);
	af_palette_map_free(m);
	unlink(path);
	/* a missing file is an empty map */
	m = af_palette_map_new();
	INT_EQ(af_palette_map_read(m, path, &d), 0);
	af_palette_map_free(m);
}

void test_palette_guess_app(void)
{
	struct af_tree t;
	af_tree_init(&t);
	static const char *const names[] = {
		"android.os.Looper.loop", "java.lang.Thread.run", "com.example.app.A.run",
		"com.example.app.B.go", "com.example.app.ui.C.draw", "okhttp3.internal.RealCall.execute",
		"okhttp3.internal.RealCall.enqueue", "main", "Foo.bar",
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		af_tree_intern_str(&t, names[i]);
	char *app = af_palette_guess_app(&t);
	STR_EQ(app, "com.example.app");
	free(app);
	/* a library with more methods loses to the package whose component
	 * the platform calls back (yamp-legacy: the app's Activity.onCreate
	 * calls into a CSG library of many more methods) */
	static const char *const more[] = {
		"okhttp3.internal.RealCall.a", "okhttp3.internal.RealCall.b", "okhttp3.internal.RealCall.c",
		"com.example.app.ui.MainActivity.onCreate", "android.app.Activity.performCreate",
	};
	for (size_t i = 0; i < sizeof more / sizeof *more; i++)
		af_tree_intern_str(&t, more[i]);
	app = af_palette_guess_app(&t);
	STR_EQ(app, "com.example.app");
	free(app);
	af_tree_release(&t);
	/* process roots name no method, and a one-part package is none
	 * (Perfetto's heap.pftrace guessed "com" from "com.example.app (100)") */
	af_tree_init(&t);
	static const char *const roots[] = {
		"com.example.app (100)", "com.other.app (200)", "com.example.Cache.put", "a.B.c",
	};
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
		af_tree_intern_str(&t, roots[i]);
	app = af_palette_guess_app(&t);
	STR_EQ(app, "com.example");
	free(app);
	af_tree_release(&t);
}

void test_folded_differential_and_reverse(void)
{
	static const char in[] = "a;b 1 3\na;c 5\na;b;d 2.5 0\n";
	struct read_result r;
	read_input(&r, in, sizeof in - 1, "t.folded", af_reader_folded.read, NULL);
	INT_EQ(r.rc, 0);
	struct af_tree *t = &r.p.tree;
	OK(t->before != NULL);
	INT_EQ(r.p.decimals, 1);
	uint32_t a = af_tree_child(t, AF_ROOT, af_tree_intern_str(t, "a"));
	uint32_t b = af_tree_child(t, a, af_tree_intern_str(t, "b"));
	uint32_t c = af_tree_child(t, a, af_tree_intern_str(t, "c"));
	uint32_t bd = af_tree_child(t, b, af_tree_intern_str(t, "d"));
	INT_EQ(t->nodes[b].self, 30);
	INT_EQ(af_tree_before(t, b), 10);
	INT_EQ(af_tree_before(t, c), 50);   /* one count: unchanged */
	INT_EQ(t->nodes[bd].self, 0);
	INT_EQ(af_tree_before(t, bd), 25);
	read_result_release(&r);

	static const char in2[] = "a;b;c 2\n;x;;y; 1\nw;--;v;u 3\n";
	struct af_read_opts o = { .reverse = true };
	read_input(&r, in2, sizeof in2 - 1, "t.folded", af_reader_folded.read, &o);
	STR_EQ(r.folded, "c;b;a 2\nu;v;--;w 3\ny;x 1\n");
	read_result_release(&r);
	struct af_read_opts o2 = { .mark_wakers = true };
	read_input(&r, in2, sizeof in2 - 1, "t.folded", af_reader_folded.read, &o2);
	STR_EQ(r.folded, "a;b;c 2\nw;--;v_[w];u_[w] 3\nx;y 1\n");
	read_result_release(&r);
	struct af_read_opts o3 = { .mark_wakers = true, .reverse = true };
	read_input(&r, in2, sizeof in2 - 1, "t.folded", af_reader_folded.read, &o3);
	STR_EQ(r.folded, "c;b;a 2\nu;v;--;w_[w] 3\ny;x 1\n");
	read_result_release(&r);
}

/* What the legend lists: the kinds of palettes that tell kinds apart, in
 * their order, each frame mapped to one; none for one-hue palettes. */
void test_palette_legend_kinds(void)
{
	const struct af_palette_kind *k;
	INT_EQ(af_palette_kinds(AF_PAL_HOT, &k), 0);
	INT_EQ(af_palette_kinds(AF_PAL_WAKEUP, &k), 0);
	INT_EQ(af_palette_kinds(AF_PAL_RED, &k), 0);
	INT_EQ(af_palette_kinds(AF_PAL_ANDROID, &k), 6);
	STR_EQ(k[0].label, "platform");
	STR_EQ(k[1].label, "app");
	STR_EQ(k[2].label, "third party");
	STR_EQ(k[3].label, "native");
	STR_EQ(k[4].label, "kernel");
	STR_EQ(k[5].label, "threads");
	struct af_palette_opts o = { .palette = AF_PAL_ANDROID, .app_package = "com.example.app" };
#define KIND(s) af_palette_kind(&o, s, strlen(s))
	INT_EQ(KIND("android.os.Looper.loop"), 0);
	INT_EQ(KIND("com.example.app.Main.onCreate"), 1);
	INT_EQ(KIND("com.example.application.X.y"), 2);   /* not the app's package */
	INT_EQ(KIND("okhttp3.internal.Call.run"), 2);
	INT_EQ(KIND("main"), 3);
	INT_EQ(KIND("libc.so"), 3);                  /* native, not third party */
	INT_EQ(KIND("/system/lib64/libhwui.so[+1a2b]"), 3);
	INT_EQ(KIND("art::Monitor::Wait(art::Thread*)"), 3);
	INT_EQ(KIND("do_syscall_64_[k]"), 4);         /* the kernel: its own */
	INT_EQ(KIND("[kernel.kallsyms][+ffffff93eb481f72]"), 4);
	INT_EQ(KIND("main (3142)"), 5);              /* thread and process roots */
	INT_EQ(KIND("com.example.app (101)"), 5);
	INT_EQ(KIND("all"), 5);                      /* the root: neutral too */
	INT_EQ(KIND("allocate"), 3);
	INT_EQ(KIND("--"), -1);
	INT_EQ(KIND("-"), -1);
	/* an app whose package looks like the platform's is still the app */
	o.app_package = "com.android.simpleperf.debuggable";
	INT_EQ(KIND("com.android.simpleperf.debuggable.MainActivity$1.run"), 1);
	INT_EQ(KIND("com.android.internal.os.ZygoteInit.main"), 0);
	o.app_package = "com.example.app";
	/* a kind's swatch is of the hue its frames get */
	for (size_t i = 0; i < 6; i++) {
		uint32_t s = af_palette_swatch(k[i].hue);
		OK(s != 0 && s != 0xffffff);
	}
	INT_EQ(af_palette_swatch(AF_PAL_ORANGE) & 0xff, 0);   /* orange: no blue */
	o.palette = AF_PAL_JAVA;
	INT_EQ(af_palette_kinds(AF_PAL_JAVA, &k), 5);
	INT_EQ(KIND("java/lang/Thread.run"), 0);
	INT_EQ(KIND("Interpreter_[j]"), 0);
	INT_EQ(KIND("foo_[i]"), 1);
	INT_EQ(KIND("JVM::gc"), 2);
	STR_EQ(k[2].label, "C++");
	INT_EQ(KIND("sys_write_[k]"), 3);
	INT_EQ(KIND("memcpy"), 4);
	o.palette = AF_PAL_CHAIN;
	INT_EQ(af_palette_kinds(AF_PAL_CHAIN, &k), 2);
	INT_EQ(KIND("fn"), 0);
	INT_EQ(KIND("fn_[w]"), 1);
	/* colour and kind in one pass agree with each asked alone */
	static const char *const names[] = { "fn", "fn_[w]", "--", "x.y.Z.m" };
	for (size_t i = 0; i < 4; i++) {
		int kind = 7;
		uint32_t c = af_palette_colour_kind(&o, names[i], strlen(names[i]), &kind);
		INT_EQ(c, af_palette_colour(&o, names[i], strlen(names[i])));
		INT_EQ(kind, KIND(names[i]));
	}
	o.palette = AF_PAL_HOT;
	INT_EQ(KIND("main"), -1);
	int kind = 7;
	af_palette_colour_kind(&o, "main", 4, &kind);
	INT_EQ(kind, -1);
#undef KIND
	/* the scale's stops are af_palette_change's extremes */
	uint32_t stops[4];
	af_palette_change_scale(stops);
	INT_EQ(stops[0], af_palette_change(-100, 100, false));
	INT_EQ(stops[3], af_palette_change(100, 100, false));
	INT_EQ(stops[1], 0xd2d2ff);
	INT_EQ(stops[2], 0xffd2d2);
	INT_EQ(af_palette_change(1, 1000000, false), 0xffd1d1);   /* just past the pale end */
}
