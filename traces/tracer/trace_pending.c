/* SPDX-License-Identifier: MIT */
/*
 * State the NVTX wrappers share: names of registered strings and domains,
 * payload schemas, and the decoded payloads waiting for CUPTI's record of
 * their range (matched in pend_claim).
 */
#include "tracer.h"

#define PEND_MAX 65536        /* payloads waiting per thread (CUPTI delivers every flush) */
#define PEND_THREADS_MAX 4096 /* threads with waiting payloads */
#define NAMES_MAX 65536

struct nvtx_state nv = {.mu = PTHREAD_MUTEX_INITIALIZER,
                        .next_handle = 0x10000,
                        .next_schema = NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START};

uint32_t self_tid(void)
{
    /* CUPTI's marker records name threads by the low 32 bits of pthread_self
     * (seen in the h200-1 traces); the own path uses the same, so tids agree. */
    return (uint32_t)(uintptr_t)pthread_self();
}

bool own_mode(void)
{
    return !(g.marker_on && nv.cupti_nvtx);
}

/* COMMROOF_TRACE_NVTX_WRAP=0: guard mode (trace_nvtx.c) instead of the
 * wrappers. */
bool nvtx_guard_only(void)
{
    return !env_bool("COMMROOF_TRACE_NVTX_WRAP", true);
}

/* Remembers h -> a copy of s (nv.mu held). Lost names only cost labels. */
void map_put(handle_name **a, size_t *n, size_t *cap, const void *h, const char *s)
{
    if (!h || !s || *n >= NAMES_MAX)
        return;
    if (cr_grow((void **)a, cap, *n + 1, sizeof **a))
        return;
    char *copy = strdup(s);
    if (!copy)
        return;
    (*a)[*n].h = h;
    (*a)[*n].s = copy;
    (*n)++;
}

/* A copy of the name of h, or NULL (nv.mu held). */
char *map_get(const handle_name *a, size_t n, const void *h)
{
    for (size_t i = n; h && i-- > 0;)
        if (a[i].h == h)
            return strdup(a[i].s);
    return NULL;
}

static pend_thread *pend_thread_of(uint32_t tid, bool create)
{
    for (size_t i = 0; i < nv.nthreads; i++)
        if (nv.threads[i].tid == tid)
            return &nv.threads[i];
    if (!create || nv.nthreads >= PEND_THREADS_MAX)
        return NULL;
    if (cr_grow((void **)&nv.threads, &nv.capthreads, nv.nthreads + 1, sizeof *nv.threads))
        return NULL;
    pend_thread *t = &nv.threads[nv.nthreads++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    return t;
}

static void pend_free(pend_t *p)
{
    free(p->json);
    free(p->name);
}

/* Queues a decoded payload for the CUPTI record of its range (takes json
 * and name). */
void pend_add(uint32_t tid, uint64_t t, bool at_end, char *json, bool undecoded, char *name)
{
    pthread_mutex_lock(&nv.mu);
    pend_thread *th = pend_thread_of(tid, true);
    int k = at_end ? 1 : 0;
    if (th && th->n[k] - th->head[k] >= PEND_MAX) {
        /* CUPTI is not delivering this thread's records: the oldest is lost */
        pend_free(&th->q[k][th->head[k]++]);
        __atomic_fetch_add(&g.ext_unmatched, 1, __ATOMIC_RELAXED);
    }
    if (th && th->head[k] > 0 && th->head[k] * 2 >= th->n[k]) { /* compact */
        memmove(th->q[k], th->q[k] + th->head[k], (th->n[k] - th->head[k]) * sizeof *th->q[k]);
        th->n[k] -= th->head[k];
        th->head[k] = 0;
    }
    if (!th || cr_grow((void **)&th->q[k], &th->cap[k], th->n[k] + 1, sizeof *th->q[k])) {
        pthread_mutex_unlock(&nv.mu);
        free(json);
        free(name);
        __atomic_fetch_add(&g.ext_unmatched, 1, __ATOMIC_RELAXED);
        return;
    }
    th->q[k][th->n[k]++] = (pend_t){tid, t, at_end, undecoded, json, name};
    pthread_mutex_unlock(&nv.mu);
}

/* Gives range o (CUPTI's, starting or ending at ts on thread tid) the payload
 * our wrapper decoded for it: the latest one queued on that thread at or
 * before ts, when its name agrees (a different name means CUPTI lost that
 * payload's range and o is another one: it stays, to be counted). Older
 * ones on that thread were never claimed: their ranges did not reach us
 * (counted). Called with g.mu held. */
void pend_claim(open_range *o, uint32_t tid, uint64_t ts, bool at_end)
{
    if (tid == 0)
        return;
    pthread_mutex_lock(&nv.mu);
    pend_thread *th = pend_thread_of(tid, false);
    int k = at_end ? 1 : 0;
    size_t last = th ? th->head[k] : 0;
    while (th && last < th->n[k] && th->q[k][last].t <= ts)
        last++;
    if (!th || last == th->head[k]) {
        pthread_mutex_unlock(&nv.mu);
        return;
    }
    size_t cand = last - 1;
    for (size_t i = th->head[k]; i < cand; i++) {
        pend_free(&th->q[k][i]);
        __atomic_fetch_add(&g.ext_unmatched, 1, __ATOMIC_RELAXED);
    }
    th->head[k] = cand;
    pend_t *p = &th->q[k][cand];
    if (p->name && p->name[0] && o->name && strcmp(p->name, o->name) != 0) {
        pthread_mutex_unlock(&nv.mu);
        return;
    }
    if (p->json && !o->ext_json) {
        o->ext_json = p->json;
        p->json = NULL;
    }
    o->ext_undecoded = o->ext_undecoded || p->undecoded;
    pend_free(p);
    th->head[k] = cand + 1;
    pthread_mutex_unlock(&nv.mu);
}

/* At exit: payloads never claimed are counted. */
void pend_finish(void)
{
    pthread_mutex_lock(&nv.mu);
    for (size_t i = 0; i < nv.nthreads; i++)
        for (int k = 0; k < 2; k++) {
            pend_thread *th = &nv.threads[i];
            for (size_t j = th->head[k]; j < th->n[k]; j++) {
                pend_free(&th->q[k][j]);
                __atomic_fetch_add(&g.ext_unmatched, 1, __ATOMIC_RELAXED);
            }
            th->head[k] = th->n[k] = 0;
        }
    pthread_mutex_unlock(&nv.mu);
}
