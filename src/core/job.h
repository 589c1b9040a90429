/* job.h: one function run on a second thread while the caller goes on,
 * then joined: how a stage splits a piece of work in two on a machine with
 * a core to spare (the pprof back end deflates on both). A job changes how
 * long the work takes, never what it makes: when no thread can be started
 * (pthread_create fails), or when the environment sets AFLAME_NO_THREADS,
 * af_job_start runs the function itself, at once, and af_job_join has
 * nothing to wait for. So a job's function must give the same result
 * whenever it runs: what it shares with the caller is read through atomics
 * or only after the join. */
#ifndef AF_JOB_H
#define AF_JOB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct af_job {
	void (*fn)(void *arg);
	void *arg;
	pthread_t thread;
	bool threaded;         /* on its own thread, to be joined */
	atomic_bool done;      /* fn has returned */
};

/* Run fn(arg) on a second thread, or here and now when there is none. */
void af_job_start(struct af_job *j, void (*fn)(void *arg), void *arg);
/* Whether fn runs on a thread of its own (known to fn as it runs): then,
 * and only then, it may wait for the caller. */
bool af_job_threaded(const struct af_job *j);
/* Whether fn has returned (af_job_join would not wait); its writes are
 * then seen by the caller. */
bool af_job_done(struct af_job *j);
/* Wait for fn to return and release its thread. Nothing to wait for on a
 * job already joined, run here, or never started (a zeroed struct), so a
 * caller with a job that may or may not have started just joins it. */
void af_job_join(struct af_job *j);

#endif
