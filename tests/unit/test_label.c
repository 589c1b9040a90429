/* test_label.c: frame labels (core/label.h): the examples of each
 * cut, flamegraph.pl's right cut, and the ink's contrast on every palette. */
#include "harness.h"
#include "core/label.h"
#include "core/palette.h"

#include <stdio.h>
#include <string.h>

#define E "\xe2\x80\xa6"   /* the ellipsis */

static const char *lab(struct af_labeler *lb, const char *name, size_t room)
{
	af_label(lb, name, strlen(name), room);
	return lb->text.data;
}

void test_label_keeps_the_method(void)
{
	struct af_labeler lb;
	af_labeler_init(&lb, AF_LABEL_SMART);
	const char *java = "com.github.grishberg.cad3d.util.SceneBuilderKeyboard.createAndAdd";
	STR_EQ(lab(&lb, java, 100), java);
	STR_EQ(lab(&lb, java, 33), "SceneBuilderKeyboard.createAndAdd");
	STR_EQ(lab(&lb, java, 22), E "Keyboard.createAndAdd");
	STR_EQ(lab(&lb, java, 13), E "createAndAdd");
	/* no separator right after the ellipsis: the room of ".createAndAdd" */
	STR_EQ(lab(&lb, java, 14), E "createAndAdd");
	STR_EQ(lab(&lb, "a::b::Scene::createAndAdd", 14), E "createAndAdd");
	STR_EQ(lab(&lb, "eu.printingin3d.javascad.vrl.Node.clipTo", 8), E "clipTo");
	STR_EQ(lab(&lb, "Lcom/foo/bar/Baz;.method", 12), "Baz;.method");
	STR_EQ(lab(&lb, "android.os.Debug.startMethodTracing(String, int, int)", 40),
	       "android.os.Debug.startMethodTracing(" E ")");
	STR_EQ(lab(&lb, "com.foo.Bar.<init>", 10), "Bar.<init>");
	/* C++: parameters, then template arguments, then namespaces */
	const char *cpp = "std::vector<int, std::allocator<int> >::push_back(int const&)";
	STR_EQ(lab(&lb, cpp, 52), "std::vector<int, std::allocator<int> >::push_back(" E ")");
	STR_EQ(lab(&lb, cpp, 30), "std::vector<" E ">::push_back(" E ")");
	STR_EQ(lab(&lb, cpp, 24), "vector<" E ">::push_back(" E ")");
	STR_EQ(lab(&lb, cpp, 12), E "ush_back(" E ")");
	/* files: the directories go, then the offset; the name stays */
	STR_EQ(lab(&lb, "/system/lib64/libart.so+0x1234abcd", 20), "libart.so+0x1234abcd");
	STR_EQ(lab(&lb, "/system/lib64/libart.so+0x1234abcd", 14), "libart.so+0x" E "");
	STR_EQ(lab(&lb, "/data/app/lib/arm64/libnative.so[+1a2b]", 17), "libnative.so[+" E "]");
	/* plain names and thread roots: the middle */
	STR_EQ(lab(&lb, "FinalizerWatchdogDaemon (3151)", 9), "Fina" E "" "151)");
	STR_EQ(lab(&lb, "a < b c d e f g", 6), "a " E "" "f g");
	af_labeler_release(&lb);
}

void test_label_right_cut(void)
{
	struct af_labeler lb;
	af_labeler_init(&lb, AF_LABEL_RIGHT);
	STR_EQ(lab(&lb, "com.foo.Bar.baz", 8), "com.fo..");
	STR_EQ(lab(&lb, "com.foo.Bar.baz", 15), "com.foo.Bar.baz");
	STR_EQ(lab(&lb, "\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc", 3), "\xc3\xbc..");
	af_labeler_release(&lb);
}

/* every label readable: WCAG 4.5:1 on every colour a frame can have */
void test_label_ink_contrast(void)
{
	char name[32];
	double worst = 21;
	for (int p = 0; p < AF_PAL_COUNT; p++) {
		struct af_palette_opts o = { .palette = (enum af_palette)p, .app_package = "com.example" };
		for (unsigned i = 0; i < 4000; i++) {
			static const char *const stems[] = { "com.example.A", "android.view.V", "java.lang.S",
				"libc.so", "sys_write_[k]", "Interpreter_[j]", "JVM::gc", "main", "x.js" };
			snprintf(name, sizeof name, "%s%u", stems[i % 9], i * 2654435761u % 9973);
			uint32_t c = af_palette_colour(&o, name, strlen(name));
			double r = af_contrast(c, af_label_ink(c));
			worst = r < worst ? r : worst;
		}
	}
	for (int64_t d = -1000; d <= 1000; d += 7) {
		uint32_t c = af_palette_change(d, 1000, false);
		double r = af_contrast(c, af_label_ink(c));
		worst = r < worst ? r : worst;
	}
	OK(worst >= 4.5);
	/* and on any colour at all */
	for (uint32_t c = 0; c < 0x1000000; c += 0x010307) {
		double r = af_contrast(c, af_label_ink(c));
		worst = r < worst ? r : worst;
	}
	OK(worst >= 4.5);
	INT_EQ(af_label_ink(0x0000ff), 0xffffff);
	INT_EQ(af_label_ink(0xffff00), 0x000000);
	OK(af_contrast(0, 0xffffff) > 20.99);
}
