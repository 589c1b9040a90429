/* perfdata_stack.c: one sample's callchain to a path in the graph: each
 * ip through its process's map to a file, an address in it and a symbol
 * (through a cache of recent resolutions), ART's own frames hidden and JIT
 * frames drawn as their dex twins as simpleperf reports them, frame names
 * made once per symbol, and the frames a thread's consecutive samples
 * share taken from its last stack without a lookup. */
#include "perfdata_int.h"
#include "demangle.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The address in the file that ip is at, as simpleperf's Dso::IpToVaddrInFile. */
static uint64_t vaddr_in_file(const struct pfile *file, const struct af_range *m, uint64_t ip, bool kernel)
{
	if (!file)
		return kernel ? ip : ip - m->start + m->pgoff;
	switch (file->type) {
	case DSO_KERNEL: case DSO_SYMBOL_MAP_FILE: case DSO_UNKNOWN_FILE:
		return ip;
	case DSO_KERNEL_MODULE:
		return ip - m->start - file->offset_of_min_vaddr + file->min_vaddr;
	case DSO_DEX_FILE:
		return ip - m->start + m->pgoff;
	default:
		if (file->offset_of_min_vaddr == UINT64_MAX)
			return ip - m->start + file->min_vaddr;
		return ip - m->start + m->pgoff - file->offset_of_min_vaddr + file->min_vaddr;
	}
}

/* Where ip is: its map, file, address in the file, symbol and kind. */
static struct entry lookup(struct pd *f, uint64_t pid, uint64_t ip, bool kernel)
{
	const struct af_range *r = pd_find_map(f, kernel ? KERNEL_PID : pid, ip);
	struct entry e = { .file = AF_NONE, .vaddr = ip, .kind = kernel ? K_KERNEL : K_UNKNOWN };
	if (!r)
		return e;
	const struct map *m = e.map = &f->maps[r->value];
	e.file = m->file;
	const struct pfile *file = m->file != AF_NONE ? &f->files[m->file] : NULL;
	e.vaddr = m->jit ? ip : vaddr_in_file(file, r, ip, kernel);
	e.sym = file ? pd_find_sym(f, m->file, e.vaddr) : NULL;
	if (!kernel)
		e.kind = m->kind;
	e.tramp = e.sym && f->sym_keys[e.sym - f->syms].tramp;   /* in the line pd_find_sym() read */
	e.art = e.kind == K_NATIVE && (e.tramp || m->art);
	return e;
}

/* The cache slot of (pid, ip, kernel). */
static struct ipslot *ipslot_of(const struct pd *f, uint64_t pid, uint64_t ip, bool kernel)
{
	uint64_t h = (ip ^ (pid << 20) ^ kernel) * 0x9e3779b97f4a7c15ULL;
	return &f->ipcache[h >> (64 - f->ipcache_bits)];
}

/* lookup() through the cache of recent resolutions. */
static struct entry resolve(struct pd *f, uint64_t pid, uint64_t ip, bool kernel)
{
	struct ipslot *c = ipslot_of(f, pid, ip, kernel);
	if (!(c->gen == f->maps_gen && c->ip == ip && c->pid == pid && c->kernel == kernel))
		*c = (struct ipslot){ ip, f->maps_gen, (uint32_t)pid, kernel, lookup(f, pid, ip, kernel) };
	return c->e;
}

/* One of ART's own frames, not yet marked */
static bool art_entry(const struct entry *e)
{
	return e->kind == K_NATIVE && e->art;
}

/* simpleperf's CallChainReportBuilder::MarkArtFrame: ART's own frames next
 * to a Java frame are hidden, except the JNI method a trampoline calls
 * (restored once all are marked). The chain is leaf first. */
static void mark_art(struct entry *c, size_t n)
{
	bool near_java = false;
	for (size_t i = 0; i < n; i++) {
		if (c[i].kind == K_DEX || c[i].kind == K_JIT) {
			near_java = true;
			for (size_t j = i; j-- > 0 && art_entry(&c[j]);)
				c[j].kind = K_ART;
		} else if (near_java && art_entry(&c[i])) {
			c[i].kind = K_ART;
		} else {
			near_java = false;
		}
	}
	for (size_t i = 1; i < n; i++)
		if (c[i].kind == K_ART && c[i].tramp && c[i - 1].kind == K_ART)
			c[i - 1].kind = K_NATIVE;
}

/* Hide ART frames and draw JIT frames as their interpreted twins; returns
 * the new length. */
static size_t simplify(struct pd *f, struct entry *c, size_t n)
{
	mark_art(c, n);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (c[i].kind != K_ART && k++ != i)
			c[k - 1] = c[i];
	n = k;
	k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sym *twin = c[i].kind == K_JIT && c[i].sym ? pd_dex_twin(f, c[i].sym) : NULL;
		if (twin) {
			c[i].sym = twin;
			c[i].kind = K_DEX;
			/* an interpreted method calling its own JIT code shows once */
			if (i + 1 < n && c[i + 1].sym == twin)
				continue;
		}
		if (k++ != i)
			c[k - 1] = c[i];
	}
	return k;
}

