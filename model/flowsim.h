/* SPDX-License-Identifier: MIT */
/*
 * Flow-level discrete-event simulator over the topology graph.
 *
 * The engine runs a dependency graph of tasks on the shared resources of a
 * topology and reports when each task, operation and rank finishes and how
 * busy each resource was. doc/simulator.md derives the model; in short:
 *
 *   resources  every link bundle in each direction (count x bandwidth), the
 *              HBM of every GPU (its peak bandwidth), and the in-switch
 *              reduction engine of every switch that has one (reduce_Bps);
 *   flows      move bytes over a set of resources; a flow at rate x uses
 *              w x x of each of its resources (w = the share of the flow a
 *              link carries when routes spread over parallel paths, 2 for
 *              HBM when a reduction reads a local operand, ...). Rates follow
 *              weighted max-min fairness by progressive filling, re-solved
 *              when flows arrive (over the component they join) and when
 *              they leave (only if a remaining flow lost its bottleneck).
 *              Resources with the same users and proportional weights are
 *              solved as one (exact), an HBM that cannot bind is not
 *              simulated (its bytes are still counted);
 *   latency    a flow starts moving bytes lat_s after it becomes ready: its
 *              route's hop latencies plus the software latency the caller
 *              adds (protocol, synchronisation);
 *   delays     compute tasks: a fixed duration, optionally streaming bytes
 *              through the GPU's HBM no faster than the duration allows;
 *   deps       a task becomes ready when every task before it has finished.
 *
 * Routes between GPUs are the fewest-cost paths (PCIe hops cost a little more
 * than NVLink/network hops, so GPU pairs with NVLink do not route over PCIe),
 * through switches, NICs, CPUs and PCIe switches but not through other GPUs
 * (unless the topology sets route.gpu_transit, or no path avoids them: a
 * chain of GPUs joined only by NVLink routes through the middle GPUs, as
 * route.h's routes do). Where several such paths
 * exist the flow spreads over all of them in proportion to link capacity
 * (fluid ECMP, NCCL spreading a peer's traffic over all NVSwitch chips).
 * Flows between nodes on different rails relay through the sender node's
 * GPU on the receiver's rail (NCCL's PXN; topology parameter sim.pxn = 0
 * turns it off).
 *
 * Typical use:
 *   cr_sim *s; cr_sim_new(topo, &s, &d);
 *   int op = cr_sim_op_add(s, "allreduce", CR_SIM_OP_COLL, ranks, n, stream);
 *   int a = cr_sim_flow_add(s, op, 0, 1, bytes, 0.0), b = ...;
 *   cr_sim_dep_add(s, a, b);
 *   cr_sim_run(s, &d);
 *   ... cr_sim_op_get(s, op), cr_sim_makespan_s(s), cr_sim_res_get(s, res) ...
 *   cr_sim_free(s);
 * The simulator borrows topo: it must outlive s and stay unchanged.
 */
#ifndef CR_FLOWSIM_H
#define CR_FLOWSIM_H

#include <stdbool.h>
#include <stddef.h>

#include "coll.h"
#include "status.h"
#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cr_sim cr_sim;

typedef enum {
    CR_SIM_RES_LINK,   /* one direction of a link bundle */
    CR_SIM_RES_HBM,    /* a GPU's memory bandwidth */
    CR_SIM_RES_REDUCE, /* a switch's in-switch reduction engine */
} cr_sim_res_kind;

typedef enum {
    CR_SIM_OP_COLL,    /* a collective (or point-to-point pattern) */
    CR_SIM_OP_COMPUTE, /* compute on GPUs */
} cr_sim_op_kind;

/* One use of a resource by a flow: a flow at rate x consumes w x x of it. */
typedef struct {
    int res;
    double w;
} cr_sim_use;

/* What the engine counted for one resource. A link merged with others into
 * one solver class reports its own share (its weight ratio x the class's
 * traffic). An HBM that could not bind and was not simulated reports its
 * bytes only (busy_s and peak_load_Bps 0). */
typedef struct {
    cr_sim_res_kind kind;
    int index;      /* link index, GPU rank or switch device index */
    int dir;        /* links: 0 = a to b, 1 = b to a; else 0 */
    double cap_Bps; /* capacity */
    double bytes;   /* bytes it carried (weighted) */
    double busy_s;  /* time it was saturated (load within 1e-6 of capacity) */
    double peak_load_Bps;
} cr_sim_res_stat;

