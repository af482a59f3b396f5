/* SPDX-License-Identifier: MIT */
/*
 * The flow simulator's state (struct cr_sim and the records it holds),
 * shared by its engine (flowsim.c: construction, tasks, events, results;
 * flowsim_class.c: resource classes at run start; flowsim_solve.c: class
 * membership and max-min solves) and its router (flowroute.c: path
 * searches, the shortest-path DAG a route spreads over, NCCL's NIC per
 * GPU, PXN relays and the route cache), and the entry points each file
 * offers the others. Nothing outside these files includes it. The
 * functions here are external for C but local to libcommroof.so (no cr_
 * prefix: tools/libcommroof.map).
 */
#ifndef CR_FLOWSIM_PRIV_H
#define CR_FLOWSIM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flowsim.h"
#include "grow.h"
#include "heap_priv.h"
#include "nic.h"
#include "route.h"
#include "route_priv.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

enum { EV_ACT = 0, EV_ACTG = 1, EV_BATCH = 2 };

/* In vr[f][3]: the receiver's HBM is read twice (a reduction). */
#define VR_W2 (1 << 30)

typedef struct {
    int res; /* base resource before the run; during it the class, stored as
                -(class + 1) on a flow's last use (see use_cls) */
    double w;
} use_t;

typedef struct {
    int task;
    int uoff; /* the flow's first use in s->uses: freeze reads its uses
                 without touching the task */
} ref_t;

/* A base resource. */
typedef struct {
    double cap_Bps;
    double alpha; /* its weights are alpha x its class's */
    double dropped_bytes;
    int kind, index, dir;
    int cls;               /* solver class, -1 when unused or dropped */
    unsigned char pinned;  /* HBM used by compute or explicit uses: keep */
    unsigned char dropped; /* HBM that cannot bind: not simulated */
    unsigned char tight;   /* binds its class (cap / alpha is the class cap) */
} res_t;

/* A solver resource: a class of base resources. Its active list drops
 * departed flows lazily (they fail the alive bit) and is compacted when
 * they outnumber the live ones, so that a departure costs O(1) per use
 * and no flow needs to know its position in the list. */
typedef struct {
    ref_t *act;
    int n_act;
    size_t cap_act;
    int n_live;
    double live_w; /* sum of the weights of its live flows */
    double cap_Bps;
    double load_Bps; /* sum of w x rate of the active flows */
    double t_last;
    double bytes, busy_s, peak_Bps;
} cls_t;

/* The per-flow state the solver touches on every re-solve, apart from the
 * task (32 bytes: two to a cache line, for the random accesses of the
 * component search and progressive filling). */
typedef struct {
    double left, rate, t_last;
    int batch;  /* the solve (component) that last rated it, -1 none */
    int capped; /* the task has a max_rate (kept here to avoid the task) */
} fdyn_t;

typedef struct {
    double bytes;
    double lat_s;      /* flows: latency before bytes move; delays: duration */
    double max_rate;   /* 0 = unlimited */
    double not_before; /* earliest ready time */
    double ready_s, start_s, end_s;
    long use_off;
    int n_use;
    int op, src, dst; /* op-local ranks; dst -1 when none */
    int npred;
    int r1, r2; /* routed flows: route legs (r2 -1 without a relay) */
    unsigned char type, active, done;
    unsigned char quiet;  /* start/end markers: no rank attribution */
    unsigned char all;    /* completion counts for every rank of the op */
    unsigned char routed; /* uses come from r1/r2 + HBM at run start */
    unsigned char red;    /* routed: the receiver reads a local operand */
    unsigned char shared; /* explicit: the uses of task r1 (cr_sim_flow_add_like) */
    char *label;
} task_t;

/* A solved component (or an activation group): its tasks. A component
 * that outlives its first completion (no re-solve followed) keeps its live
 * flows in a heap on their end times (their rates no longer change). */
typedef struct {
    int *f;
    cr_heap_ent *end; /* once made a heap: its flows (id) by end time (key) */
    int n, live;
    int scanned; /* its first event has passed */
    size_t cap;  /* activation groups: f's capacity (a component's f is its size) */
} batch_t;

