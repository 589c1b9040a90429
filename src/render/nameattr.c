/* nameattr.c: flamegraph.pl's --nameattr file (see nameattr.h). The file
 * is copied once and cut in place into NUL-terminated names, keys and
 * values; entries and each line's attributes are sorted, so a lookup is a
 * binary search and a hostile file costs n log n, whatever it repeats. */
#include "nameattr.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Links that cannot run anything: relative ones (no scheme before the first
 * '/', '?' or '#') and these schemes. An allow-list, so "javascript:",
 * " javascript:" and "data:" are refused however they are spelt. */
static bool safe_link(const char *v)
{
	static const char *const schemes[] = { "http", "https", "mailto", "ftp", "file" };
	size_t n = strcspn(v, ":/?#");
	if (v[n] != ':')
		return true;
	for (size_t i = 0; i < sizeof schemes / sizeof *schemes; i++)
		if (strlen(schemes[i]) == n && strncasecmp(v, schemes[i], n) == 0)
			return true;
	return false;
}

/* Why key cannot be an attribute of ours, or NULL if it can. */
static const char *refused_key(const char *key)
{
	if (!*key)
		return "an empty attribute name";
	if (strcmp(key, "g_extra") == 0 || strcmp(key, "a_extra") == 0)
		return "raw markup (g_extra, a_extra) is not supported";
	if (strncasecmp(key, "on", 2) == 0)
		return "event handler attributes are refused: nothing from the file runs as script";
	if (strncasecmp(key, "xmlns", 5) == 0)
		return "namespace declarations are refused";
	if (!((*key >= 'a' && *key <= 'z') || (*key >= 'A' && *key <= 'Z') || *key == '_'))
		return "not an attribute name";
	for (const char *s = key; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-' || *s == '.'))
			return "not an attribute name (letters, digits, '_', '-', '.')";
	return NULL;
}

static int by_key(const void *a, const void *b)
{
	const struct af_attr *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : x < y ? -1 : x > y;   /* equal keys: in file order */
}

/* The line's attributes sorted by key, a later one of a key winning. */
static size_t unique_keys(struct af_attr *a, size_t n)
{
	qsort(a, n, sizeof *a, by_key);
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && strcmp(a[i].key, a[i + 1].key) == 0)
			continue;
		a[out++] = a[i];
	}
	return out;
}

/* One "name\tk=v\tk=v" line, already NUL-terminated, into e and attrs. */
static int parse_line(char *s, size_t line, struct af_nameattr_entry *e, struct af_attr *attrs,
		      struct af_diag *d)
{
	char *tab = strchr(s, '\t');
	if (!tab)
		return af_diag_line(d, line, 0, "expected 'name<TAB>attribute=value...'");
	*tab = 0;
	size_t n = 0;
	for (char *field = tab + 1; field; ) {
		char *next = strchr(field, '\t');
		if (next)
			*next++ = 0;
		if (*field) {   /* empty fields are nothing, as in flamegraph.pl */
			char *eq = strchr(field, '=');
			if (!eq)
				return af_diag_line(d, line, 0, "attribute without '=value'");
			*eq = 0;
			const char *key = strcmp(field, "xlink:href") == 0 ? "href" : field;
			const char *why = refused_key(key);
			if (why)
				return af_diag_line(d, line, 0, "%s", why);
			if (strcmp(key, "href") == 0 && !safe_link(eq + 1))
				return af_diag_line(d, line, 0, "links may be http(s), mailto, ftp, file "
						    "or relative, nothing that runs script");
			attrs[n++] = (struct af_attr){ .key = key, .value = eq + 1 };
		}
		field = next;
	}
	*e = (struct af_nameattr_entry){
		.name = s, .name_len = (size_t)(tab - s), .attrs = attrs,
		.nattrs = unique_keys(attrs, n), .line = line,
	};
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct af_nameattr_entry *x = a, *y = b;
	size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c = memcmp(x->name, y->name, n);
	if (c)
		return c;
	if (x->name_len != y->name_len)
		return x->name_len < y->name_len ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int af_nameattr_parse(struct af_nameattr *na, const uint8_t *data, size_t len, struct af_diag *d)
{
	memset(na, 0, sizeof *na);
	na->text = af_xmalloc(len + 1);
	memcpy(na->text, data, len);
	na->text[len] = 0;
	size_t lines = 1, tabs = 0;
	for (size_t i = 0; i < len; i++) {
		lines += data[i] == '\n';
		tabs += data[i] == '\t';
	}
	na->entries = af_xcalloc(lines, sizeof *na->entries);
	na->attrs = af_xcalloc(tabs ? tabs : 1, sizeof *na->attrs);
	size_t used = 0, line = 0;
	for (char *s = na->text; s && s < na->text + len; ) {
		char *nl = memchr(s, '\n', (size_t)(na->text + len - s));
		size_t n = (size_t)((nl ? nl : na->text + len) - s);
		line++;
		while (n && s[n - 1] == '\r')
			n--;
		s[n] = 0;
		if (memchr(s, 0, n))
			return af_diag_line(d, line, 0, "a NUL byte");
		if (n) {
			struct af_nameattr_entry *e = &na->entries[na->n];
			if (parse_line(s, line, e, na->attrs + used, d) < 0)
				return -1;
			used += e->nattrs;
			na->n++;
		}
		s = nl ? nl + 1 : NULL;
	}
	qsort(na->entries, na->n, sizeof *na->entries, by_name);
	size_t out = 0;   /* a later line of a name replaces it, as in flamegraph.pl */
	for (size_t i = 0; i < na->n; i++) {
		if (i + 1 < na->n && na->entries[i].name_len == na->entries[i + 1].name_len &&
		    memcmp(na->entries[i].name, na->entries[i + 1].name, na->entries[i].name_len) == 0)
			continue;
		na->entries[out++] = na->entries[i];
	}
	na->n = out;
	return 0;
}

const struct af_nameattr_entry *af_nameattr_find(const struct af_nameattr *na,
						 const char *name, size_t len)
{
	size_t lo = 0, hi = na ? na->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct af_nameattr_entry *e = &na->entries[mid];
		size_t n = e->name_len < len ? e->name_len : len;
		int c = memcmp(e->name, name, n);
		if (!c && e->name_len != len)
			c = e->name_len < len ? -1 : 1;
		if (!c)
			return e;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *af_nameattr_get(const struct af_nameattr_entry *e, const char *key)
{
	for (size_t i = 0; i < e->nattrs; i++)
		if (strcmp(e->attrs[i].key, key) == 0)
			return e->attrs[i].value;
	return NULL;
}

void af_nameattr_release(struct af_nameattr *na)
{
	free(na->entries);
	free(na->attrs);
	free(na->text);
	memset(na, 0, sizeof *na);
}