/* The frame's name: the symbol (demangled), else "file[+vaddr]";
 * JIT-compiled Java frames end "_[j]", kernel frames "_[k]"
 * (flamegraph.pl's annotations, as simpleperf's stackcollapse.py --jit
 * and --kernel write them). */
static uint32_t make_name(struct pd *f, const struct entry *e)
{
	struct af_buf *b = &f->scratch;
	b->len = 0;
	if (e->sym) {
		const struct af_span *s = &e->sym->name;
		if (!af_demangle((const char *)s->s, s->n, b))
			af_name_append(b, (const char *)s->s, s->n);
	} else if (e->map && !(e->kind == K_KERNEL && e->file == AF_NONE)) {
		af_name_append(b, (const char *)e->map->path.s, e->map->path.n);
		af_buf_printf(b, "[+%" PRIx64 "]", e->vaddr);
	} else {
		af_buf_printf(b, "%s[+%" PRIx64 "]", e->kind == K_KERNEL ? "[kernel.kallsyms]" : "[unknown]", e->vaddr);
	}
	af_name_finish(b, 0);
	if (e->kind == K_JIT)
		af_buf_printf(b, "_[j]");
	else if (e->kind == K_KERNEL)
		af_buf_printf(b, "_[k]");
	return af_tree_intern(&f->p->tree, b->data, b->len);
}

/* make_name(), made once per symbol and suffix: most frames have a symbol,
 * and building and interning their names was most of the reading time. */
static uint32_t frame_name(struct pd *f, const struct entry *e)
{
	if (!e->sym)
		return make_name(f, e);
	uint32_t *id = &f->sym_names[(size_t)(e->sym - f->syms) * 3 + (e->kind == K_JIT ? 1 : e->kind == K_KERNEL ? 2 : 0)];
	if (*id == AF_NONE)
		*id = make_name(f, e);
	return *id;
}

/* The sample's callchain as (ip, kernel) pairs, leaf first, in f->raw
 * (context markers dropped; none at all: its ip, if it has one, and
 * *walked false); counts the empty chains. Returns the number of frames. */
static size_t decode_chain(struct pd *f, const struct sample *s, uint16_t misc, bool *walked)
{
	bool kernel = (misc & CPUMODE_MASK) == CPUMODE_KERNEL;
	size_t n = 0;
	af_grow(&f->raw, &f->cap_raw, s->nr + 1, sizeof *f->raw);
	for (uint64_t i = 0; i < s->nr; i++) {
		uint64_t ip = af_le(s->ips + i * 8, 8);
		if (ip >= CONTEXT_MAX) {
			kernel = ip == CONTEXT_KERNEL ? true : ip == CONTEXT_USER ? false : kernel;
			continue;
		}
		f->raw[n++] = (struct rawip){ ip, kernel };
	}
	*walked = n > 0;
	if (n == 0 && (f->sample_type & S_CALLCHAIN))
		f->empty_chains++;
	if (n == 0 && (f->sample_type & S_IP))
		f->raw[n++] = (struct rawip){ s->ip, kernel };
	return n;
}

/* The thread's chain becomes the n frames of f->raw (leaf first there,
 * root first in th->chain). A thread's consecutive samples share their
 * callers (a 4000 Hz recording finds a thread in the same call path most
 * of the time), so the frames from the root equal to its previous chain
 * keep what they were resolved to and only the rest is looked up; counts
 * the frames outside every map and those without a symbol. Returns how
 * many were kept. */
static size_t update_chain(struct pd *f, struct pthread_ *th, uint64_t pid, size_t n)
{
	af_grow(&th->chain, &th->cap_chain, n, sizeof *th->chain);
	struct tframe *tf = th->chain;
	size_t same = 0;
	if (th->gen == f->maps_gen && th->chain_pid == pid) {
		size_t max = n < th->nchain ? n : th->nchain;
		const struct rawip *r = f->raw + n - 1;
		while (same < max && r[-(ptrdiff_t)same].ip == tf[same].raw.ip &&
		       r[-(ptrdiff_t)same].kernel == tf[same].raw.kernel)
			same++;
	}
	/* the cache is larger than the processor's: its lines for the new
	 * frames are fetched together, not each when its turn comes */
	for (size_t i = same; i < n; i++)
		__builtin_prefetch(ipslot_of(f, pid, f->raw[n - 1 - i].ip, f->raw[n - 1 - i].kernel));
	for (size_t i = same; i < n; i++) {
		struct tframe *t = &tf[i];
		t->raw = f->raw[n - 1 - i];
		t->e = resolve(f, pid, t->raw.ip, t->raw.kernel);
		t->no_map = (i ? tf[i - 1].no_map : 0) + !t->e.map;
		t->no_symbol = (i ? tf[i - 1].no_symbol : 0) + (t->e.map && !t->e.sym);
	}
	if (n) {
		f->no_map += tf[n - 1].no_map;
		f->no_symbol += tf[n - 1].no_symbol;
	}
	th->nchain = n;
	th->gen = f->maps_gen;
	th->chain_pid = pid;
	return same;
}