typedef struct {
    char *name;
    int kind, n, stream;
    int *ranks;
    uint64_t *member;     /* bitmap over GPU ranks: the op's ranks */
    unsigned char *share; /* per GPU rank: its NIC share in this op (nic_shares), NULL
                             when the topology has no NICs near GPUs */
    double *rank_end;
    double all_end_s; /* the latest end of its tasks for every rank (CR_SIM_ALL_RANKS),
                         folded into rank_end when the run ends: one compare a task
                         instead of a pass over the op's ranks (quadratic in an
                         NVLS tree of 65,536 ranks) */
    double start_s, end_s;
    long n_tasks;
    int first_task, last_task; /* start/end markers, -1 when absent */
} op_t;

typedef struct {
    long off;
    int n;
    int refs; /* routed flows using it */
    double lat_s;
} route_t;

/* One direction of a search: distances, settled flags, touched list. */
typedef struct {
    int *dist;
    unsigned char *settled;
    int *touched;
    int n_touched;
    cr_heap h;
} search_t;

/* A uniform all-to-all run by symmetry (flowsim_sym.c): one flow per cell
 * (orbit of GPU pairs) over one representative resource per resource
 * orbit. A cell is indexed by the classes of its two nodes' groups, the
 * pair's type (0 same node, 1 same group, 2 different groups) and the two
 * GPUs' indices in their nodes (flowsim_sym_cell). */
typedef struct flowsim_sym {
    int op;
    int n_cls, max_local;
    int *node_grp, *grp_cls;    /* per node its group, per group its class */
    long n_cells;               /* entries of the cell tables */
    int *cell_task;             /* per cell: the task that stands for it, -1 none */
    int *cell_scls, *cell_dcls; /* per cell: sender's and receiver's rank class */
    int *res_rep;               /* per resource: its orbit's representative */
    int (*cell_hbm)[2];         /* per cell: the HBM orbits of sender and receiver */
    double (*cell_hw)[2];       /* their weights (an HBM that cannot bind is not
                                   simulated; its bytes are counted at the end) */
    long n_flows;               /* the flows the cells stand for */
} flowsim_sym;

/* A route cache: open addressing from a key (never 0) to a route index. */
typedef struct {
    uint64_t *keys;
    long *vals;
    long cap, count;
} route_hash_t;

/* The routes found so far and the tables that find them again: what a
 * route memo (flowroute.c) copies whole from one simulator to the next. */
typedef struct {
    cr_sim_use *rpool;
    long n_rpool;
    size_t cap_rpool;
    route_t *routes;
    long n_routes;
    size_t cap_routes;
    route_hash_t rhash; /* routes by GPU pair and NIC shares, device pair, SHM leg */
    int *dense;         /* up to DENSE_MAX_GPUS: route + 1 per GPU pair, 0 unknown */
    /* routes through GPUs (route_via_gpus), rare: kept apart */
    route_hash_t via_hash; /* their cache, for the ranks of via_member */
    uint64_t *via_member;  /* copy of the op bitmap over GPU ranks via_hash holds
                              routes for (NULL: none yet); via_any: for every GPU
                              a rank */
    bool via_any;
} route_cache_t;

