/* job.c: a function on a second thread, then joined (job.h). */
#include "job.h"

#include <stdlib.h>

static bool threads_on(void)
{
	const char *off = getenv("AFLAME_NO_THREADS");
	return !off || !*off;
}

static void *run(void *arg)
{
	struct af_job *j = arg;
	j->fn(j->arg);
	atomic_store_explicit(&j->done, true, memory_order_release);
	return NULL;
}

void af_job_start(struct af_job *j, void (*fn)(void *arg), void *arg)
{
	j->fn = fn;
	j->arg = arg;
	atomic_init(&j->done, false);
	/* set before the thread starts, which may read it; a thread that
	 * cannot start only makes the work slower */
	j->threaded = threads_on();
	if (j->threaded && pthread_create(&j->thread, NULL, run, j) != 0)
		j->threaded = false;
	if (!j->threaded)
		run(j);
}

bool af_job_threaded(const struct af_job *j)
{
	return j->threaded;
}

bool af_job_done(struct af_job *j)
{
	return atomic_load_explicit(&j->done, memory_order_acquire);
}

void af_job_join(struct af_job *j)
{
	if (j->threaded)
		pthread_join(j->thread, NULL);
	j->threaded = false;
}
