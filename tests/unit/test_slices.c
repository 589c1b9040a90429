/* test_slices.c: the slice builder (read/slices.h) driven through its own
 * calls, as a reader of no text does (the Perfetto reader): B/E nesting
 * and its corner rules, marks parsed once and folded later, names from a
 * process listing against the names threads give themselves, async slices
 * with --async, and the refusal when nothing is drawn. */
#include "harness.h"
#include "read/slices.h"
#include "core/profile.h"
#include "support.h"

#include <stdlib.h>
#include <string.h>

struct built {
	struct af_profile p;
	struct af_diag d;
	struct af_read_opts o;
	struct af_slices *r;
};

static void start(struct built *b, bool async)
{
	memset(b, 0, sizeof *b);
	af_profile_init(&b->p);
	b->o.async = async;
	b->r = af_slices_new(&b->p, &b->o, &b->d);
}

/* Finish, and the graph as folded stacks (caller frees), or NULL. */
static char *finish(struct built *b, int *rc)
{
	*rc = af_slices_finish(b->r, "nothing");
	return *rc == 0 ? folded_below(&b->p.tree, AF_ROOT) : NULL;
}

static void done(struct built *b)
{
	af_slices_free(b->r);
	af_profile_release(&b->p);
}

static uint64_t warned(const struct af_profile *p, const char *prefix)
{
	const struct af_warning *w = find_warning(p, prefix);
	return w ? w->count : 0;
}

void test_slices_nesting_and_ends(void)
{
	struct built b;
	start(&b, false);
	af_slices_begin(b.r, 7, 5, 100, "outer", 5);
	af_slices_begin(b.r, 7, 5, 110, "inner", 5);
	af_slices_end(b.r, 7, 130);
	af_slices_end(b.r, 7, 150);
	af_slices_end(b.r, 7, 160);                  /* nothing open: counted */
	af_slices_begin(b.r, 7, 5, 170, "", 0);       /* no name, still a slice */
	af_slices_begin(b.r, 8, 5, 200, "open", 4);   /* never ended: closed at its thread's end */
	af_slices_end(b.r, 9, 210);                   /* another thread, nothing open */
	INT_EQ(af_slices_events(b.r), 8);
	int rc;
	char *folded = finish(&b, &rc);
	INT_EQ(rc, 0);
	STR_EQ(folded, "process-5 (5);thread-7 (7);[empty slice name] 0\n"
		       "process-5 (5);thread-7 (7);outer 30\n"
		       "process-5 (5);thread-7 (7);outer;inner 20\n"
		       "process-5 (5);thread-8 (8);open 0\n");
	INT_EQ(warned(&b.p, "slice ends (E) with no open slice"), 2);
	INT_EQ(warned(&b.p, "slices still open at the end"), 2);
	free(folded);
	done(&b);
}

void test_slices_marks_and_names(void)
{
	struct built b;
	start(&b, false);
	struct af_mark m;
	INT_EQ(af_mark_parse("B|42|draw frame\\n", 17, &m), 'B');
	INT_EQ(m.pid, 42);
	OK(m.n == 10 && memcmp(m.text, "draw frame", 10) == 0);
	INT_EQ(af_mark_parse("E", 1, &m), 'E');
	OK(m.text == NULL);
	INT_EQ(af_mark_parse("B|x|y", 5, &m), AF_MARK_BAD);
	INT_EQ(af_mark_parse("hello", 5, &m), AF_MARK_OTHER);
	/* a name given before the thread's first slice places and names it;
	 * one given after its slices went elsewhere says so */
	OK(!af_slices_name_thread(b.r, 43, 42, "RenderThread", 12));
	af_slices_name_process(b.r, 42, "com.example", 11);
	uint32_t name = af_slices_name(b.r, "draw frame", 10);
	af_slices_mark_begin(b.r, 43, 42, 1000, name);
	af_slices_end(b.r, 43, 1400);
	af_slices_mark_begin(b.r, 44, 50, 1000, name);
	af_slices_end(b.r, 44, 1100);
	OK(af_slices_name_thread(b.r, 44, 42, "late", 4));
	int rc;
	char *folded = finish(&b, &rc);
	INT_EQ(rc, 0);
	STR_EQ(folded, "com.example (42);RenderThread (43);draw frame 400\n"
		       "process-50 (50);late (44);draw frame 100\n");
	free(folded);
	done(&b);
}

void test_slices_async_and_refusal(void)
{
	struct built b;
	start(&b, true);
	struct af_ftrace_event e = { .task = "app", .task_len = 3, .tid = 9, .tgid = 9,
				     .event = "tracing_mark_write", .event_len = 18 };
	const char *marks[] = { "S|9|load|1", "S|9|load|2", "F|9|load|1", "F|9|load|2", "F|9|load|3" };
	for (size_t i = 0; i < 5; i++) {
		e.ts = 1000 + 100 * i;
		e.payload = marks[i];
		e.payload_len = strlen(marks[i]);
		af_slices_ftrace(b.r, &e);
	}
	int rc;
	char *folded = finish(&b, &rc);
	INT_EQ(rc, 0);
	STR_EQ(folded, "app (9);load 400\n");   /* 200 + 200 */
	INT_EQ(warned(&b.p, "async ends (F/H) with no matching begin"), 1);
	free(folded);
	done(&b);
	start(&b, false);   /* events, no slice: refused, saying what it saw */
	af_slices_end(b.r, 3, 10);
	folded = finish(&b, &rc);
	INT_EQ(rc, -1);
	OK(folded == NULL && strstr(b.d.msg, "no slices to draw: 1 nothing") != NULL);
	done(&b);
}