struct cr_sim {
    const cr_topo *t;
    bool transit;
    bool pxn;           /* relay inter-node traffic through the rail-aligned GPU */
    int *local;         /* per GPU rank: position among its node's GPUs, -1 if no node */
    int *domain;        /* per GPU rank: its scale-up (NVLink/XGMI) domain, named by
                           its first GPU rank */
    char *domain_multi; /* per domain: it spans several topology nodes (an
                           NVL72 rack of 18 trays), NCCL's node then (MNNVL) */
    int *node_first;    /* per node: its first GPU rank */
    /* NCCL's NIC choice for point-to-point across nodes (ncclTopoGetLocalNet,
     * nic_shares and nic_mark): per GPU rank its nearest NICs (nics), the NIC share of each GPU
     * rank when every GPU of the topology is a rank (def_share), and a
     * per-device stamp marking the NICs a restricted route search may cross */
    cr_nic_map *nics; /* nic.c */
    unsigned char *def_share;
    int *nic_ok, nic_stamp;
    bool restrict_nic;       /* the search under way honours nic_ok */
    bool via_gpus;           /* the search under way may cross other GPUs (nothing else
                                connects the pair: cr_route_forwards) */
    int *grp_cnt;            /* per device scratch: ranks whose first near NIC it is */
    cr_route_scratch shm_sc; /* buffers of shm_cpu's host searches, set up on first use */
    /* a ring channel's NICs as NCCL's graph gives them (flowroute_pin_nics):
     * per topology node the NIC device its crossings take, -1 none; NULL
     * none (borrowed from the expansion) */
    const int *pin_nic;
    int *nic_local; /* per device its index among its node's NICs, -1 for
                       others; built on the first pinned route */
    int n_res, hbm_res0;
    res_t *res;
    int *reduce_res; /* per device, -1 if none */

    task_t *tasks;
    long n_tasks;
    size_t cap_tasks;
    long max_tasks;                  /* the budget over all ops (cr_sim_set_task_limit) */
    long route_work, max_route_work; /* links route searches scanned, and the budget */
    bool work_over;                  /* route_work passed the budget: every search fails */
    fdyn_t *fd;                      /* per task, allocated at run start */
    uint64_t *unf;                   /* bitmap per task: in the component being solved and not
                                        yet frozen (128 KiB per million tasks: stays in cache) */
    uint64_t *alive;                 /* bitmap per task: attached to its classes now */
    int *fbn;    /* per task: the class whose saturation froze its rate, -1 none */
    use_t *uses; /* explicit tasks' uses (routed flows use rr, see flowsim_flow_uses) */
    long n_uses;
    size_t cap_uses;
    use_t *rr;    /* after flowsim_classes: every route in classes, one use per class */
    long *rr_off; /* per route: its first entry in rr (n_routes + 1 entries) */
    int (*vr)[4]; /* per task, routed flows: legs r1, r2, HBM classes of sender and
                     receiver (VR_W2: weight 2), -1 none */
    use_t *vbuf;  /* a routed flow's uses spelled out (flowsim_flow_uses) */
    size_t cap_vbuf;
    int (*deps)[2]; /* (before, after) task ids */
    long n_deps;
    size_t cap_deps;
    op_t *ops;
    int n_ops;
    size_t cap_ops;

    cr_heap heap; /* events by time: id, and the EV_ kind as tag */
    batch_t *batches;
    int n_batches;
    size_t cap_batches;
    batch_t *groups;
    int n_groups;
    size_t cap_groups;

    /* routing */
    route_cache_t rc;
    search_t fw, bw;
    int fw_src;           /* source whose full forward search is loaded, -1 none */
    int prewarm;          /* device a prewarm searches from (resumable), -1 none */
    int *dag_mark;        /* per device stamp */
    int *bmark;           /* per device stamp: walked in a DAG's backward part */
    int *link_mark;       /* per link stamp: recorded as an edge of the DAG */
    int *edge_u, *edge_l; /* the DAG's edges (from, link), found while it is built */
    int *edge_ord;        /* edge indices grouped by from-node (emit_route) */
    int n_edges;
    size_t cap_edge_u, cap_edge_l, cap_edge_ord;
    int *eoff, *dag_idx; /* per DAG node: its edges; per device: its DAG node index */
    int dag_stamp;
    int *dag_nodes, *pos;
    int *queue;
    double *frac, *lat;
    int *res_slot; /* per resource or class: index in a use list being merged, or -1 */
    cr_sim_use *scratch;
    size_t cap_scratch;