/* Completion of one operation. */
typedef struct {
    const char *name; /* borrowed */
    cr_sim_op_kind kind;
    int n_ranks;
    const int *ranks; /* topology GPU ranks (borrowed) */
    int stream;
    double start_s;           /* earliest task start (ready time) */
    double end_s;             /* last task end */
    const double *rank_end_s; /* per op rank: when its last task ended, -1 if none */
    long n_tasks;
    int first_task, last_task; /* the op's start and end markers, -1 if none */
} cr_sim_op_result;

/* One task as run, for timelines. */
typedef struct {
    int op;
    int rank; /* topology GPU rank the task is shown on (sender for flows) */
    int peer; /* receiver for flows, -1 otherwise */
    bool is_flow;
    double bytes;
    double ready_s; /* all predecessors done */
    double start_s; /* started moving bytes (ready + latency) or started computing */
    double end_s;
    const char *label; /* borrowed, may be NULL */
    bool marker;       /* an op's start/end marker (launch delay or join) */
} cr_sim_task_info;

/* Run statistics. */
typedef struct {
    long n_tasks, n_flows, n_events, n_solves;
    long solved_flows; /* sum over solves of the flows re-rated */
    long n_routes;     /* distinct GPU pairs routed */
    size_t route_entries;
    int n_classes; /* resources the solver ran on (equivalent resources merged) */
    int n_dropped; /* HBM resources that could not bind (not simulated) */
    long n_uses;   /* flow-resource uses the solver ran on */
    long n_merged; /* flows that ran as members of another's weighted flow */
    long n_sym;    /* flows of an all-to-all run by symmetry (its cells stand for them) */
} cr_sim_stats;

/* Creates a simulator over the finalized topology t (borrowed). Errors:
 * CR_EINVAL (t not finalized or without GPUs), CR_ENOMEM. Free with
 * cr_sim_free. */
cr_status cr_sim_new(const cr_topo *t, cr_sim **out, cr_diag *d);

/* Frees s; NULL is a no-op. */
void cr_sim_free(cr_sim *s);

/* The topology the simulator runs on (borrowed). */
const cr_topo *cr_sim_topo(const cr_sim *s);

/* Adds an operation: name (copied), kind, its ranks (topology GPU ranks,
 * copied; index i is the op's rank i) and the stream it runs on (the tid in
 * timelines). Returns the op index, or -1 on allocation failure, a kind
 * or a rank out of range, or a rank listed twice. */
int cr_sim_op_add(cr_sim *s, const char *name, cr_sim_op_kind kind, const int *ranks, int n,
                  int stream);

/* Adds a flow of bytes from op rank src to op rank dst (op-local indices)
 * over its path (cr_sim_path: the route, or two with a PXN relay), with
 * extra_lat_s of software latency on top of the path's hop latency. bytes >= 0 (0 makes a pure
 * latency). Returns the task id or -1 (allocation failure, bad ranks, no route). */
int cr_sim_flow_add(cr_sim *s, int op, int src, int dst, double bytes, double extra_lat_s);

/* Like cr_sim_flow_add but the receiver also reads a local operand (a
 * reduction step), so its HBM carries twice the bytes. */
int cr_sim_flow_add_reduce(cr_sim *s, int op, int src, int dst, double bytes, double extra_lat_s);

/* A flow that takes one algorithm step: its latency is step_lat_s, or its
 * path's latency where that is longer (a step cannot complete before its
 * data has crossed the route; doc/simulator.md). reduce as
 * cr_sim_flow_add_reduce. Returns the task id or -1. */
int cr_sim_flow_add_step(cr_sim *s, int op, int src, int dst, double bytes, double step_lat_s,
                         bool reduce);

/* A flow whose latency is lat_s as given: the caller has already floored
 * the latency of the whole algorithm at its route latencies (a ring's
 * steps at their edges' mean, doc/simulator.md), so this step's own route
 * is not a floor. reduce as cr_sim_flow_add_reduce. Returns the task id or
 * -1. */
int cr_sim_flow_add_step_at(cr_sim *s, int op, int src, int dst, double bytes, double lat_s,
                            bool reduce);

/* Pass as peer: the flow's completion counts for every rank of the op (a
 * coupled flow that moves all edges of a ring or tree). */
