/* test_ranges.c: address range sets against a byte-by-byte model, copies,
 * and depth under hostile insertion orders. */
#include "harness.h"
#include "read/ranges.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

enum { SPACE = 256 };
struct cell { uint32_t value; uint64_t off; };   /* value AF_NONE: unmapped */

static void model_insert(struct cell *m, uint64_t start, uint64_t end, uint64_t pgoff, uint32_t value)
{
	for (uint64_t a = start; a < end; a++)
		m[a] = (struct cell){ value, pgoff + (a - start) };
}

/* Every address maps as the model says, with the file offset a split kept. */
static int agrees(const struct af_ranges *rs, uint32_t root, const struct cell *m)
{
	int bad = 0;
	for (uint64_t a = 0; a < SPACE; a++) {
		const struct af_range *r = af_ranges_find(rs, root, a);
		if (m[a].value == AF_NONE)
			bad += r != NULL;
		else
			bad += !r || r->value != m[a].value || r->pgoff + (a - r->start) != m[a].off;
	}
	return bad;
}

static unsigned depth(const struct af_ranges *rs, uint32_t root)
{
	uint32_t *stack = NULL, *level = NULL;
	size_t cap = 0, cap2 = 0, sp = 0;
	unsigned deepest = 0;
	if (root == AF_NONE)
		return 0;
	af_grow(&stack, &cap, 1, sizeof *stack);
	af_grow(&level, &cap2, 1, sizeof *level);
	stack[sp] = root;
	level[sp++] = 1;
	while (sp > 0) {
		uint32_t t = stack[--sp], d = level[sp];
		deepest = d > deepest ? d : deepest;
		uint32_t kids[2] = { rs->r[t].left, rs->r[t].right };
		for (int i = 0; i < 2; i++) {
			if (kids[i] == AF_NONE)
				continue;
			af_grow(&stack, &cap, sp + 1, sizeof *stack);
			af_grow(&level, &cap2, sp + 1, sizeof *level);
			stack[sp] = kids[i];
			level[sp++] = d + 1;
		}
	}
	free(stack);
	free(level);
	return deepest;
}

void test_ranges_split_like_mmap(void)
{
	struct af_ranges rs;
	struct cell m[SPACE], saved[SPACE];
	uint32_t root = AF_NONE;
	af_ranges_init(&rs);
	for (int a = 0; a < SPACE; a++)
		m[a].value = AF_NONE;
	/* the cases by hand: inside one (both ends left), over the end of one
	 * and the start of the next, covering several, exactly one */
	af_ranges_insert(&rs, &root, 10, 50, 1000, 1);
	model_insert(m, 10, 50, 1000, 1);
	af_ranges_insert(&rs, &root, 60, 90, 2000, 2);
	model_insert(m, 60, 90, 2000, 2);
	af_ranges_insert(&rs, &root, 20, 30, 0, 3);
	model_insert(m, 20, 30, 0, 3);
	INT_EQ(agrees(&rs, root, m), 0);
	af_ranges_insert(&rs, &root, 45, 70, 500, 4);
	model_insert(m, 45, 70, 500, 4);
	INT_EQ(agrees(&rs, root, m), 0);
	af_ranges_insert(&rs, &root, 5, 100, 7, 5);
	model_insert(m, 5, 100, 7, 5);
	INT_EQ(agrees(&rs, root, m), 0);
	af_ranges_insert(&rs, &root, 5, 100, 9, 6);
	model_insert(m, 5, 100, 9, 6);
	INT_EQ(agrees(&rs, root, m), 0);
	/* then random ones, checked after each; a copy keeps its state */
	uint32_t copy = AF_NONE;
	srand(17);
	for (uint32_t i = 0; i < 3000; i++) {
		uint64_t s = (uint64_t)(rand() % (SPACE - 1)), e = s + 1 + (uint64_t)(rand() % 40);
		e = e > SPACE ? SPACE : e;
		uint64_t pg = (uint64_t)(rand() % 100000);
		af_ranges_insert(&rs, &root, s, e, pg, 10 + i);
		model_insert(m, s, e, pg, 10 + i);
		if (agrees(&rs, root, m)) {
			INT_EQ(agrees(&rs, root, m), 0);
			break;
		}
		if (i == 1500) {
			size_t k;
			OK(!af_ranges_copy(&rs, root, 2, &copy, &k));
			OK(af_ranges_copy(&rs, root, SIZE_MAX, &copy, &k));
			memcpy(saved, m, sizeof m);
		}
	}
	INT_EQ(agrees(&rs, copy, saved), 0);
	struct af_range *list = NULL;
	size_t cap = 0, n = 0;
	OK(af_ranges_list(&rs, root, SIZE_MAX, &list, &cap, &n));
	OK(n > 2);
	for (size_t i = 1; i < n; i++)
		OK(list[i - 1].end <= list[i].start);
	free(list);
	af_ranges_release(&rs);
}

/* Ranges in rising, falling and alternating order: the tree stays shallow
 * (a sorted array or plain search tree would make this quadratic). */
void test_ranges_hostile_orders_shallow(void)
{
	for (int order = 0; order < 3; order++) {
		struct af_ranges rs;
		uint32_t root = AF_NONE;
		af_ranges_init(&rs);
		const uint32_t n = 200000;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t k = order == 0 ? i : order == 1 ? n - i : (i % 2 ? i : n * 2 - i);
			af_ranges_insert(&rs, &root, k * 16, k * 16 + 8, 0, i);
		}
		OK(depth(&rs, root) < 80);
		OK(af_ranges_find(&rs, root, 16 * 5 + 3) != NULL);
		OK(af_ranges_find(&rs, root, 16 * 5 + 9) == NULL);
		af_ranges_release(&rs);
	}
}