    /* solver (per class) */
    cls_t *cls;
    int n_cls;
    int *cls_stamp;
    int stamp;
    int *comp_res;
    long *comp_flows;
    long n_comp_flows;
    size_t cap_comp_flows;
    double *rem, *wsum;
    int *nunf;
    cr_heap rheap; /* classes (id) by saturation level (lazy keys) */
    cr_heap cheap; /* capped flows (id) by rate cap */
    double *newrate;
    int *seeds;
    int n_seeds;
    size_t cap_seeds;
    int *seeded; /* per class: stamp of the seed round it was added in */
    int *hard;   /* per class: the seed round an arrival touched it in */
    int *nb;     /* per class: active flows it is the bottleneck of */
    int seed_round;
    /* conservative components: union-find over classes, merged when a flow
     * joins them, rebuilt from the active flows when they halve */
    int *uf_par, *uf_size, *uf_next, *root_stamp;
    long *uf_nf; /* per root: the active flows in its component */
    long n_active, peak_active;

    /* Flows that become active at the same instant with the same uses,
     * bytes and rate cap move as one weighted flow (merge_pending): the
     * leader carries mult[f] members on every use, the others wait on its
     * fnext list. merge false: every flow on its own (cr_sim_set_merge). */
    bool merge;
    int *mult, *fnext; /* per task, allocated at the first merge */
    int *pend;         /* flows activated at this instant, waiting to attach */
    long n_pend;
    size_t cap_pend;
    int *mslot; /* merge_pending's hash table */
    size_t cap_mslot;

    int sym_mode;     /* cr_sim_sym_mode */
    flowsim_sym *sym; /* the op run by symmetry, NULL none */

    bool ran;
    double makespan;
    cr_sim_progress_fn progress; /* called while running, NULL none */
    void *progress_ctx;
    cr_sim_stats st;
    size_t mem;

    /* routes through GPUs (flowroute.c route_via_gpus): only these GPU
     * ranks may be crossed (an op's bitmap), NULL: any; their routes are
     * rc.via_hash's */
    const uint64_t *via_members;

    cr_sim_route_memo *memo; /* borrowed (cr_sim_set_route_memo), NULL none */
};

/* ---------- the engine's parts (flowsim.c, flowsim_class.c, flowsim_solve.c) ---------- */