#define CR_SIM_ALL_RANKS (-2)

/* A flow over explicit resource uses (duplicates are merged), shown on op
 * rank `rank` (peer: an op rank, -1 for none, or CR_SIM_ALL_RANKS). lat_s is its whole latency.
 * Every res must be valid and every w > 0. Returns the task id or -1. */
int cr_sim_flow_add_uses(cr_sim *s, int op, int rank, int peer, const cr_sim_use *uses, int n,
                         double bytes, double lat_s);

/* Caps flow f at max_Bps (finite, > 0): it moves at most that fast however
 * idle its links are (a point-to-point message that NCCL's channels bind,
 * cr_sim_coll_spec msg_cap_Bps). Errors: CR_EINVAL for a task that is no
 * flow or a bad rate. */
cr_status cr_sim_flow_cap(cr_sim *s, int f, double max_Bps);

/* A flow over the same explicit uses as task `like` (a flow added by
 * cr_sim_flow_add_uses or this function, capped or not), shared rather
 * than copied, so that a collective's channels over the same edges cost
 * their uses once; rank, peer, bytes and lat_s as cr_sim_flow_add_uses,
 * no rate cap until cr_sim_flow_cap gives it one. Returns the task id
 * or -1 (like not such a flow, bad ranks, the task budget). */
int cr_sim_flow_add_like(cr_sim *s, int like, int rank, int peer, double bytes, double lat_s);

/* Whether flows that become active at the same instant over the same uses
 * with the same bytes (and rate cap) run as one weighted flow (on: the
 * default). Weighted max-min fairness gives a flow of weight k x w the rate
 * each of its k members would get, so the results are those of the
 * unmerged simulation (to rounding, 1e-9 relative: the tests compare the
 * two on every shipped topology); only the solver's work shrinks. Off, the
 * expansions also build every flow's uses for itself (no
 * cr_sim_flow_add_like). Call before adding ops; ignored after cr_sim_run. */
void cr_sim_set_merge(cr_sim *s, bool on);

/* Whether a uniform all-to-all (every flow the same bytes, every GPU of
 * the topology a rank, the simulation's only op) runs by symmetry: one
 * flow per orbit of GPU pairs under the fabric's automorphisms that map
 * nodes onto nodes, found and verified on the topology (doc/simulator.md,
 * "All-to-all by symmetry"). The results are the unmerged simulation's
 * (to rounding, 1e-9 relative: test_flowsim_sym.c); a task then stands for
 * every flow of its cell (cr_sim_sym_task), each resource reports its
 * orbit's traffic, each rank its own end. AUTO (the default): only when
 * one flow per pair would pass the task budget (where it was refused);
 * ON: whenever it applies; OFF: never. Where it does not apply the
 * expansion is the usual one (or its refusal). Call before adding ops. */
typedef enum { CR_SIM_SYM_AUTO, CR_SIM_SYM_ON, CR_SIM_SYM_OFF } cr_sim_sym_mode;
void cr_sim_set_symmetry(cr_sim *s, cr_sim_sym_mode m);

/* The task that stands for the flow from op rank src to op rank dst of op
 * when op ran by symmetry; -1 otherwise. */
long cr_sim_sym_task(const cr_sim *s, int op, int src, int dst);

/* Whether s merges flows (cr_sim_set_merge). */
bool cr_sim_merge(const cr_sim *s);

/* A compute task on op rank `rank` lasting dur_s; when hbm_bytes > 0 it also
 * streams that many bytes through the GPU's HBM (at most hbm_bytes / dur_s,
 * less when the HBM is shared), so it may take longer than dur_s.
 * Returns the task id or -1. */
int cr_sim_compute_add(cr_sim *s, int op, int rank, double dur_s, double hbm_bytes);

/* A pure delay of dur_s (synchronisation, launch) attributed to op rank
 * `rank`. Returns the task id or -1. */
int cr_sim_delay_add(cr_sim *s, int op, int rank, double dur_s);

/* The most tasks s may hold, all operations together (default
 * CR_SIM_FLOWS_MAX; values outside 1..CR_SIM_FLOWS_MAX give the default).
 * Adding a task past it fails (-1) and cr_sim_reserve past it returns
 * CR_ERANGE; the expansions report it with CR_ERANGE and the figures. */
void cr_sim_set_task_limit(cr_sim *s, long max_tasks);

