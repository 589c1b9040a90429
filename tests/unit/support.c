/* support.c: helpers shared by the unit tests. */
#include "support.h"
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

static int collect(void *ctx, const void *data, size_t len)
{
	af_buf_add(ctx, data, len);
	return 0;
}

char *folded_below(struct af_tree *t, uint32_t root)
{
	return folded_skipping(t, root, NULL);
}

char *folded_skipping(struct af_tree *t, uint32_t root, const uint8_t *excluded)
{
	struct af_buf out;
	af_buf_init(&out);
	struct af_sink s;
	af_sink_init(&s, collect, &out);
	af_write_folded(t, root, excluded, 0, &s);
	af_sink_finish(&s);
	return af_buf_detach(&out);
}

void read_input(struct read_result *res, const void *data, size_t len, const char *name,
		af_reader_fn *reader, const struct af_read_opts *o)
{
	static const struct af_read_opts defaults;
	struct af_input in = { .data = data, .len = len, .name = name };
	struct af_diag d;
	af_diag_init(&d, name);
	af_profile_init(&res->p);
	if (!o)
		o = &defaults;
	res->rc = reader ? reader(&res->p, &in, o, &d) : af_read(&res->p, &in, NULL, o, &d);
	res->error[0] = 0;
	res->folded = NULL;
	if (res->rc < 0)
		af_diag_format(&d, res->error, sizeof res->error);
	else
		res->folded = folded_below(&res->p.tree, AF_ROOT);
}

bool under_sanitizers(void)
{
	return getenv("AFLAME_SANITIZED") != NULL;
}

void read_result_release(struct read_result *res)
{
	free(res->folded);
	res->folded = NULL;
	af_profile_release(&res->p);
}

const struct af_warning *find_warning(const struct af_profile *p, const char *prefix)
{
	for (size_t i = 0; i < p->nwarnings; i++)
		if (strncmp(p->warnings[i].text, prefix, strlen(prefix)) == 0)
			return &p->warnings[i];
	return NULL;
}