static inline uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The class of a use (a flow's last use stores it as -(class + 1)). */
static inline int use_cls(const use_t *u)
{
    return u->res < 0 ? -u->res - 1 : u->res;
}

/* flowsim.c: pushes an event of kind (EV_*) for id at time t; a new batch
 * in *arr (list copied from f[0..n) when f is given), its index; flow
 * lists leaving batch b. Return -1 when out of memory. */
int flowsim_ev_push(cr_sim *s, double t, int id, int kind);
int flowsim_batch_new(batch_t **arr, int *n_arr, size_t *cap, const long *f, int n);
void flowsim_batch_leave(cr_sim *s, int b);

/* flowsim_class.c: merges equivalent resources into classes, drops HBM
 * that cannot bind, and rewrites every task's uses in classes. Returns -1
 * when out of memory. */
int flowsim_classes(cr_sim *s);

/* The first GPU listed twice among ranks[0..n) (topology GPU ranks, each
 * in range), -1 where none is, -2 on no memory. */
int flowsim_repeated_gpu(const cr_topo *t, const int *ranks, int n);

/* flowsim_solve.c. flowsim_flow_uses: flow f's uses in classes, *out valid
 * until the next call. flowsim_attach / flowsim_detach: flow f joins /
 * leaves its classes (at now). flowsim_solve: re-solves the components the
 * changes since the last solve reach and queues their completion events.
 * flowsim_uf_rebuild: the components from the active flows.
 * flowsim_cls_settle: a class's byte and busy counters brought up to now.
 * The int functions return -1 when out of memory. */
int flowsim_flow_uses(cr_sim *s, long f, const use_t **out);
int flowsim_attach(cr_sim *s, long f);
int flowsim_detach(cr_sim *s, long f, double now);
int flowsim_solve(cr_sim *s, double now);
void flowsim_uf_rebuild(cr_sim *s);
void flowsim_cls_settle(cls_t *r, double now);

/* ---------- the router (flowroute.c) ---------- */

/* Allocates the router's search state and NCCL's NIC map for s->t (s->res
 * and s->n_res set). Returns -1 when out of memory (flowroute_free
 * releases what was allocated). */
int flowroute_init(cr_sim *s);

/* Frees what flowroute_init and the routes allocated; a zeroed state
 * is fine. */
void flowroute_free(cr_sim *s);

/* Each rank's share of its nearest NICs (cr_nic_shares, nic.c). member:
 * bitmap over GPU ranks; writes share[g] for every member g (0: no NIC
 * near it). */
void flowroute_nic_shares(cr_sim *s, const uint64_t *member, unsigned char *share);

/* Lowers the NIC shares of op `op` so that the ranks of each node together
 * take at most `nics` NICs (at least one each): NCCL's ring and tree graphs
 * send each channel through one NIC of a node (cr_coll_pred net_nics).
 * Returns 0, or -1 when out of memory. */
int flowroute_limit_nics(cr_sim *s, int op, int nics);

/* Whether op's flow from GPU rank a to b goes through host memory (NCCL's
 * SHM transport between node-mates without peer access, flowroute.c
 * shm_cpu): 1, 0, or -2 when out of memory. */
int flowroute_via_host(cr_sim *s, int op, int a, int b);

/* The route legs of a flow from GPU rank a to b (a != b): r1 to the relay
 * or to b, r2 from the relay (-1 without one), each through the NICs NCCL
 * gives its ends (share: the op's, NULL for every GPU a rank); through
 * host memory (NCCL's SHM: a pair of one node without scale-up links or
 * PCIe peer access) r1 up to b's nearest CPU and r2 down from it. Returns
 * 0, -1 (no route) or -2 (out of memory). */
int flowroute_legs(cr_sim *s, const uint64_t *member, const unsigned char *share, int a, int b,
                   long *r1, long *r2);

/* Pins the NICs that the flows routed from now on cross between nodes
 * (NCCL's ring graph: a channel enters and leaves each node through the
 * NIC the graph gives it, not through its GPUs' nearest): a flow from GPU
 * rank a to b of different nodes leaves through pin[node of a] and enters
 * through pin[node of b] where both are >= 0 (NIC devices; per topology
 * node), else routes as before; where the fabric joins the two by no path,
 * as before too. NULL unpins. pin is borrowed: it must outlive the pin. */
void flowroute_pin_nics(cr_sim *s, const int *pin);

/* ---------- all-to-all by symmetry (flowsim_sym.c) ---------- */

/* A message's efficiency from op rank a to b (its wire bytes are its
 * payload over it), in (0, 1]; < 0 when out of memory. */
typedef double (*flowsim_pair_eff)(void *ctx, int a, int b);

/* Adds op (every GPU of the topology a rank, the simulator's only op) as a
 * uniform all-to-all of `payload` bytes a message, each message's flow
 * carrying payload / eff(ctx, a, b) on the wire (its NCCL transport's
 * figure: one for every pair of a cell, whose pairs the automorphisms map
 * onto each other, node onto node and NVLink domain onto domain), each
 * flow's latency its path's or step_lat_s where longer, between the
 * markers first and last, one flow per orbit of GPU pairs, each moving at
 * most max_rate (a member's cap, cr_sim_flow_cap; 0 none). Returns 1 when
 * added, 0 when it does not apply (nothing added: node structure, ranks,
 * too many cells), -1 when out of memory or at a budget, -2 when two GPUs
 * have no route (the unmerged expansion fails there too). */
int flowsim_sym_alltoall(cr_sim *s, int op, double payload, flowsim_pair_eff eff, void *ctx,
                         double step_lat_s, double max_rate, int first, int last);

/* The cell of the flow from GPU rank a to b. */
int flowsim_sym_cell(const flowsim_sym *y, const cr_sim *s, int ga, int gb);

/* After the run: every rank's end from its rank class's cells. */
void flowsim_sym_finish(cr_sim *s);

void flowsim_sym_free(flowsim_sym *y);

#pragma GCC visibility pop

#endif