/* The task budget of s (cr_sim_set_task_limit). */
long cr_sim_task_limit(const cr_sim *s);

/* The most links the route searches of one simulation may scan, all its
 * routes together. A search scans every link of every switch it passes, so
 * its cost is the fan-out of the switches on the way: 48 at most in
 * h100-ib-1024n, where an all-to-all over 2,048 of its GPUs scans 342
 * million links (9.5 s, the slowest shipped case measured), but n for a
 * switch holding n GPUs, where a ring over 16,384 GPUs on one switch scans
 * 268 million (3.9 s) and one over 65,536 would scan 4.3 billion (over a
 * minute). 2^31 (measured at about 14 ns a link on one core: half a
 * minute) keeps every shipped topology and refuses such stars with
 * CR_ERANGE (cr_sim_limit_hit). */
#define CR_SIM_ROUTE_WORK_MAX (1L << 31)

/* Lowers the route search budget of s (values outside
 * 1..CR_SIM_ROUTE_WORK_MAX give the default). */
void cr_sim_set_route_work_limit(cr_sim *s, long max_links);

/* CR_ERANGE with the reason in d when s has reached one of its budgets
 * (tasks: cr_sim_task_limit; route search work: CR_SIM_ROUTE_WORK_MAX),
 * so that an addition that failed can say which; CR_OK otherwise. */
cr_status cr_sim_limit_hit(const cr_sim *s, cr_diag *d);

/* Reserves room for `tasks` more tasks and `deps` more dependencies, so
 * that an expansion that knows its size does not reallocate as it grows.
 * Errors: CR_EINVAL (tasks or deps negative or above INT_MAX), CR_ERANGE (past the
 * task budget, cr_sim_task_limit), CR_ENOMEM. */
cr_status cr_sim_reserve(cr_sim *s, long tasks, long deps);

/* Task `after` may start only when `before` has finished. Returns CR_EINVAL
 * for bad ids or a self edge, CR_ENOMEM. Cycles are reported by cr_sim_run. */
cr_status cr_sim_dep_add(cr_sim *s, int before, int after);

/* Gives op a start marker (a delay of launch_s that becomes ready no
 * earlier than t_start_s) and an end marker (a zero delay): expansions make
 * their first tasks depend on *first and *last depend on their final tasks,
 * and scenarios chain ops through them. Markers do not count as a rank's
 * work. Errors: CR_EINVAL (bad op, markers exist, launch_s or t_start_s
 * negative or not finite), CR_ERANGE (no room for two more tasks in the
 * task budget, cr_sim_task_limit), CR_ENOMEM. */
cr_status cr_sim_op_markers(cr_sim *s, int op, double launch_s, double t_start_s, int *first,
                            int *last);

/* Earliest time task may become ready (an op's start time); default 0. */
cr_status cr_sim_task_not_before(cr_sim *s, int task, double t_s);

/* Sets a task's label for timelines (copied; NULL clears). */
cr_status cr_sim_task_label(cr_sim *s, int task, const char *label);

/* ---------- collectives as dependency graphs of flows (flowsim_coll.c) ---------- */

/* How finely a collective expands. Steps: one flow per rank per algorithm
 * step, with the step's data dependencies (rank i's step k waits for its step
 * k-1 and for step k-1 of the rank that feeds it). Pipelined: one coupled
 * flow per channel and tree/ring that moves all its edges at one rate (NCCL
 * pipelines chunks through the ring, so in steady state every edge runs at
 * the pace of the slowest); its cost is independent of the step count, which
 * is what lets a ring over 8,192 GPUs run in a second. Auto: steps while the
 * expansion stays under CR_SIM_STEP_FLOWS_MAX flows, pipelined above. */
typedef enum { CR_SIM_GRAIN_AUTO, CR_SIM_GRAIN_STEPS, CR_SIM_GRAIN_PIPELINED } cr_sim_grain;

#define CR_SIM_STEP_FLOWS_MAX 50000

/* Whether a grain changes how coll c expands under algorithm a
 * (CR_ALGO_AUTO: NCCL's choice, which may be the ring): only a ring
 * allreduce, allgather or reducescatter runs in steps or pipelined;
 * broadcast and reduce always run a pipelined chain, trees and NVLS are
 * pipelined, the point-to-point patterns one flow a message. */
bool cr_sim_grain_applies(cr_coll c, cr_algo a);