/* Fold the m simplified frames of f->chain (leaf first) under node, after
 * the thread's first kept drawn frames; returns the leaf's node. Frames
 * equal to the thread's previous stack from there on take their nodes from
 * it without a tree probe (a leaf ip that moved within its function). The
 * others' path keys are worked out and their slots prefetched before the
 * first is looked up: the tree's table is far larger than the caches, and
 * one stack's probes then wait for memory together, not one after another
 * (a (parent, name) probe needs the node the one before found). */
static uint32_t fold_stack(struct pd *f, struct pthread_ *th, uint32_t node, size_t kept, size_t m)
{
	struct af_tree *t = &f->p->tree;
	af_grow(&th->stack, &th->cap_stack, kept + m, sizeof *th->stack);
	struct frame *st = th->stack;
	size_t end = kept + m, from = end;
	for (size_t i = kept; i < end; i++) {
		uint32_t name = frame_name(f, &f->chain[end - 1 - i]);
		if (from == end && i < th->depth && st[i].name == name)
			continue;
		from = from < i ? from : i;
		st[i].name = name;
	}
	uint64_t key = from ? st[from - 1].key : th->key;
	for (size_t i = from; i < end; i++) {
		st[i].key = key = af_tree_path_key(key, af_tree_name_key(t, st[i].name));
		af_tree_path_prefetch(t, key);
	}
	node = from ? st[from - 1].node : node;
	for (size_t i = from; i < end; i++)
		st[i].node = node = af_tree_key_child(t, node, st[i].key, st[i].name);
	th->depth = end;
	return end ? st[end - 1].node : node;
}

/* Simplify and fold the thread's chain (n frames, the first `same` as in
 * the previous sample) under node; returns the leaf's node.
 *
 * What simplify() makes of a frame depends on the frame, its caller, and
 * for one of ART's own frames on the run of them it is in and the frames
 * either side of that run. So the drawn frames of the shared part are the
 * previous sample's up to its last frame that is not ART's own (keep - 1):
 * they keep their nodes, and only the frames after it are simplified, with
 * that frame before them as their caller (then dropped: it is never hidden,
 * and without its own caller it is never made a twin). */
static uint32_t fold_chain(struct pd *f, struct pthread_ *th, uint32_t node, size_t n, size_t same)
{
	struct tframe *tf = th->chain;
	size_t keep = same;
	while (keep > 0 && art_entry(&tf[keep - 1].e))
		keep--;
	size_t from = keep ? keep - 1 : 0, m = n - from;
	af_grow(&f->chain, &f->cap_chain, m, sizeof *f->chain);
	for (size_t j = 0; j < m; j++) {
		f->chain[j] = tf[n - 1 - j].e;
		f->chain[j].at = (uint32_t)(n - 1 - j);
	}
	m = simplify(f, f->chain, m);
	if (keep)
		m--;   /* the caller before them, last */
	uint32_t kept = keep ? tf[keep - 1].drawn : 0;
	node = fold_stack(f, th, node, kept, m);
	/* how many drawn frames each new frame of the chain ends */
	size_t j = m;
	for (size_t i = keep; i < n; i++) {
		while (j > 0 && f->chain[j - 1].at == i) {
			kept++;
			j--;
		}
		tf[i].drawn = kept;
	}
	return node;
}

/* Fold one sample of thread th weighing period; an off-CPU one gets a
 * leaf "[off-cpu]". */
int pd_fold_sample(struct pd *f, struct pthread_ *th, const struct sample *s, uint64_t at, uint16_t misc,
		       uint64_t period, bool offcpu)
{
	if (period > UINT64_MAX - f->weight)
		return pd_bad(f, at, "the sample periods add up past 2^64");
	f->samples++;
	f->offcpu_drawn += offcpu;
	f->weight += period;
	struct af_tree *t = &f->p->tree;
	uint32_t node = pd_thread_node(f, th);
	f->p->threads[th->index].events++;
	bool walked;
	size_t n = decode_chain(f, s, misc, &walked);
	size_t same = update_chain(f, th, s->pid, n);
	/* unwinding that went wrong: a chain whose outermost caller is
	 * outside every map (a stack walk that ran off) */
	if (walked && !th->chain[0].e.map)
		f->chains_off_map++;
	node = fold_chain(f, th, node, n, same);
	if (offcpu) {
		uint64_t key = th->depth ? th->stack[th->depth - 1].key : th->key;
		node = af_tree_key_child(t, node, af_tree_path_key(key, af_tree_name_key(t, f->offcpu_name)), f->offcpu_name);
	}
	t->nodes[node].self += period;
	return 0;
}
