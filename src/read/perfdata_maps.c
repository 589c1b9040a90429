/* perfdata_maps.c: each process's maps (a range set, ranges.h; FORK
 * copies a parent's, within a budget linear in the file), threads, and
 * their graph nodes named "name (id)". */
#include "perfdata_int.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The root of process pid's range set (made empty on first use). */
static uint32_t *maps_of(struct pd *f, uint64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->maps_by_pid, pid, &found);
	if (!found) {
		af_grow(&f->roots, &f->cap_roots, f->nroots + 1, sizeof *f->roots);
		f->roots[f->nroots] = AF_NONE;
		*slot = (uint32_t)f->nroots++;
	}
	return &f->roots[*slot];
}

/* A new map replaces what it overlaps, splitting an older map it covers
 * only part of, as the kernel and simpleperf's ThreadTree::InsertMap do. */
void pd_add_map(struct pd *f, uint64_t pid, uint64_t start, uint64_t end, uint64_t pgoff, struct map m)
{
	/* simpleperf's ThreadTree::AddKernelMap: a kernel map whose name
	 * starts "[kernel.kallsyms]" ("_stext" after it in simpleperf's
	 * recordings, "_text" in perf's) is the kernel's, whose symbols the
	 * file carries as "[kernel.kallsyms]" */
	static const char kernel[] = "[kernel.kallsyms]";
	if (pid == KERNEL_PID && m.path.n > sizeof kernel - 1 && memcmp(m.path.s, kernel, sizeof kernel - 1) == 0)
		m.path.n = sizeof kernel - 1;
	m.file = pd_find_file(f, m.path);
	/* simpleperf's Dso::IsForJavaMethod: dex files, and JIT symfiles */
	m.kind = K_NATIVE;
	if (m.file != AF_NONE && f->files[m.file].type == DSO_DEX_FILE)
		m.kind = K_DEX;
	else if (m.jit || contains(m.path, "_jit_app_cache:") || contains(m.path, "_jit_zygote_cache:"))
		m.kind = K_JIT;
	m.art = ends(m.path, "/libart.so") || ends(m.path, "/libartd.so");
	af_grow(&f->maps, &f->cap_maps, f->nmaps + 1, sizeof *f->maps);
	f->maps[f->nmaps] = m;
	af_ranges_insert(&f->ranges, maps_of(f, pid), start, end, pgoff, (uint32_t)f->nmaps++);
	f->maps_gen++;
}

const struct af_range *pd_find_map(struct pd *f, uint64_t pid, uint64_t ip)
{
	uint32_t k = af_idmap_get(&f->maps_by_pid, pid);
	return k == AF_NONE ? NULL : af_ranges_find(&f->ranges, f->roots[k], ip);
}

struct pthread_ *pd_thread_of(struct pd *f, uint64_t tid, uint64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->thread_ids, tid, &found);
	if (!found) {
		af_grow(&f->threads, &f->cap_threads, f->nthreads + 1, sizeof *f->threads);
		f->threads[f->nthreads] = (struct pthread_){ .tid = tid, .pid = pid, .node = AF_NONE };
		*slot = (uint32_t)f->nthreads++;
	}
	return &f->threads[*slot];
}

/* FORK: a new process starts with a copy of its parent's maps (a new
 * thread shares its process's), and a thread with its parent's name until
 * a COMM renames it (simpleperf's ThreadTree::ForkThread). Copies are
 * bounded by a budget linear in the file, so a file of forks of a process
 * with many maps stays linear; a fork past it is counted. */
int pd_read_fork(struct pd *f, struct af_cursor *c, uint64_t at)
{
	uint32_t pid, ppid, tid, ptid;
	if (!af_cursor_u32(c, &pid) || !af_cursor_u32(c, &ppid) || !af_cursor_u32(c, &tid) || !af_cursor_u32(c, &ptid))
		return pd_bad(f, at, "a FORK record is shorter than its fields");
	if (tid == ptid || (pid != tid && pid != ppid))
		return 0;
	struct af_span pname = pd_thread_of(f, ptid, ppid)->name;
	struct pthread_ *th = pd_thread_of(f, tid, pid);
	th->pid = pid;
	if (th->node == AF_NONE && pname.n)
		th->name = pname;
	uint32_t k = af_idmap_get(&f->maps_by_pid, ppid);
	if (pid == ppid || k == AF_NONE || f->roots[k] == AF_NONE)
		return 0;
	uint32_t parent = f->roots[k], *child = maps_of(f, pid);
	size_t n = 0;
	bool ok;
	if (*child == AF_NONE) {
		ok = af_ranges_copy(&f->ranges, parent, (size_t)f->copy_budget, child, &n);
	} else {   /* maps already recorded for the child: the parent's go over them */
		ok = af_ranges_list(&f->ranges, parent, (size_t)f->copy_budget, &f->listed, &f->cap_listed, &n);
		for (size_t i = 0; ok && i < n; i++)
			af_ranges_insert(&f->ranges, maps_of(f, pid), f->listed[i].start, f->listed[i].end,
					 f->listed[i].pgoff, f->listed[i].value);
	}
	f->copy_budget -= n < f->copy_budget ? n : f->copy_budget;   /* a failed try costs what it looked at */
	f->forks_copied += ok;
	f->forks_uncopied += !ok;
	f->maps_gen++;
	return 0;
}

static struct af_span label(struct af_span s, struct af_buf *b, const char *fallback, uint64_t id)
{
	af_name_root(b, (const char *)s.s, s.n, fallback, id);
	return (struct af_span){ (const uint8_t *)b->data, (uint32_t)b->len };
}

uint32_t pd_thread_node(struct pd *f, struct pthread_ *th)
{
	if (th->node != AF_NONE)
		return th->node;
	struct af_tree *t = &f->p->tree;
	struct af_buf *b = &f->scratch;
	bool found;
	uint32_t *pslot = af_idmap_slot(&f->proc_nodes, th->pid, &found);
	if (!found) {
		uint32_t k = af_idmap_get(&f->thread_ids, th->pid);
		struct af_span pname = k != AF_NONE ? f->threads[k].name : (struct af_span){ 0 };
		struct af_span s = label(pname, b, "process", th->pid);
		*pslot = af_tree_add_child(t, AF_ROOT, af_tree_intern(t, (const char *)s.s, s.n));
		af_profile_add_process(f->p, th->pid, pname.s ? (const char *)pname.s : "", pname.n, *pslot);
	}
	uint32_t pnode = *pslot;
	struct af_span s = label(th->name, b, "thread", th->tid);
	th->node = af_tree_add_child(t, pnode, af_tree_intern(t, (const char *)s.s, s.n));
	/* keyed by its node (unique), so no two threads share frames' keys */
	th->key = af_tree_path_key(AF_PATH_ROOT_KEY, af_hash_keyed_bytes(&th->node, sizeof th->node));
	size_t ti = af_profile_add_thread(f->p, th->tid, th->name.s ? (const char *)th->name.s : "", th->name.n);
	f->p->threads[ti].node = th->node;
	f->p->threads[ti].pid = th->pid;
	f->p->threads[ti].process_node = pnode;
	th->index = ti;
	return th->node;
}