/* The most tasks (flows, compute tasks, delays, markers) one simulator
 * holds, over all its operations together: a scenario's collectives and
 * compute ops share this one budget, so no scenario file, however many ops
 * it lists, holds more. A routed flow costs about 280 bytes at its peak
 * (measured with /usr/bin/time -v: an all-to-all over 512 GPUs of
 * h100-ib-128n, 261,632 flows, 79.7 MB; over 1,024 GPUs, 1,047,552 flows,
 * 303 MB), so 2^24 tasks are about 4.7 GB. An all-to-all over 4,096 GPUs
 * (16,773,120 flows) fits; over 8,192 (67 million) one flow a pair is
 * refused with CR_ERANGE rather than exhaust memory, as is the op that
 * would take a scenario past the budget, unless it runs by symmetry
 * (cr_sim_set_symmetry). cr_sim_set_task_limit lowers it. */
#define CR_SIM_FLOWS_MAX (1L << 24)

/* One message size of an all-to-all-v and how a message of that size
 * moves (cr_sim_coll_spec sizes): NCCL picks each peer message's channels
 * and protocol by its own size (src/enqueue.cc addP2pToPlan), so messages
 * of one op run at different rates and latencies. */
typedef struct {
    double bytes;   /* the message's payload, > 0 */
    double bw_eff;  /* (0, 1]: its flow carries bytes / bw_eff on the wire */
    double cap_Bps; /* its flow's most rate, wire bytes a second (the channels
                       NCCL gives it); 0 none */
    double lat_s;   /* its one step's latency, counted after the op's launch_s */
} cr_sim_msg_size;

/* One collective to expand. Start from cr_sim_coll_spec_from_pred(). */
typedef struct {
    cr_coll coll;
    double bytes;                 /* nccl-tests size (coll.h) */
    int root;                     /* op rank of the root for rooted collectives */
    cr_algo algo;                 /* ring, tree, nvls, nvlstree, pat, direct */
    int nchannels;                /* parallel rings/trees (>= 1) */
    double launch_s;              /* fixed cost before the first step */
    double step_lat_s;            /* latency of one step (at least the route's hop latency) */
    double bw_eff;                /* fraction of link bandwidth the protocol reaches, (0, 1] */
    double ring_cap_Bps;          /* ring (and its broadcast/reduce chain): the op's rate
                                     through a rank, all channels together (payload bytes a
                                     second), where NCCL's channels cap it below what the
                                     links reach (cr_coll_pred link_eff): the ring's flows
                                     then carry their bytes at link_eff (or their hop's
                                     eff_shm), each channel's at most ring_cap_Bps /
                                     channels; 0 none (bw_eff) */
    double link_eff;              /* with ring_cap_Bps: the links' efficiency, (0, 1] */
    int net_nics;                 /* ring, tree, NVLS tree: the ranks of a node cross to
                                     other nodes through at most this many of their NICs
                                     together (cr_coll_pred net_nics); 0 no limit */
    double msg_cap_Bps;           /* direct patterns: each message's flow at most this rate
                                     (NCCL's channels bind a point-to-point message, not the
                                     links it shares: cr_coll_pred per_message); 0 none */
    double eff_mate;              /* direct patterns (and a ring's hops, not through
                                     direct neighbours): each message's efficiency by
                                     its NCCL transport in place of bw_eff
                                     (cr_coll_pred): node-mates directly, */
    double eff_shm;               /* node-mates through host memory, */
    double eff_net;               /* ranks of different nodes; 0: bw_eff */
    bool allpairs;                /* direct allreduce as a reduce-scatter then an allgather
                                     between every pair (RCCL's MSCCL all-pairs, two steps);
                                     false: one-shot, every rank sends all to every rank */
    const double *matrix;         /* alltoall only, optional: n x n bytes, row = sender
                                     (all-to-all-v); NULL = bytes/n to every rank */
    const cr_sim_msg_size *sizes; /* with matrix, optional: n_sizes entries in
                             ascending bytes, one for every nonzero matrix entry,
                             each message then taking its size's bw_eff, cap and
                             step latency in place of bw_eff, msg_cap_Bps and
                             step_lat_s; NULL = those for every message */
    int n_sizes;
    double t_start_s; /* earliest start */
    int stream;       /* timeline tid */
    const char *name; /* op name (copied); NULL = the collective's name */
    cr_sim_grain grain;
    double local_s; /* one rank, out of place: NCCL's local copy kernel, the
                       time coll predicts for it after the launch (a delay
                       on that rank); 0 none */
} cr_sim_coll_spec;

