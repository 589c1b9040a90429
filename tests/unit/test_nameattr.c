/* test_nameattr.c: the --nameattr file: lookups, later lines and pairs
 * winning, and every way of sneaking script in refused. */
#include "harness.h"
#include "render/nameattr.h"

#include <string.h>

static int parse(struct af_nameattr *na, const char *text, struct af_diag *d)
{
	af_diag_init(d, "attrs.txt");
	return af_nameattr_parse(na, (const uint8_t *)text, strlen(text), d);
}

void test_nameattr_lookup(void)
{
	struct af_nameattr na;
	struct af_diag d;
	INT_EQ(parse(&na, "f\thref=a.html\tclass=x\tclass=y\r\n\ng\tid=1\nf\ttitle=t\t\tdata-k=v=w\n"
		       "h\txlink:href=https://e.org/?a=1\n", &d), 0);
	INT_EQ(na.n, 3);
	const struct af_nameattr_entry *f = af_nameattr_find(&na, "f", 1);
	OK(f != NULL);
	if (f) {   /* the later line of f replaced the first one */
		INT_EQ(f->nattrs, 2);
		STR_EQ(af_nameattr_get(f, "title"), "t");
		STR_EQ(af_nameattr_get(f, "data-k"), "v=w");
		OK(af_nameattr_get(f, "href") == NULL);
	}
	const struct af_nameattr_entry *h = af_nameattr_find(&na, "h", 1);
	OK(h && af_nameattr_get(h, "href") && strcmp(af_nameattr_get(h, "href"), "https://e.org/?a=1") == 0);
	OK(af_nameattr_find(&na, "ff", 2) == NULL);
	OK(af_nameattr_find(&na, "", 0) == NULL);
	af_nameattr_release(&na);

	INT_EQ(parse(&na, "f\tclass=x\tclass=y\n", &d), 0);   /* a later pair wins */
	STR_EQ(af_nameattr_get(&na.entries[0], "class"), "y");
	af_nameattr_release(&na);
}

void test_nameattr_refuses_script(void)
{
	static const char *const bad[] = {
		"f\tonclick=x()\n", "f\tOnLoad=x()\n", "f\thref=javascript:x()\n",
		"f\thref=JavaScript:x()\n", "f\thref= javascript:x()\n", "f\txlink:href=data:text/html,x\n",
		"f\thref=vbscript:x\n", "f\tg_extra=onclick=\"x()\"\n", "f\ta_extra=x\n",
		"f\txmlns:a=b\n", "f\tfoo:bar=1\n", "f\t\"x=1\n", "f\t=1\n", "f\tnoequals\n", "f\n",
		"f\thref=a.html\nnext line\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct af_nameattr na;
		struct af_diag d;
		int rc = parse(&na, bad[i], &d);
		if (rc != -1 || d.where != AF_WHERE_LINE || !d.set)
			printf("    not refused with a line: %s", bad[i]);
		INT_EQ(rc, -1);
		af_nameattr_release(&na);
	}
	struct af_nameattr na;
	struct af_diag d;
	INT_EQ(parse(&na, "a\thref=a/b:c\nb\thref=#x\nc\thref=mailto:x@y\nd\thref=HTTPS://x\n", &d), 0);
	af_nameattr_release(&na);
}
