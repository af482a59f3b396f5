/* SPDX-License-Identifier: MIT */
/*
 * Checks, on a CPU machine, how the tracer records CUDA graph nodes
 * (traces/tracer/trace_graph.c; doc/roofline.md, "CUDA graphs"):
 *
 *   1. "graph" is recorded by default, when asked for and with "all"; a
 *      list that leaves it out leaves it out;
 *   2. a node made by the program ("created") and its clone in the
 *      executable graph ("cloned") are queued by the callback, on the
 *      calling thread, and reach the file at the next drain, with the
 *      thread, the node, its graph and the clone's original;
 *   3. a callback of another domain or id, or one whose node CUPTI cannot
 *      name, writes nothing, nor does one of a node id of 2^63 or more (a
 *      number the reader cannot hold), and a clone of such a node names
 *      no original;
 *   4. a kernel, copy or memset that a graph ran carries its node
 *      ("graph_node"), and one launched outside a graph carries none,
 *      nor one whose node id is 2^63 or more;
 *   5. the metadata lists "graph" among what was recorded.
 *
 * CUPTI's graph and node ids stand in for the real calls (a node's id is
 * its handle's value). Prints "graph node sim: ok" and exits 0, else names
 * the first failed check and exits 1. tests/check_trace.sh builds it
 * (including the tracer's source, against the real libcupti) and runs it.
 *
 * Usage: graph_node_sim OUT.json
 */
#define _GNU_SOURCE /* as tracer.h, which these headers now precede */
#include <cuda.h>
#include <cupti.h> /* first: the stand-ins below replace the tracer's calls, not CUPTI's header */

static CUptiResult sim_node_id(CUgraphNode node, uint64_t *id);
static CUptiResult sim_graph_id(CUgraph graph, uint32_t *id);
#define cuptiGetGraphNodeId sim_node_id
#define cuptiGetGraphId sim_graph_id

#include "tracer_src.h"
#include "sim_open.h"

#define SIM_NAME "graph node sim"
#include "sim_check.h"