/* A spec that expands the algorithm, channels, latencies and protocol
 * efficiency of a closed-form prediction (coll.h), so that without
 * contention the simulator reproduces pred_s. */
cr_sim_coll_spec cr_sim_coll_spec_from_pred(cr_coll c, double bytes, const cr_coll_pred *p);

/* Expands a collective over the given topology GPU ranks (rank i of the
 * array is op rank i) into flows, with start/end markers (cr_sim_op_markers).
 * On success *op is the new op. Errors: CR_EINVAL (bad spec: bytes, channels,
 * efficiency, root, matrix entries, a size table out of order or missing a
 * matrix entry's size), CR_ERANGE (the expansion would take
 * the simulator past its task budget, CR_SIM_FLOWS_MAX or
 * cr_sim_set_task_limit), CR_EUNSUPPORTED (an algorithm this
 * collective or topology cannot run, e.g. nvls without a multicast switch),
 * CR_ENOTFOUND (two ranks without a route), CR_ENOMEM; d says which. */
cr_status cr_sim_coll_add(cr_sim *s, const cr_sim_coll_spec *sp, const int *ranks, int n, int *op,
                          cr_diag *d);

/* A compute op: every rank computes for dur_s, streaming hbm_bytes through
 * its HBM (cr_sim_compute_add), starting no earlier than t_start_s. Errors:
 * CR_EINVAL (dur_s, hbm_bytes or t_start_s negative or not finite, a bad
 * rank list), CR_ERANGE (past the task budget), CR_ENOMEM; d says which. */
cr_status cr_sim_compute_op_add(cr_sim *s, const char *name, const int *ranks, int n, double dur_s,
                                double hbm_bytes, double t_start_s, int stream, int *op,
                                cr_diag *d);

/* Op `after` starts only when op `before` has finished on every rank.
 * Errors: CR_EINVAL (bad ops or ops without markers), CR_ENOMEM. */
cr_status cr_sim_op_after(cr_sim *s, int before, int after);

/* Resource index helpers: link l in the direction leaving device `from`
 * (the b-to-a direction for any `from` other than the link's a), the HBM of
 * GPU rank r, the reduction engine of switch device v; -1 for an index out
 * of range or a switch without one. cr_sim_n_res: how many resources. */
int cr_sim_res_link(const cr_sim *s, int l, int from);
int cr_sim_res_hbm(const cr_sim *s, int rank);
int cr_sim_res_reduce(const cr_sim *s, int dev);
int cr_sim_n_res(const cr_sim *s);

/* The route from GPU rank a to GPU rank b as resource uses (links only),
 * fractions summing per hop layer to 1, and its latency (the slowest hop
 * sequence). Between nodes it leaves and enters through the NICs NCCL
 * gives a and b when every GPU is a rank (doc/simulator.md, Routes).
 * *uses is borrowed and valid until the next call that adds tasks or
 * routes. Errors: CR_ENOTFOUND (no path), CR_EINVAL, CR_ENOMEM. */
cr_status cr_sim_route(cr_sim *s, int a, int b, const cr_sim_use **uses, int *n, double *lat_s);

/* The path a flow of op from GPU rank a to GPU rank b takes
 * (cr_sim_flow_add): the route, or with NCCL's PXN relay (inter-node,
 * different rail, the relay a rank of op; op -1: any GPU may relay) the
 * route to the relay GPU followed by the relay's route, each through the
 * NICs NCCL gives its two GPUs among op's ranks, or through host memory
 * (NCCL's SHM, route.h cr_route_pcie_p2p: GPUs of one node without
 * scale-up links or PCIe peer access) up to b's nearest CPU and down, as
 * link uses (legs concatenated) and its latency (sum of the legs'). *uses is borrowed and
 * valid until the next call that adds tasks or routes; a == b gives no
 * uses and 0 latency. Errors: CR_ENOTFOUND, CR_EINVAL, CR_ENOMEM. */
cr_status cr_sim_path(cr_sim *s, int op, int a, int b, const cr_sim_use **uses, int *n,
                      double *lat_s);

