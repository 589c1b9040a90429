/* test_names.c: frame names: Java class and signature forms, cleaning. */
#include "harness.h"
#include "core/names.h"

static void sig(const char *in, const char *want)
{
	struct af_buf b;
	af_buf_init(&b);
	af_name_append_params(&b, in, strlen(in));
	STR_EQ(b.data, want);
	af_buf_release(&b);
}

void test_names_signatures(void)
{
	sig("(Ljava/lang/String;II)V", "(String, int, int)");
	sig("([Ljava/lang/Object;)V", "(Object[])");
	sig("()V", "()");
	sig("(ZBCSJFD[[I)Ljava/lang/Object;", "(boolean, byte, char, short, long, float, double, int[][])");
	sig("(Landroid/os/Parcel$1;)V", "(Parcel$1)");
	sig("(Lbroken", "(Lbroken");           /* unparsable: kept, cleaned */
	sig("(Lx;Q)V", "(Lx:Q)V");
}

void test_names_clean(void)
{
	struct af_buf b;
	af_buf_init(&b);
	af_name_append_class(&b, "android/os/Debug", 16);
	STR_EQ(b.data, "android.os.Debug");
	b.len = 0;
	af_name_append(&b, "a;b\nc\x7f", 6);
	STR_EQ(b.data, "a:b?c?");
	b.len = 0;
	for (int i = 0; i < 5000; i++)
		af_buf_puts(&b, "\xc3\xa9");     /* 10000 bytes of 'é' */
	af_name_finish(&b, 0);
	OK(b.len <= AF_NAME_MAX);
	OK(memcmp(b.data + b.len - 3, "...", 3) == 0);
	OK(((unsigned char)b.data[b.len - 4] & 0xc0) == 0x80);   /* ends after a whole 'é' */
	OK((unsigned char)b.data[b.len - 5] == 0xc3);
	af_buf_release(&b);
}
