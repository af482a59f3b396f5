/* SPDX-License-Identifier: MIT */
/*
 * CUDA graphs: which thread made each node, and when. A graph's kernels,
 * copies and memsets run when the graph is launched, long after (and
 * outside) the NVTX ranges that were open while the program built or
 * captured it, so neither their start nor their launch call names the
 * operator that made them. CUPTI tags each such activity with its node in
 * the executable graph (graphNodeId), and that node is a clone of the node
 * the program made (CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED at instantiation;
 * CUPTI's cuda_graphs_trace sample pairs them the same way). The tracer
 * writes each node's making ("created": its node and graph ids, the thread
 * and the time) and each clone's original ("cloned"), as "cuda_graph_node"
 * instant events on the host's pid, so that `commroof roofline` gives a
 * replayed kernel to the range open on that thread when its node was made
 * (validate/roofline_own.c). Only graph building calls these callbacks: a
 * launch costs nothing more.
 *
 * The callback runs on the program's thread, possibly inside the driver's
 * own locks: it never takes g.mu (whose holder may be waiting in the
 * driver, trace_device.c) and never calls CUDA. It formats its event and
 * appends it to a queue of its own; the flush thread and finish() move the
 * queue into the file under g.mu (graph_drain).
 */
#include "tracer.h"

/* The node events not yet in the file (one tracer per process, as g). */
static struct {
    pthread_mutex_t mu; /* the fields below; never held while calling CUDA or CUPTI */
    sb_t queue;         /* the events, as they go into the file */
    uint64_t queued;    /* events in queue */
    uint64_t lost;      /* events lost to memory */
    CUpti_SubscriberHandle sub;
} gq = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void CUPTIAPI graph_callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                    const void *data)
{
    (void)user;
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || !data || !owner())
        return;
    if (cbid != CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED &&
        cbid != CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED)
        return;
    const CUpti_ResourceData *rd = data;
    const CUpti_GraphData *gd = rd->resourceDescriptor;
    uint64_t node = 0, other = 0;
    uint32_t graph = 0;
    /* an id of 2^63 or more, written as a number, would make the whole
     * trace unreadable ("too big integer"): such a node goes unnamed */
    if (!gd || cuptiGetGraphNodeId(gd->node, &node) != CUPTI_SUCCESS || node > INT64_MAX)
        return;
    bool cloned = cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED;
    if (cloned &&
        (cuptiGetGraphNodeId(gd->originalNode, &other) != CUPTI_SUCCESS || other > INT64_MAX))
        other = 0; /* a clone of what CUPTI cannot name: the reader falls back */
    if (!cloned && gd->graph && cuptiGetGraphId(gd->graph, &graph) != CUPTI_SUCCESS)
        graph = 0;
    uint64_t t = 0;
    if (g.clock_own || cuptiGetTimestamp(&t) != CUPTI_SUCCESS)
        t = now_ns();
    uint32_t tid = self_tid();
    sb_t s = {0};
    sb_printf(&s,
              "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"cuda_graph_node\",\"pid\":%" PRId64
              ",\"tid\":%u,\"ts\":",
              host_pid_of(-1), tid);
    sb_us(&s, t > g.ts_base ? (int64_t)(t - g.ts_base) : 0);
    if (cloned)
        sb_printf(&s,
                  ",\"name\":\"cloned\",\"args\":{\"thread\":%u,\"node\":%" PRIu64
                  ",\"original\":%" PRIu64 "}},\n",
                  tid, node, other);
    else
        sb_printf(&s,
                  ",\"name\":\"created\",\"args\":{\"thread\":%u,\"node\":%" PRIu64
                  ",\"graph\":%u}},\n",
                  tid, node, graph);
    pthread_mutex_lock(&gq.mu);
    if (!s.oom)
        sb_put(&gq.queue, s.p, s.len);
    if (s.oom || gq.queue.oom)
        gq.lost++; /* sb_put adds all of it or nothing */
    else
        gq.queued++;
    gq.queue.oom = false;
    pthread_mutex_unlock(&gq.mu);
    free(s.p);
}

bool graph_setup(void)
{
    if (!cupti_ok(cuptiSubscribe(&gq.sub, graph_callback, NULL),
                  "cuptiSubscribe (so CUDA graph nodes are not recorded: a replayed graph's "
                  "kernels go to the range open when they ran, not to the one that captured "
                  "them)"))
        return false;
    bool on = cupti_ok(cuptiEnableCallback(1, gq.sub, CUPTI_CB_DOMAIN_RESOURCE,
                                           CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED),
                       "cuptiEnableCallback(GRAPHNODE_CREATED)");
    on = on && cupti_ok(cuptiEnableCallback(1, gq.sub, CUPTI_CB_DOMAIN_RESOURCE,
                                            CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED),
                        "cuptiEnableCallback(GRAPHNODE_CLONED)");
    if (!on)
        cuptiUnsubscribe(gq.sub);
    return on;
}

/* Moves the queued events into the file; g.mu held. */
void graph_drain(void)
{
    pthread_mutex_lock(&gq.mu);
    if (gq.queue.len && !g.closed) {
        g.records += gq.queued;
        written_or_dropped(write_all(gq.queue.p, gq.queue.len), gq.queued);
    }
    g.dropped += gq.lost;
    gq.lost = 0;
    gq.queue.len = 0;
    gq.queued = 0;
    pthread_mutex_unlock(&gq.mu);
}

void graph_fork_child(void)
{
    static const pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    gq.mu = fresh;
    gq.queue.len = 0;
    gq.queued = 0;
}