/* Computes and caches the routes among all pairs of the given GPU ranks
 * grouped by source, so that one shortest-path search per source serves
 * them all (an all-to-all's flows then find their routes cached). Errors:
 * CR_ENOMEM. Pairs without a route are left for the flows to report. */
cr_status cr_sim_route_prewarm(cr_sim *s, const int *ranks, int n);

/* The router's state after one all-pairs prewarm, kept for the next
 * simulator of a sweep: the sizes of `commroof sim` build a new simulator
 * each, and each searched the same routes again (an all-to-all over the
 * 1,024 GPUs of h100-ib-128n: 137,216 routes at each of 20 sizes), though
 * routes do not depend on the bytes. A simulator given a
 * memo (cr_sim_set_route_memo) whose first route search is a prewarm
 * (cr_sim_route_prewarm; a collective's all-pairs expansion runs one)
 * over the ranks, topology and route budget of the prewarm the memo holds
 * takes a copy of the state that prewarm left (routes, their order and
 * indices, caches, search state, work counted, statistics) instead of
 * searching; otherwise it searches, and the memo keeps a copy of what a
 * prewarm that was the simulator's first route search left. The routes
 * of a prewarm are a function of that state and those inputs alone, so
 * every result is the one the searches give. The topology must stay
 * unchanged while the memo is in use; a memo is not shared between
 * threads. Errors: CR_ENOMEM. */
typedef struct cr_sim_route_memo cr_sim_route_memo;
cr_status cr_sim_route_memo_new(cr_sim_route_memo **out);

/* Frees m; NULL is a no-op. */
void cr_sim_route_memo_free(cr_sim_route_memo *m);

/* Has s use memo m (borrowed: it must outlive s's prewarms; NULL: none). */
void cr_sim_set_route_memo(cr_sim *s, cr_sim_route_memo *m);

/* How many prewarms took m's copy rather than searching (0 for NULL). */
long cr_sim_route_memo_uses(const cr_sim_route_memo *m);

/* Progress of a run: tasks finished of n_tasks, simulated time now_s. */
typedef void (*cr_sim_progress_fn)(void *ctx, long finished, long n_tasks, double now_s);

/* Has cr_sim_run call fn(ctx, ...) every 65,536 events (NULL: never), so a
 * front end can show progress of a long run; the library itself prints
 * nothing. */
void cr_sim_set_progress(cr_sim *s, cr_sim_progress_fn fn, void *ctx);

/* The scale-up domain of GPU rank (GPUs joined by NVLink, XGMI or ICI,
 * through switches or directly: an NVL72 rack is one domain of 18 nodes, a
 * TPU torus one domain); -1 for a bad rank. */
int cr_sim_gpu_domain(const cr_sim *s, int rank);

/* Runs the simulation to completion. Errors: CR_EINVAL when the dependency
 * graph has a cycle (with a task in it named in d), CR_ENOMEM. Call once. */
cr_status cr_sim_run(cr_sim *s, cr_diag *d);

/* Results, valid after cr_sim_run: the makespan, and by index the ops
 * (0..cr_sim_n_ops), tasks (0..cr_sim_n_tasks) and resources
 * (0..cr_sim_n_res) as copies of their figures; an index out of range gives
 * all zeros and NULL pointers. The pointers in them (names, ranks,
 * rank_end_s, labels) are borrowed from s: valid until cr_sim_free, not to
 * be freed. */
double cr_sim_makespan_s(const cr_sim *s);
int cr_sim_n_ops(const cr_sim *s);
cr_sim_op_result cr_sim_op_get(const cr_sim *s, int op);
long cr_sim_n_tasks(const cr_sim *s);
cr_sim_task_info cr_sim_task_get(const cr_sim *s, long task);
cr_sim_res_stat cr_sim_res_get(const cr_sim *s, int res);
cr_sim_stats cr_sim_stats_get(const cr_sim *s);

/* A short name for a resource: "n0.gpu0->n0.nvsw1", "hbm n0.gpu3",
 * "reduce n0.nvsw2". Writes into buf (size bytes, truncated to fit; "" for
 * a resource out of range), returns buf. */
char *cr_sim_res_name(const cr_sim *s, int res, char *buf, size_t size);

/* Bytes of memory the simulator holds now (for benchmarks). */
size_t cr_sim_mem_bytes(const cr_sim *s);

#ifdef __cplusplus
}
#endif

#endif
