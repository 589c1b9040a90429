/* module.c: finding and opening the program's modules (module.h). */
#include "module.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef AF_MODULE_DIR
#define AF_MODULE_DIR "/usr/local/lib/aflame-render"
#endif

/* The directory of /proc/self/exe into out, or "" */
static void exe_dir(char *out, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", out, size - 1);
	out[n > 0 ? n : 0] = 0;
	char *slash = strrchr(out, '/');
	if (slash)
		*slash = 0;
	else
		out[0] = 0;
}

/* dir/file's entry: 1 and *head if usable, 0 if there is no such file, -1
 * (err set) if it is there but unusable */
static int try_dir(const char *dir, const char *file, const char *symbol, unsigned abi,
		   size_t size, const struct af_module_head **head, char *err, size_t err_size)
{
	char path[PATH_MAX + 64];
	if (!dir[0] || (size_t)snprintf(path, sizeof path, "%s/%s", dir, file) >= sizeof path ||
	    access(path, F_OK) != 0)
		return 0;
	/* RTLD_LOCAL: the module's libraries stay out of the global namespace */
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	const struct af_module_head *e = h ? dlsym(h, symbol) : NULL;
	if (!e) {
		const char *why = dlerror();
		snprintf(err, err_size, "cannot load %s: %.200s", path, why ? why : symbol);
		return -1;
	}
	if (e->abi != abi || e->size != size) {
		snprintf(err, err_size, "%s is from another build of aflame-render"
			 " (interface %u, expected %u)", path, e->abi, abi);
		return -1;
	}
	*head = e;
	return 1;
}

const struct af_module_head *af_module_open(const char *file, const char *symbol, unsigned abi,
					    size_t size, const char *needed_for, char *err,
					    size_t err_size)
{
	const struct af_module_head *head = NULL;
	char dir[PATH_MAX];
	exe_dir(dir, sizeof dir);
	/* beside the program (a build tree), then where an install put it
	 * relative to the program (bin/../lib/aflame-render: an unpacked or
	 * moved install), then the configured directory */
	char rel[PATH_MAX + 32];
	snprintf(rel, sizeof rel, "%s/../lib/aflame-render", dir[0] ? dir : ".");
	int r = try_dir(dir, file, symbol, abi, size, &head, err, err_size);
	if (r == 0 && dir[0])
		r = try_dir(rel, file, symbol, abi, size, &head, err, err_size);
	if (r == 0)
		r = try_dir(AF_MODULE_DIR, file, symbol, abi, size, &head, err, err_size);
	if (r == 0)
		snprintf(err, err_size, "%s %s, which is neither beside the program (%.*s),"
			 " in ../lib/aflame-render from there, nor in " AF_MODULE_DIR,
			 needed_for, file, PATH_MAX / 4, dir[0] ? dir : "?");
	return head;
}