static CUptiResult sim_node_id(CUgraphNode node, uint64_t *id)
{
    *id = (uint64_t)(uintptr_t)node;
    return node ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

static CUptiResult sim_graph_id(CUgraph graph, uint32_t *id)
{
    *id = (uint32_t)(uintptr_t)graph;
    return CUPTI_SUCCESS;
}

static void node_event(CUpti_CallbackId cbid, uintptr_t graph, uintptr_t node, uintptr_t original)
{
    CUpti_GraphData gd = {
        .graph = (CUgraph)graph, .node = (CUgraphNode)node, .originalNode = (CUgraphNode)original};
    CUpti_ResourceData rd = {.resourceDescriptor = &gd};
    graph_callback(NULL, CUPTI_CB_DOMAIN_RESOURCE, cbid, &rd);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: graph_node_sim OUT.json\n");
        return 2;
    }
    g.quiet = true;
    /* 1 */
    EXPECT(record_mask(NULL) & REC_GRAPH);
    EXPECT(record_mask("all") & REC_GRAPH);
    EXPECT(!(record_mask("kernel,memcpy,memset") & REC_GRAPH));
    EXPECT(record_mask("graph") == REC_GRAPH);

    if (sim_open_trace(argv[1]) != 0)
        return 1;
    g.record = REC_KERNEL | REC_MEMCPY | REC_MEMSET | REC_GRAPH;
    uint32_t tid = self_tid();
    /* 2 */
    node_event(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, 3, 17, 0);
    node_event(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, 4, 41, 17);
    /* 3 */
    node_event(CUPTI_CBID_RESOURCE_GRAPH_CREATED, 3, 18, 0);
    node_event(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, 3, 0, 0); /* CUPTI names no node */
    CUpti_GraphData gd = {.node = (CUgraphNode)(uintptr_t)19};
    CUpti_ResourceData rd = {.resourceDescriptor = &gd};
    graph_callback(NULL, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, &rd);
    /* an id of 2^63 or more would make the trace unreadable: none made,
     * and a clone of such a node names no original */
    const uintptr_t huge = (uintptr_t)1 << 63 | 5;
    node_event(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, 3, huge, 0);
    node_event(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, 4, huge, 17);
    EXPECT(gq.queued == 2);
    size_t len = gq.queue.len;
    node_event(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, 4, 43, huge);
    EXPECT(gq.queued == 3 && gq.queue.len > len &&
           strstr(gq.queue.p + len, "\"node\":43,\"original\":0}"));
    pthread_mutex_lock(&g.mu);
    graph_drain();
    pthread_mutex_unlock(&g.mu);
    EXPECT(gq.queued == 0 && g.records == 3);

    /* 4 */
    sb_t s = {0};
    CUpti_ActivityKernel10 k = {.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                .start = g.ts_base + 5000,
                                .end = g.ts_base + 9000,
                                .name = "triad",
                                .correlationId = 7,
                                .graphId = 4,
                                .graphNodeId = 41};
    kernel_record(&s, &k);
    EXPECT(s.p && strstr(s.p, ",\"correlation\":7,") &&
           strstr(s.p, ",\"graph\":4,\"graph_node\":41}}"));
    size_t at = s.len;
    k.graphId = 0;
    k.graphNodeId = 0;
    kernel_record(&s, &k);
    EXPECT(s.len > at && !strstr(s.p + at, "graph"));
    at = s.len;
    k.graphId = 4;
    k.graphNodeId = (uint64_t)1 << 63;
    kernel_record(&s, &k);
    EXPECT(s.len > at && strstr(s.p + at, ",\"graph\":4}}") && !strstr(s.p + at, "graph_node"));
    at = s.len;
    CUpti_ActivityMemcpy6 m = {.kind = CUPTI_ACTIVITY_KIND_MEMCPY,
                               .copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOD,
                               .start = g.ts_base + 10000,
                               .end = g.ts_base + 20000,
                               .bytes = 1 << 20,
                               .graphId = 4,
                               .graphNodeId = 40};
    memcpy_record(&s, &m);
    EXPECT(s.len > at && strstr(s.p + at, ",\"graph\":4,\"graph_node\":40}}"));
    at = s.len;
    CUpti_ActivityMemset4 ms = {.kind = CUPTI_ACTIVITY_KIND_MEMSET,
                                .start = g.ts_base + 20000,
                                .end = g.ts_base + 21000,
                                .bytes = 4096,
                                .graphId = 4,
                                .graphNodeId = 42};
    memset_record(&s, &ms);
    EXPECT(s.len > at && strstr(s.p + at, ",\"graph\":4,\"graph_node\":42}}"));
    free(s.p);

    /* 5 */
    finish();
    char text[65536];
    sim_read_trace(argv[1], text, sizeof text);
    char want[256];
    snprintf(want, sizeof want, "\"cat\":\"cuda_graph_node\",\"pid\":%" PRId64 ",\"tid\":%u,",
             host_pid_of(-1), tid);
    EXPECT(strstr(text, want));
    snprintf(want, sizeof want,
             ",\"name\":\"created\",\"args\":{\"thread\":%u,\"node\":17,\"graph\":3}},\n", tid);
    EXPECT(strstr(text, want));
    snprintf(want, sizeof want,
             ",\"name\":\"cloned\",\"args\":{\"thread\":%u,\"node\":41,\"original\":17}},\n", tid);
    EXPECT(strstr(text, want));
    EXPECT(!strstr(text, "\"node\":18") && !strstr(text, "\"node\":19") &&
           !strstr(text, "\"node\":0,"));
    EXPECT(strstr(text, "\"recorded\":[\"kernel\",\"memcpy\",\"memset\",\"graph\"]"));
    EXPECT(strstr(text, "\"records\":3,\"dropped_records\":0"));
    if (fails)
        return 1;
    printf("graph node sim: ok\n");
    return 0;
}
