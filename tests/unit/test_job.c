/* test_job.c: a job runs its function once, on a second thread when one
 * starts, inline when AFLAME_NO_THREADS is set, and knows which as it
 * runs (af_job_threaded); its writes are seen after the join, which
 * waits for nothing when repeated or for a job never started. */
#include "core/job.h"
#include "harness.h"

#include <stdlib.h>

struct probe {
	pthread_t caller, ran_on;
	int runs;
	struct af_job *job;
	bool threaded;         /* af_job_threaded, as the function saw it */
	atomic_bool go;        /* set by the caller after af_job_start */
	bool saw_go;
};

/* waits (at most a few seconds) for the caller to go on past the start */
static void probe_fn(void *arg)
{
	struct probe *p = arg;
	p->ran_on = pthread_self();
	p->runs++;
	p->threaded = af_job_threaded(p->job);
	for (long i = 0; i < 2000000000L && !p->saw_go; i++)
		p->saw_go = atomic_load(&p->go);
}

static void quick_fn(void *arg)
{
	struct probe *p = arg;
	p->ran_on = pthread_self();
	p->runs++;
	p->threaded = af_job_threaded(p->job);
}

void test_job_second_thread(void)
{
	unsetenv("AFLAME_NO_THREADS");
	struct af_job j;
	struct probe p = { .caller = pthread_self(), .job = &j };
	atomic_init(&p.go, false);
	af_job_start(&j, probe_fn, &p);
	atomic_store(&p.go, true);   /* the caller goes on while the job waits */
	af_job_join(&j);
	INT_EQ(p.runs, 1);
	OK(p.saw_go);
	OK(!pthread_equal(p.ran_on, p.caller));
	OK(p.threaded);
	OK(af_job_done(&j));
	af_job_join(&j);             /* joined again: nothing to wait for */
	INT_EQ(p.runs, 1);
	struct af_job never = { 0 }; /* never started: nothing to wait for */
	af_job_join(&never);
	OK(!af_job_threaded(&never));
}

void test_job_inline_without_threads(void)
{
	setenv("AFLAME_NO_THREADS", "1", 1);
	struct af_job j;
	struct probe p = { .caller = pthread_self(), .job = &j, .threaded = true };
	af_job_start(&j, quick_fn, &p);
	OK(af_job_done(&j));         /* done before start returned */
	INT_EQ(p.runs, 1);
	OK(pthread_equal(p.ran_on, p.caller));
	OK(!p.threaded);
	af_job_join(&j);
	INT_EQ(p.runs, 1);
	unsetenv("AFLAME_NO_THREADS");
	/* set but empty: threads as usual */
	setenv("AFLAME_NO_THREADS", "", 1);
	af_job_start(&j, quick_fn, &p);
	af_job_join(&j);
	INT_EQ(p.runs, 2);
	OK(!pthread_equal(p.ran_on, p.caller));
	unsetenv("AFLAME_NO_THREADS");
}
