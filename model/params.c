/* SPDX-License-Identifier: MIT */
/*
 * Per-generation model constants (see params.h). One table row per key:
 * the four generation defaults (other, Ampere, Hopper, Blackwell), the
 * unit, and where each number comes from. "fit" marks a constant fitted to
 * a published measurement; "check" figures that were not fitted are listed
 * in doc/bounds.md with the model's error on them.
 */
#include "params.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "strdist_priv.h"

enum { K_DOUBLE, K_INT };

struct key {
    const char *key;
    size_t off;
    int type;
    double def[CR_GEN__COUNT]; /* other, Ampere, Hopper, Blackwell */
    double lo, hi;             /* valid range, inclusive */
    const char *unit;
    const char *source;
};

#define OFF(f) offsetof(cr_params, f)
#define HOP_SIMPLE 0.815 /* fit, see coll.eff.simple */
/* Fitted by tools/fit_nccl_corpus.py (paste its output here): nccl-tests
 * latency beyond two ranks of one node (algo.c corpus_lat_s). The lowest
 * objective of three starts (doc/corpus.md Session 7: 0.2898, 0.2898,
 * 0.2997), from the session 6 constants with --start
 * slingshot:coll.net.lat=1e-7 --start slingshot:coll.p2p.peer.net=15e-6
 * --start slingshot:coll.net.eager=4096 --start slingshot:coll.net.rndv=10e-6
 * --start slingshot:coll.op_fixed.net=1e-6. FIT_EFF_LL_NET (session 19)
 * is 0.45, not the descent's 0.387: the key's source says why. */
/* BEGIN fit_nccl_corpus */
#define FIT_WHEN "2026-12-03"
#define FIT_OP_FIXED 7.75e-06
#define FIT_OP_FIXED_NET 7.01e-06
#define FIT_A_NVL_LL 6.51e-07
#define FIT_A_NVL_LL128 3.89e-06
#define FIT_A_NVL_SIMPLE 6.71e-06
#define FIT_A_NET_LL 4e-06
#define FIT_A_NET_LL128 4e-06
#define FIT_A_NET_SIMPLE 1.4e-05
#define FIT_A_TREE_NET_LL 6.25e-06
#define FIT_A_NVLS 2.5e-05
#define FIT_P2P_INTRA 2.18e-06
#define FIT_P2P_NET 3e-06
#define FIT_HOST_OP 4.2e-06
#define FIT_HOST_OP_CH 4e-08
#define FIT_HOST_OP_P2P 2.59e-07
#define FIT_A_PCI_LL 4.26e-06
#define FIT_EFF_SHM 0.5
#define FIT_EFF_LL_NET 0.45
/* the Ampere column of coll.ll_ch */
#define FIT_LL_CH_AMPERE 3.08e+09
/* the Hopper column of coll.op_fixed.net */
#define FIT_OP_FIXED_NET_HOPPER 5.4e-06
/* the Hopper column of coll.alpha.nvlink.ll128 */
#define FIT_A_NVL_LL128_HOPPER 2.99e-06
/* END fit_nccl_corpus */
/* RCCL's MSCCL all-pairs allreduce on 8 MI300X (AMD generation "other";
 * NVIDIA GPUs never take the path): fitted on the fitting half's one MI300X
 * log with one process per GPU, 1 KiB - 16 MiB (doc/corpus.md Session 7) */
#define FIT_MSCCL_LAT_LL 13e-6
#define FIT_MSCCL_LAT_SIMPLE 20e-6
#define FIT_MSCCL_EFF 0.52
#define FIT_MSCCL_SRC                                                                              \
    "fitted: a grid over the three figures on validate/corpus/mi300x-8/"                           \
    "amd-rocmblogs-xgmi-np8-all_reduce_perf.log (fitting half, 15 rows of 1 KiB - 16 MiB); "
#define FIT_SRC                                                                                    \
    "fitted: tools/fit_nccl_corpus.py, validate/corpus fitting half and nccl-tests#123 (" FIT_WHEN \
    "); Blackwell: Hopper's figure, unfitted; other (AMD, pre-Ampere): no log in the fitting "     \
    "half, 0 = NCCL's tables as they are (with RCCL's LL figures on AMD GPUs, "                    \
    "model/algo_tune.c): "
/* clang-format off */
static const struct key keys[] = {
    {"coll.eff.simple", OFF(proto_eff[CR_PROTO_SIMPLE]), K_DOUBLE,
     {0.78, 0.78, HOP_SIMPLE, HOP_SIMPLE}, 0.01, 1, "",
     "fit: 8x H100 NCCL ring allreduce busbw 365-370 GB/s at 1-8 GB over 450 GB/s NVLink4 "
     "(NVIDIA/nccl#1455, nccl-tests#212): 367.5/450; Ampere: NCCL 2.8 tuning.cc caps sm80 "
     "ring busbw at 235 of 300 GB/s; Blackwell: Hopper's fraction, unfitted"},
    {"coll.eff.ll128", OFF(proto_eff[CR_PROTO_LL128]), K_DOUBLE,
     {0.78 * 0.92, 0.78 * 0.92, HOP_SIMPLE * 0.92, HOP_SIMPLE * 0.92}, 0.01, 1, "",
     "Simple x 0.92: LL128 carries 120 data bytes per 128-byte line (NCCL tuning.cc ring LL128 "
     "factor 0.92)"},
    {"coll.eff.ll", OFF(proto_eff[CR_PROTO_LL]), K_DOUBLE,
     {0.78 * 0.5, 0.78 * 0.5, HOP_SIMPLE * 0.5, HOP_SIMPLE * 0.5}, 0.01, 1, "",
     "Simple x 0.5: LL sends 4 data bytes + 4 flag bytes per 8-byte store (NCCL tuning.cc ring "
     "LL factor 0.5)"},
    {"coll.eff.pcie", OFF(pcie_eff), K_DOUBLE, {0.87, 0.87, 0.87, 0.87}, 0.01, 1, "",
     "fit: pinned host copies about 55 GB/s on PCIe Gen5 x16 of 63 GB/s (shared/reference/"
     "hardware.md; our H200 measurement)"},
    {"coll.eff.shm", OFF(shm_eff), K_DOUBLE, {FIT_EFF_SHM, FIT_EFF_SHM, FIT_EFF_SHM, FIT_EFF_SHM},
     0.01, 1, "",
     "fitted: tools/fit_nccl_corpus.py (" FIT_WHEN "), NCCL's SHM transport (no PCIe peer "
     "access, topology route.pcie_p2p 0): the fraction of the host path's rate "
     "(cr_route_host_share_Bps) it reaches beyond coll.eff.pcie; the median over the fitting "
     "half's rows above 64 MiB without peer access (2x A100 SXM4, NCCL_P2P_DISABLE=1, "
     "validate/corpus/pcie-a100sxm-2: 0.502 and 0.498 at 128 and 256 MiB; 64 MiB, not above, "
     "0.504); a host-side "
     "figure, so every generation"},
    {"coll.eff.net", OFF(net_eff), K_DOUBLE, {0.92, 0.92, 0.92, 0.92}, 0.01, 1, "",
     "NVIDIA maintainer, NVIDIA/nccl-tests#290: NDR 400 Gb/s NICs should reach 46-48 GB/s each "
     "through NCCL; the low end, 46/50 (InfiniBand headers at 4 KiB MTU, proxy overhead); "
     "checked, not fitted, against 2x8 H200 allreduce (nccl-tests#256, doc/bounds.md 2.2.1)"},
    {"coll.eff.net.p2p", OFF(p2p_net_eff), K_DOUBLE, {0, 0, 0, 0}, 0, 1, "",
     "0 (shipped): coll.eff.net's figure. The network's efficiency for point-to-point traffic "
     "across nodes (NCCL's sendrecv, all-to-all, gather and scatter, and custom kernels' direct "
     "patterns: algo_direct.c), a figure of its own "
     "for calibrate: a machine's all-to-all can run below its rings (validate/corpus fitting "
     "half, Polaris on Slingshot-11: all-to-all at 0.48-0.51 of the model above 64 MiB on 2 and "
     "8 nodes where the same machine's rings are at 0.79-0.80; doc/corpus.md Session 45), and a "
     "fit on all-to-all rows moved coll.eff.net to 0.39 and every ring 2x slow"},
    {"coll.eff.ll.net", OFF(ll_net_eff), K_DOUBLE,
     {FIT_EFF_LL_NET, FIT_EFF_LL_NET, FIT_EFF_LL_NET, FIT_EFF_LL_NET}, 0.01, 1, "",
     "fitted: tools/fit_nccl_corpus.py --shipped --only coll.eff.ll.net (2026-12-04), the "
     "fitting half's rows up to 8 MiB: LL's rate across nodes as a fraction of what "
     "coll.eff.net and LL's NVLink share of Simple give. The descent's minimum, 0.387 "
     "(objective 0.2953 -> 0.2876), leaves the fitting half's median over systems 0.1 point "
     "worse (12.2 %); 0.45 (0.2879) lowers every median of that half, so 0.45 (doc/corpus.md "
     "Session 19). NCCL keeps a network connection's LL buffers in host memory whatever GPUDirect "
     "RDMA allows (src/transport/net.cc@v2.28.9, NCCL_NET_MAP_ADD_POINTER(..., p != "
     "NCCL_PROTO_LL && useGdr, ...)): the sender's lines cross PCIe to the host, the proxy "
     "polls every line's flags before it posts them, the receiver polls host memory over "
     "PCIe; LL128 and Simple stay in GPU memory. A host-side figure, so every generation"},
    {"coll.eff.nvls", OFF(nvls_eff), K_DOUBLE, {0.70, 0.70, 0.85 * 20.6 / 25, 0.74 * 40.1 / 50},
     0.01, 1, "",
     "NCCL tuning.cc nvlsEfficiency (Hopper 0.85, Blackwell 0.74) times NCCL's NVLink accounting "
     "(topo.h SM90 20.6 of 25 GB/s, SM100 40.1 of 50 GB/s per link)"},
    {"coll.eff.tree", OFF(tree_eff), K_DOUBLE, {1, 1, 1, 1}, 0.01, 1, "",
     "1: the tree runs at the link efficiencies above, as NCCL's own model prices it (tuning.cc "
     "has no tree factor beyond its .92 and 120/128); a machine's own figure comes from "
     "calibrate --nccl-tests on rows NCCL runs as a tree (a 2-node allreduce of 128 MiB and up)"},
    {"coll.ll_max", OFF(ll_max_Bps), K_DOUBLE, {39e9, 87.7e9, 141e9, 282e9}, 1e6, 1e15, "B/s",
     "NCCL tuning.cc llMaxBws, one node (Volta 39, Ampere 87.7, Hopper 141, Blackwell 282 GB/s)"},
    {"coll.ll128_ch", OFF(ll128_ch_Bps), K_DOUBLE, {20e9, 20e9, 36.7e9, 40e9}, 1e6, 1e15, "B/s",
     "NCCL tuning.cc perChMaxRingLL128Bws"},
    {"coll.simple_ch", OFF(simple_ch_Bps), K_DOUBLE, {40e9, 40e9, 60e9, 90e9}, 1e6, 1e15, "B/s",
     "NCCL search.cc: largest per-channel speed it searches (speedArrayIntra 40, sm90 60, sm100 "
     "90 GB/s)"},
    {"coll.nccl_version", OFF(nccl_version), K_INT, {22809, 22809, 22809, 22809}, 21800, 99999,
     "",
     "the NCCL release whose choices the model follows, as NCCL_VERSION_CODE spells it (22809 = "
     "2.28.9, whose src/graph/tuning.cc the tables here come from); read from an nccl-tests log "
     "that prints nccl-library=; it decides LL128 across nodes where the GPU reaches its NIC "
     "over C2C (NCCL 2.27 added PATH_P2C)"},
    {"coll.nchannels", OFF(nchannels), K_INT, {8, 16, 16, 16}, 1, 64, "",
     "estimate: channel counts NCCL_DEBUG=INFO reports on HGX boards (16 on 8x H100); "
     "unverified"},
    {"coll.ch_min.ll", OFF(ch_min_bytes[CR_PROTO_LL]), K_DOUBLE, {4096, 4096, 4096, 4096}, 1,
     1e12, "B", "NCCL comm.h LL thread threshold 8 B x 512 threads (enqueue.cc channel tuning)"},
    {"coll.ch_min.ll128", OFF(ch_min_bytes[CR_PROTO_LL128]), K_DOUBLE, {5120, 5120, 5120, 5120},
     1, 1e12, "B", "NCCL comm.h LL128 thread threshold 8 B x 640 threads"},
    {"coll.ch_min.simple", OFF(ch_min_bytes[CR_PROTO_SIMPLE]), K_DOUBLE,
     {32768, 32768, 32768, 32768}, 1, 1e12, "B",
     "NCCL comm.h Simple thread threshold 64 B x 512 threads"},
    {"coll.ch_min_traffic", OFF(ch_min_traffic_bytes), K_DOUBLE, {16384, 16384, 16384, 16384}, 0,
     1e12, "B",
     "NCCL 2.28.3 src/enqueue.cc:512 MinTrafficPerChannel 16 KiB (32 KiB from 2.29.2): "
     "scheduleCollTasksToPlan gives a ring or tree collective no more channels than cells of "
     "this much traffic (algo.c plan_channels); the traces are NCCL 2.28.3; 0 = no limit"},
    {"coll.lat_scale", OFF(lat_scale), K_DOUBLE, {1, 1, 1, 1}, 0.01, 100, "",
     "1 = NCCL tuning.cc baseLat/hwLat tables as they are (on AMD GPUs RCCL's for LL, model/algo_tune.c)"},
    {"coll.n2.lat_scale", OFF(n2_lat_scale), K_DOUBLE, {1, 1, 0.520, 1}, 0.01, 100, "",
     "Hopper, fit (tools/fit_n2_lat.py): 2 H200s, ring and tree LL allreduce, allgather, "
     "reducescatter, broadcast, reduce of 8 B - 64 KiB, each timed from the last GPU's start "
     "(doc/validation.md), one thread driving both (traces/nvidia-h200-x2/kernels-nccl-{Ring,"
     "Tree,auto}-LL.json.gz) and one process per GPU (torchrun-nccl-rank{0,1}.json.gz, merged) "
     "together: median signed error 0 at 0.520 x NCCL tuning.cc's baseLat + hwLat x steps over "
     "the even cases (46; median |error| 1.9%), held-out odd cases 2.4% (43); LL only (LL128, "
     "Simple: own keys); others 1"},
    {"coll.n2.lat_scale.ll128", OFF(n2_lat_scale_ll128), K_DOUBLE, {1, 1, 0.616, 1}, 0.01, 100,
     "",
     "Hopper, fit (tools/fit_n2_lat.py): traces/nvidia-h200-x2/kernels-nccl-{Ring,Tree,auto}-"
     "LL128.json.gz, LL128 allreduce, allgather, reducescatter, broadcast, reduce of 8 B - 64 KiB "
     "on 2 H200s timed from the last GPU's start: median signed error 0 at 0.616 x NCCL "
     "tuning.cc's baseLat + hwLat x steps over the even cases (40; median |error| 6.4%), "
     "held-out odd cases 13.3% (37); no LL128 torchrun trace: the same for one process per GPU, "
     "which the last-start timing makes alike; others 1"},
    {"coll.n2.lat_scale.simple", OFF(n2_lat_scale_simple), K_DOUBLE, {1, 1, 0.898, 1}, 0.01,
     100, "",
     "Hopper, fit (tools/fit_n2_lat.py): traces/nvidia-h200-x2/kernels-nccl-{Ring,Tree,auto}-"
     "Simple.json.gz, Simple allreduce, allgather, reducescatter, broadcast, reduce of 8 B - 64 "
     "KiB on 2 H200s timed from the last GPU's start: median signed error 0 at 0.898 x NCCL "
     "tuning.cc's baseLat + hwLat x steps over the even cases (40; median |error| 7.6%), "
     "held-out odd cases 7.1% (37); no small-message Simple in the torchrun trace: the same for "
     "one process per GPU; others 1"},
    {"coll.n2.p2p_ll_lat", OFF(n2_p2p_ll_lat_s), K_DOUBLE, {0, 0, 5.10e-6, 0}, 0, 1, "s",
     "Hopper, fit (tools/fit_n2_lat.py): 2 H200s, sendrecv and alltoall of 1 - 64 KiB in NCCL's "
     "LL, timed from the last GPU's start, one thread driving both (traces/nvidia-h200-x2/"
     "kernels-nccl-auto-LL.json.gz) and one process per GPU (torchrun-nccl-rank{0,1}.json.gz, "
     "merged) together: median signed error 0 at 5.10 us over the even cases (11; median "
     "|error| 3.8%), held-out odd cases 4.4% (11); 0 = NCCL's table (baseLat + hwLat) x "
     "coll.n2.lat_scale"},
    {"coll.launch_gap", OFF(launch_gap_s), K_DOUBLE, {5.50e-6, 5.50e-6, 5.50e-6, 5.50e-6}, 0, 1,
     "s",
     "our measurement (tools/fit_n2_lat.py): one thread driving 2 H200s (traces/nvidia-h200-x2/"
     "kernels-nccl-{Ring,Tree,auto}-{LL,LL128,Simple}.json.gz), 351 NCCL cases of 8 B - 1 MiB: "
     "the second GPU's kernel starts a median 5.50 us after the first's (quartiles 5.18 - "
     "7.23); added per extra GPU one thread drives (cr_coll_req ranks_per_process) to a time "
     "taken from the first GPU's start; validate times trace cases from the last GPU's start "
     "and leaves it out (doc/validation.md); a host cost, so every generation"},
    {"coll.n2.ll.stream", OFF(ll_stream_Bps), K_DOUBLE, {0, 0, 495e9, 0}, 0, 1e15, "B/s",
     "Hopper, fit: traces/nvidia-h200-x2/kernels-nccl-Ring-LL.json.gz, ring LL allreduce, "
     "allgather, reducescatter, broadcast, reduce of 128 MiB and 2 GiB on 2 H200s: median 495 "
     "GB/s of memory-stream bytes (doc/bounds.md 3.5: 8-byte LL stores and flag polls make LL "
     "issue-bound, each primitive's loads and stores cost alike; held-out 32 MiB, 512 MiB, "
     "8 GiB: 495); two ranks only (n >= 3 keep NCCL's llMaxBw until measured); other generations "
     "unmeasured: 0, no stream term"},
    {"coll.n2.ll.stream.tree", OFF(ll_stream_tree_Bps), K_DOUBLE, {0, 0, 455e9, 0}, 0, 1e15,
     "B/s",
     "Hopper, fit (tools/fit_n2_lat.py): traces/nvidia-h200-x2/kernels-nccl-Tree-LL.json.gz, "
     "tree LL allreduce of 128 MiB - 8 GiB on 2 H200s (transfer-bound): median signed error 0 "
     "at 455 GB/s of memory-stream bytes (4 S per GPU, doc/bounds.md 3.5; 8 GiB: 75.8 ms "
     "measured, 69.4 predicted at coll.n2.ll.stream's 495), where the ring reaches 495 with the "
     "same stream count; held-out 32 MiB: +1.1%; two ranks only; 0 = coll.n2.ll.stream"},
    {"coll.step.simple", OFF(simple_step_bytes), K_DOUBLE, {524288, 524288, 524288, 524288}, 1,
     1e12, "B",
     "NCCL init.cc: Simple buffer 4 MiB (NCCL_BUFFSIZE) in NCCL_STEPS = 8 steps per channel; the "
     "first step of every channel fills the pipeline (coll.n2.fill)"},
    {"coll.n2.fill", OFF(ch_fill_Bps), K_DOUBLE, {0, 0, 29.5e9, 0}, 0, 1e15, "B/s",
     "Hopper, fit: traces/nvidia-h200-x2/kernels-nccl.json.gz, broadcast of 4-16 MiB on 2 H200s "
     "takes 8.3-17.8 us more than latency + bytes / rate: the first 512 KiB step of each of 16 "
     "channels at 29.5 GB/s per channel; two ranks only until larger traces exist; 0 = no "
     "fill term"},
    {"coll.n2.ring.ar", OFF(ring2_ar_eff), K_DOUBLE, {0.78, 0.78, 0.733, HOP_SIMPLE}, 0.01, 1, "",
     "fit: traces/nvidia-h200-x2/kernels-nccl.json.gz, ring allreduce of 2 H200s, 1 GiB in 3286 "
     "us: 330 GB/s after latency and fill = 0.733 of 450 (8x H100 n = 8: 0.815; two-rank rings "
     "only, doc/bounds.md 3.3); other generations: coll.eff.simple's figure, unmeasured at n = 2"},
    {"coll.n2.ring.agrs", OFF(ring2_agrs_eff), K_DOUBLE, {0.78, 0.78, 0.62, HOP_SIMPLE}, 0.01, 1, "",
     "fit: traces/nvidia-h200-x2/kernels-nccl.json.gz, ring allgather / reducescatter of 2 H200s, "
     "1 GiB in 2008 / 1954 us: 272 / 280 GB/s per direction after latency and fill, 0.62 of "
     "450 (doc/bounds.md 3.3)"},
    /* nccl-tests beyond two ranks of one node (algo.c corpus_lat_s,
     * doc/corpus.md); FIT_* at the top of this file */
    {"coll.op_fixed", OFF(op_fixed_s), K_DOUBLE, {0, FIT_OP_FIXED, FIT_OP_FIXED, FIT_OP_FIXED}, 0, 1, "s",
     FIT_SRC "fixed cost per operation as nccl-tests times it (host wall clock of back-to-back "
     "launches: launch, kernel prologue and epilogue, host loop; nccl-tests src/common.cu "
     "BenchTime); start: NVIDIA/nccl-tests#123 intercept 5.8 us (DGX A100, 1-channel ring LL "
     "allreduce, 2-8 GPUs: T = 5.8 + 2.0 us x 2(n-1))"},
    {"coll.op_fixed.net", OFF(op_fixed_net_s), K_DOUBLE, {0, FIT_OP_FIXED_NET, FIT_OP_FIXED_NET_HOPPER, FIT_OP_FIXED_NET}, 0, 1, "s",
     FIT_SRC "added to coll.op_fixed when the operation crosses nodes: the network proxy's work "
     "per operation (NCCL's proxy thread posts each operation's receives and sends and "
     "polls their completions, src/proxy.cc; the kernel's first inter-node step waits for "
     "it); one node: 0. Hopper: fitted apart (tools/fit_nccl_corpus.py HOPPER, session 17): "
     "the fitting half's Hopper clusters cross nodes for less (Snellius 2x4 H100: 16-19 us for "
     "an 8-rank ring allgather or tree allreduce of 1 KiB; Nebius 2x8 H100: 31 us for the "
     "16-rank tree, where ABCI's and Sophia's 2x8 A100 take 36)"},
    {"coll.alpha.nvlink.ll", OFF(alpha_s[CR_HW_NVLINK][CR_PROTO_LL]), K_DOUBLE, {0, FIT_A_NVL_LL, FIT_A_NVL_LL, FIT_A_NVL_LL}, 0, 1, "s",
     FIT_SRC "one sequential ring or tree step over NVLink / NVSwitch, LL; start: "
     "NVIDIA/nccl-tests#123, 2.0 us per LL ring step (NCCL tuning.cc hwLat NVLINK 0.6 us)"},
    {"coll.alpha.nvlink.ll128", OFF(alpha_s[CR_HW_NVLINK][CR_PROTO_LL128]), K_DOUBLE, {0, FIT_A_NVL_LL128, FIT_A_NVL_LL128_HOPPER, FIT_A_NVL_LL128}, 0, 1, "s",
     FIT_SRC "one sequential step over NVLink / NVSwitch, LL128 (NCCL tuning.cc hwLat NVLINK ring "
     "1.9 us). Hopper: fitted on the fitting half's Hopper logs alone (tools/fit_nccl_corpus.py "
     "--shipped --only hopper:coll.alpha.nvlink.ll128 --limit 67108864, session 46: 3.89 -> "
     "2.99 us, objective 0.2863 -> 0.2845; 0.2923 -> 0.2907 on the default rows up to 8 MiB, "
     "where 2.99 is a minimum too; session 26 tried it with an Ampere figure and dropped both), whose 8x H100 ring LL128 rows of 4-32 MiB were "
     "10-58 % slow with the shared figure (Together, NCCL 2.26.2; LLM-jp, NCCL 2.22.3) while "
     "the Ampere boxes' were 12-53 % fast; Blackwell keeps the shared figure (the 8x B200's "
     "16 MiB LL128 rows are 42-44 % fast with it already)"},
    {"coll.alpha.nvlink.simple", OFF(alpha_s[CR_HW_NVLINK][CR_PROTO_SIMPLE]), K_DOUBLE, {0, FIT_A_NVL_SIMPLE, FIT_A_NVL_SIMPLE, FIT_A_NVL_SIMPLE}, 0, 1, "s",
     FIT_SRC "one sequential ring step over NVLink / NVSwitch, Simple (two slice handshakes: src/device/prims_simple.h, collectives.h; a broadcast's or reduce's chain hop pays half of it on Hopper and Blackwell, the whole on Ampere, doc/corpus.md Sessions 16 and 24; NCCL tuning.cc hwLat NVLINK "
     "ring 3.4 us)"},
    {"coll.chain.simple", OFF(chain_simple), K_DOUBLE, {1, 1, 0.5, 0.5}, 0.1, 1, "",
     "the share of coll.alpha.nvlink.simple (a ring allreduce's step: two slices a chunk, "
     "ALLREDUCE_CHUNKSTEPS / ALLREDUCE_SLICESTEPS = 4 / 2, src/include/collectives.h) a "
     "broadcast's or reduce's Simple chain hop pays: its chunk is one slice "
     "(BROADCAST_ / REDUCE_SLICESTEPS 1) and a Simple step waits for and posts every slice "
     "(src/device/prims_simple.h genericOp), so 0.5. Hopper and Blackwell 0.5: the fitting "
     "half's 8x H100 (NCCL 2.22.3) and 8x B200 (2.29.3) broadcasts and reduces of 0.5-16 MiB "
     "(+28..+69 % slow with the whole step); Ampere and others 1: its two 8x A100 nodes (ABCI, "
     "NCCL 2.8.4; SuperBench) run every collective slower than the model at 256 KiB-16 MiB and "
     "take the whole step (-28..-53 % fast with half); generation or release, the corpus cannot "
     "tell (doc/corpus.md Session 24). What PCIe adds to a step stays whole"},
    {"coll.alpha.pci.ll", OFF(alpha_s[CR_HW_PCI][CR_PROTO_LL]), K_DOUBLE, {0, FIT_A_PCI_LL, FIT_A_PCI_LL, FIT_A_PCI_LL}, 0, 1, "s",
     FIT_SRC "one sequential step over PCIe (through the host where GPUs have no peer path), LL; "
     "start: coll.alpha.nvlink.ll + NCCL's PCI - NVLINK difference (tuning.cc hwLat ring LL "
     "1.0 - 0.6 us @v2.28.9)"},
    {"coll.alpha.pci.ll128", OFF(alpha_s[CR_HW_PCI][CR_PROTO_LL128]), K_DOUBLE, {0, FIT_A_NVL_LL128 + 0.6e-6, FIT_A_NVL_LL128_HOPPER + 0.6e-6, FIT_A_NVL_LL128 + 0.6e-6}, 0, 1, "s",
     "coll.alpha.nvlink.ll128 + NCCL's PCI - NVLINK difference (tuning.cc hwLat ring LL128 2.5 - "
     "1.9 us); unfitted"},
    {"coll.alpha.pci.simple", OFF(alpha_s[CR_HW_PCI][CR_PROTO_SIMPLE]), K_DOUBLE, {0, FIT_A_NVL_SIMPLE + 2.3e-6, FIT_A_NVL_SIMPLE + 2.3e-6, FIT_A_NVL_SIMPLE + 2.3e-6}, 0, 1, "s",
     "coll.alpha.nvlink.simple + NCCL's PCI - NVLINK difference (tuning.cc hwLat ring Simple 5.7 "
     "- 3.4 us); unfitted"},
    {"coll.alpha.net.ll", OFF(alpha_s[CR_HW_NET][CR_PROTO_LL]), K_DOUBLE, {0, FIT_A_NET_LL, FIT_A_NET_LL, FIT_A_NET_LL}, 0, 1, "s",
     FIT_SRC "one sequential ring step across nodes (NIC, proxy, switch), LL, without the plugin's "
     "coll.net.lat (NCCL tuning.cc hwLat NET ring 2.7 us; a ring's with one rank per node at NCCL's "
     "tree/ring ratio, 5.0/2.7: algo.c corpus_lat_s; a tree's: coll.alpha.net.tree.ll)"},
    {"coll.alpha.net.ll128", OFF(alpha_s[CR_HW_NET][CR_PROTO_LL128]), K_DOUBLE, {0, FIT_A_NET_LL128, FIT_A_NET_LL128, FIT_A_NET_LL128}, 0, 1, "s",
     FIT_SRC "one sequential step across nodes, LL128 (NCCL tuning.cc hwLat NET ring 4.0 us)"},
    {"coll.alpha.net.simple", OFF(alpha_s[CR_HW_NET][CR_PROTO_SIMPLE]), K_DOUBLE, {0, FIT_A_NET_SIMPLE, FIT_A_NET_SIMPLE, FIT_A_NET_SIMPLE}, 0, 1, "s",
     FIT_SRC "one sequential step across nodes, Simple (NCCL tuning.cc hwLat NET 14 us)"},
    {"coll.alpha.net.tree.ll", OFF(alpha_tree_net_s[CR_PROTO_LL]), K_DOUBLE, {0, FIT_A_TREE_NET_LL, FIT_A_TREE_NET_LL, FIT_A_TREE_NET_LL}, 0, 1, "s",
     "fitted: tools/fit_nccl_corpus.py --only coll.alpha.net.tree.ll (" FIT_WHEN ", session 11), "
     "the other constants held: one step of a tree across nodes, LL, without the plugin's "
     "coll.net.lat; start 7.41 us, coll.alpha.net.ll x NCCL's tree/ring ratio (tuning.cc hwLat "
     "NET tree LL 5.0 against ring 2.7 us), which priced it until then; objective 0.3509 -> "
     "0.3474 at 6.25 us. A ring's network step and a tree's pulled the one shared figure "
     "opposite ways (the fitting half's 2-node tree LL rows 6-72 % slow, its ring LL rows "
     "across nodes 12-37 % fast, one broken run 90 %); the full descent with it (0.3384) moves coll.op_fixed.net "
     "to 10.8 us and leaves the fitting half's per-system medians worse: not kept "
     "(doc/corpus.md Session 11)"},
    {"coll.alpha.net.tree.ll128", OFF(alpha_tree_net_s[CR_PROTO_LL128]), K_DOUBLE, {0, 8.5e-6, 8.5e-6, 8.5e-6}, 0, 1, "s",
     "one step of a tree across nodes, LL128: NCCL tuning.cc hwLat NET tree LL128 8.5 us "
     "(@v2.28.9); unfitted"},
    {"coll.alpha.net.tree.simple", OFF(alpha_tree_net_s[CR_PROTO_SIMPLE]), K_DOUBLE, {0, 14e-6, 14e-6, 14e-6}, 0, 1, "s",
     "one step of a tree across nodes, Simple: NCCL tuning.cc hwLat NET tree Simple 14 us "
     "(@v2.28.9); unfitted"},
    {"coll.alpha.nvls", OFF(nvls_alpha_s), K_DOUBLE, {0, FIT_A_NVLS, FIT_A_NVLS, FIT_A_NVLS}, 0, 1, "s",
     "held, not fitted (tools/fit_nccl_corpus.py): NVLS / NVLS tree inside a node, once per "
     "operation: NCCL tuning.cc hwLat NVLINK NVLS 25 us. Until session 10 raised to 32 us, the "
     "least value at which NCCL's own switch from ring LL to NVLS (allreduce at 2-4 MiB on "
     "hgx-h100/h200/b200-8) was not a drop in predicted time (test_coll test_auto_monotone); "
     "with NVLS's cost per loop (coll.nvls.loop) 25 us passes, and the fitting objective is "
     "lower there (0.3512 at 32, 0.3509 at 28, 0.3507 at 25 us); constant in the ranks "
     "(nccl#1259 reports growth with ranks)"},
    {"coll.nvls.loop", OFF(nvls_loop_s), K_DOUBLE, {0, 0, 3.5e-6, 3.5e-6}, 0, 1, "s",
     "Hopper, fit: NVLS allreduce inside a node, each loop of its kernel (every channel and "
     "head one chunk, algo.c nvls_chunk_bytes after NCCL src/enqueue.cc); a scan of 0-6 us "
     "(tools/corpus_eval.py --param) on the fitting half's NVLS rows (validate/corpus/h100-8/"
     "together-h100-nvls-all_reduce_perf.log, 13 rows of 2 MiB - 8 GiB): mean |ln(pred/"
     "measured)| 0.092 at 0, 0.059 at 2, 0.0515 at 3, 0.0510 at 3.5, 0.053 at 4 us; raising "
     "coll.eff.nvls with it (0.72-0.77) fits worse, NCCL's figure kept; the NVLS tree pays it "
     "per loop inside each node too, not refitted (its fitting-half rows 0.167 -> 0.157); "
     "Blackwell: Hopper's figure, unfitted; no NVLS before Hopper"},
    {"coll.net.lat", OFF(net_lat_s), K_DOUBLE, {0, 0, 0, 0}, 0, 1, "s",
     "a topology's figure: the network plugin's own latency per inter-node step (NCCL "
     "graph->latencyInter = ncclNet props.latency, counted twice for Simple, tuning.cc:356-359 "
     "@v2.28.9): built-in IB and socket report 0 (net_ib.cc, net_socket.cc), aws-ofi-nccl on EFA "
     "OFI_NCCL_NET_LATENCY 75 us (150 in older releases); 0 = InfiniBand / RoCE"},
    {"coll.msccl.lat.ll", OFF(msccl_lat_s[CR_PROTO_LL]), K_DOUBLE, {FIT_MSCCL_LAT_LL, 0, 0, 0}, 0, 1, "s",
     FIT_MSCCL_SRC "RCCL's MSCCL all-pairs allreduce with LL (algo.c cr_algo_msccl_proto: 8 "
     "MI300X, one process per GPU, up to 512 KiB): the whole operation's fixed time"},
    {"coll.msccl.lat.simple", OFF(msccl_lat_s[CR_PROTO_SIMPLE]), K_DOUBLE, {FIT_MSCCL_LAT_SIMPLE, 0, 0, 0}, 0, 1, "s",
     FIT_MSCCL_SRC "the same with Simple (512 KiB - 16 MiB)"},
    {"coll.msccl.eff", OFF(msccl_eff), K_DOUBLE, {FIT_MSCCL_EFF, 1, 1, 1}, 0.01, 1, "",
     FIT_MSCCL_SRC "the fraction of the scale-up links' peak the all-pairs kernels reach (LL "
     "moves half of it: its flags); the ROCm blog's own xGMI measurement is 45-48 of 64 GB/s a "
     "link"},
    {"coll.net.eager", OFF(net_eager_B), K_DOUBLE, {0, 0, 0, 0}, 0, 1e9, "B",
     "a topology's figure: the largest network message (wire bytes: LL lines count twice) the "
     "network plugin sends eagerly, a larger one paying coll.net.rndv for its rendezvous; 0 = "
     "every message alike (NCCL's IB transport writes each message after the receiver's "
     "clear-to-send, whatever its size: net_ib.cc). libfabric CXI (Slingshot) sends small "
     "messages eagerly and larger ones by rendezvous with a Get from the receiver (prov/cxi "
     "cxip_env: rdzv_eager_size, rdzv_threshold, rdzv_get_min 2049 \"avoid single packet "
     "Gets\"): the Slingshot topologies carry the fitted figure"},
    {"coll.net.rndv", OFF(net_rndv_s), K_DOUBLE, {0, 0, 0, 0}, 0, 1, "s",
     "a topology's figure: added to a network step whose message exceeds coll.net.eager (the "
     "rendezvous' request and Get: a round trip more); 0 with coll.net.eager 0"},
    {"coll.p2p.net_ch", OFF(p2p_net_ch_Bps), K_DOUBLE, {14e9, 14e9, 14e9, 14e9}, 1e6, 1e15, "B/s",
     "NCCL src/graph/paths.cc NCCL_P2P_PER_CHANNEL_NET_BW, 14 GB/s (2.29.2): what NCCL counts one "
     "channel of a point-to-point operation to another node to move; a send to one remote peer "
     "runs on NCCL's channels per net peer (algo_p2p.c algo_p2p_net_channels), so at most that many "
     "times this"},
    {"coll.p2p.nvl_ch", OFF(p2p_nvl_ch_Bps), K_DOUBLE, {0, 0, 19.3e9, 21.8e9}, 0, 1e15, "B/s",
     "measured: what one channel of a point-to-point operation moves over NVLink; a message "
     "runs on the channels NCCL splits it over (algo_p2p.c algo_p2p_message_channels), so at "
     "most that many times this. Hopper: 2 H200s, NCCL 2.28.3, sendrecv of 32 and 128 MiB on "
     "16 channels each: 138.82 and 464.74 us, 96 MiB more in 325.9 us = 308.9 GB/s, 19.3 a "
     "channel (traces/nvidia-h200-x2/kernels-nccl-auto-Simple.log). Blackwell, fitted on the "
     "fitting half: 8 B200s (NCCL 2.29.3, -g 8), sendrecv of 16 and 64 MiB on 4 channels each "
     "(8 ranks of an NVSwitch board): 215.72 and 792.92 us, 48 MiB more in 577.2 us = 87.2 "
     "GB/s, 21.8 a channel (validate/corpus/b200-8/aicr-b0027-sendrecv_perf.log; 256 MiB on "
     "16 channels: 332 GB/s); a gather's or scatter's one-way works twice it (algo_p2p.c algo_p2p_nvl_Bps). 0 (no limit) where not measured: Ampere, others"},
    {"coll.p2p.nvl_ch.direct", OFF(p2p_nvl_direct_ch_Bps), K_DOUBLE, {0, 0, 33.2e9, 0}, 0, 1e15, "B/s",
     "coll.p2p.nvl_ch where one thread drives every GPU of the node (nccl-tests -g N, "
     "cr_coll_req ranks_per_process) and NCCL is older than 2.23: its P2P transport then "
     "connects the ranks of one process with direct "
     "pointers (src/transport/p2p.cc P2P_DIRECT, NCCL_DIRECT_WRITE) and, up to 2.22.3, the "
     "sender writes into the receiver's buffer without registration (src/device/prims_simple.h "
     "@v2.22.3-1: DirectWrite \"in non-register case\"; from 2.23.4 only with registered "
     "buffers), one copy where the FIFO takes two. Fitted on the fitting half, Hopper: 8 H100s "
     "(NCCL 2.22.3, -g 8), sendrecv of 16 and 64 MiB on 4 channels: 135.3 and 514.1 us, 48 MiB "
     "more in 378.8 us = 132.9 GB/s, 33.2 a channel (validate/corpus/h100-8/"
     "sakura-llmjp-h100-1n-sendrecv_perf.log; 8 H200s under NVHPC 23.3's NCCL, release not "
     "printed, give 36.2: validate/corpus/h200-8/mitorcd-h200-node2433-sendrecv_perf.log). 0 "
     "(as coll.p2p.nvl_ch) where not measured"},
    {"coll.p2p.peer.intra", OFF(p2p_peer_s[0]), K_DOUBLE, {0, FIT_P2P_INTRA, FIT_P2P_INTRA, FIT_P2P_INTRA}, 0, 1, "s",
     FIT_SRC "point-to-point (alltoall, gather, scatter, sendrecv): each peer inside the node "
     "(one send/recv pair of NCCL's p2p schedule, enqueue.cc addP2pToPlan)"},
    {"coll.p2p.peer.net", OFF(p2p_peer_s[1]), K_DOUBLE, {0, FIT_P2P_NET, FIT_P2P_NET, FIT_P2P_NET}, 0, 1, "s",
     FIT_SRC "point-to-point: each peer across nodes (the proxy's and the plugin's work per "
     "message, one after another); coll.net.lat once per operation, the messages' wire "
     "latencies overlapping; a topology may carry its own (the Slingshot ones: 15 us)"},
    {"coll.host_op", OFF(host_op_s), K_DOUBLE, {FIT_HOST_OP, FIT_HOST_OP, FIT_HOST_OP, FIT_HOST_OP}, 0, 1, "s",
     FIT_SRC "host time per GPU per operation when one thread drives several GPUs in nccl-tests' "
     "timed loop (-g N: ncclGroupStart, one launch per GPU, ncclGroupEnd; nccl-tests "
     "src/common.cu startColl): an operation takes at least GPUs x this (cr_coll_req "
     "host_loop); start: NVIDIA/nccl-tests#123, -g 2..8 at 10.0 .. 33.7 us = 4.2 us x GPUs, and "
     "the Snellius -g 4 logs of the fitting half (allgather, reducescatter and allreduce all "
     "about 17 us up to 64 KiB although their steps differ 3 to 6); a host cost, so every "
     "generation"},
    {"coll.host_op.ch", OFF(host_op_ch_s), K_DOUBLE, {FIT_HOST_OP_CH, FIT_HOST_OP_CH, FIT_HOST_OP_CH, FIT_HOST_OP_CH}, 0, 1, "s",
     FIT_SRC "coll.host_op's part per work NCCL's host plans: one per channel of a collective "
     "(src/enqueue.cc @v2.28.9: scheduleCollTasksToPlan calls addWorkBatchToPlan for each "
     "channel, finishPlan lays them into the kernel's arguments), one per peer message and "
     "channel of a point-to-point operation (addP2pToPlan; algo_p2p.c algo_host_works), so a "
     "GPU's enqueue grows with them; the fitting half's 8x H100 -g 8 logs "
     "(together-h100-ring-all_gather) print 34.6-35.7 us at 4-64 KiB (40.8 at 16 KiB), where "
     "one to four channels run, and 41.3-41.7 us at 1-4 MiB, where all do, with the GPUs' own "
     "time below both"},
    {"coll.host_op.p2p", OFF(host_op_p2p_s), K_DOUBLE, {FIT_HOST_OP_P2P, FIT_HOST_OP_P2P, FIT_HOST_OP_P2P, FIT_HOST_OP_P2P}, 0, 1, "s",
     FIT_SRC "coll.host_op's part per point-to-point call of the operation, per GPU: nccl-tests' "
     "alltoall calls ncclSend and ncclRecv for every peer inside one group (src/alltoall.cu), "
     "sendrecv one of each, gather and scatter 2 (n - 1) / n on average (algo_p2p.c "
     "algo_host_calls), each an enqueue of its own (ncclSend/ncclRecv -> ncclEnqueueCheck, "
     "src/collectives.cc @v2.28.9) where a collective is one; the fitting half's 8x H100 -g 8 "
     "logs (llm-jp Sakura, NCCL 2.22.3) print 67-70 us for an alltoall up to 128 KiB and 38-41 "
     "us for a sendrecv, where a collective takes 34-38; fitted alone on 2026-12-07, every other "
     "figure as shipped (tools/fit_nccl_corpus.py --shipped --only coll.host_op.p2p: "
     "objective 0.3014 -> 0.3003)"},
    {"coll.ll_ch", OFF(ll_ch_Bps), K_DOUBLE, {0, FIT_LL_CH_AMPERE, 0, 0}, 0, 1e15, "B/s",
     "LL data rate of one channel of a ring where the corpus model predicts (all but two ranks "
     "of one node on NVLink; all channels together at most coll.ll_max; 0 = coll.ll_max for any "
     "channel count). Ampere: fitted, tools/"
     "fit_nccl_corpus.py AMPERE (the fitting half's Ampere logs only, 2026-12-03, --only "
     "ampere:coll.ll_ch, the other constants as committed; floor 3 GB/s, "
     "test_auto_monotone): its ring LL rows ran too fast by a margin growing with the message "
     "(doc/corpus.md Session 13); Hopper, Blackwell, other: 0, their rows show no such margin and "
     "a rate for every generation (4.2 GB/s) bound one channel before its NIC, "
     "test_ring_nic_per_channel. A topology or calibrate --nccl-tests may set it (NCCL tuning.cc "
     "ring LL: 0.5 x the channel's link rate)"},
    {"mech.ce.eff", OFF(mech_eff[CR_MECH_CE]), K_DOUBLE, {0.880, 0.880, 0.883, 0.866}, 0.01, 1, "",
     "fit: traces/nvidia-h200-x2/kernels-p2p.json.gz, copy engine GPU0 -> GPU1 1 GiB in 2703 us: "
     "397.2 of 450 GB/s (check: ParallelKittens arXiv 2511.13940 H100 368.8 GiB/s = 396.0 GB/s; "
     "its figures are binary units, doc/bounds.md 3.2); Blackwell: ParallelKittens B200 726.1 "
     "GiB/s = 779.6 of 900 GB/s; Ampere and others: ParallelKittens' H100 fraction, 396.0 / 450 = "
     "0.880, unfitted (0.82 until 2026-12-07: its 368.8 GiB/s over 450 GB/s)"},
    {"mech.tma.eff", OFF(mech_eff[CR_MECH_TMA]), K_DOUBLE, {0.835, 0.835, 0.830, 0.798}, 0.01, 1, "",
     "fit: traces/nvidia-h200-x2/kernels-p2p.json.gz, TMA pull/push 132 SMs 1 GiB: 375.1 / 372.2 "
     "GB/s, mean 373.7 of 450 (check: ParallelKittens H100 350.0 GiB/s = 375.8 GB/s); "
     "Blackwell: ParallelKittens B200 669.1 GiB/s = 718.4 of 900 GB/s; Ampere and others: "
     "ParallelKittens' H100 fraction, 375.8 / 450 = 0.835, unfitted (0.78 until 2026-12-07: "
     "350.0 GiB/s over 450 GB/s)"},
    {"mech.ldst.eff", OFF(mech_eff[CR_MECH_LDST]), K_DOUBLE, {0.818, 0.818, 0.828, 0.750}, 0.01, 1,
     "",
     "fit: traces/nvidia-h200-x2/kernels-p2p.json.gz, ld/st pull/push 132 SMs 1 GiB: 375.2 / "
     "370.1 GB/s, mean 372.7 of 450 (check: ParallelKittens H100 342.7 GiB/s = 368.0 GB/s); "
     "Blackwell: ParallelKittens B200 628.4 GiB/s = 674.7 of 900 GB/s; Ampere and others: "
     "ParallelKittens' H100 fraction, 368.0 / 450 = 0.818, unfitted (0.76 until 2026-12-07: "
     "342.7 GiB/s over 450 GB/s)"},
    {"mech.multimem.eff", OFF(mech_eff[CR_MECH_MULTIMEM]), K_DOUBLE, {0.818, 0.818, 0.828, 0.750},
     0.01, 1, "", "ParallelKittens: multimem is register ld/st through the switch; ld/st figure"},
    {"mech.ce.half", OFF(mech_half_bytes[CR_MECH_CE]), K_DOUBLE, {6.5e6, 6.5e6, 0, 0}, 0, 1e12,
     "B",
     "Hopper, Blackwell: 0, traces/nvidia-h200-x2/kernels-p2p.json.gz: after its 1.7 us fixed "
     "cost the copy engine runs at its 1 GiB rate from 256 KiB (2.40 us) on; ParallelKittens' "
     "'about 256 MB for over 80%' is host-timed issue cost (Ampere keeps that reading: 6.5 MB)"},
    {"mech.tma.half", OFF(mech_half_bytes[CR_MECH_TMA]), K_DOUBLE, {228, 228, 228, 228}, 0, 1e12,
     "B", "fit: ParallelKittens, TMA near peak (taken as 90%) from about 2 KB messages: 2048/9"},
    {"mech.ldst.half", OFF(mech_half_bytes[CR_MECH_LDST]), K_DOUBLE, {14, 14, 14, 14}, 0, 1e12,
     "B", "fit: ParallelKittens, ld/st efficient (taken as 90%) at 128 B granularity: 128/9"},
    {"mech.multimem.half", OFF(mech_half_bytes[CR_MECH_MULTIMEM]), K_DOUBLE, {14, 14, 14, 14}, 0,
     1e12, "B", "as ld/st (ParallelKittens)"},
    {"mech.tma.sms", OFF(mech_sat_sms[CR_MECH_TMA]), K_DOUBLE, {15, 15, 8.0, 15.4}, 1, 1024, "",
     "fit: traces/nvidia-h200-x2/kernels-p2p.json.gz, one SM moves 50.3 (pull) / 43.2 (push) "
     "GB/s, mean 46.75: 373.7 / 46.75 = 8.0 SMs reach the link (per-SM rate = bytes in flight / "
     "latency, so it depends on the kernel: ParallelKittens' H100 kernel needed about 15); "
     "Blackwell: 718.4 GB/s at Hopper's per-SM rate, unmeasured"},
    {"mech.ldst.sms", OFF(mech_sat_sms[CR_MECH_LDST]), K_DOUBLE, {76, 76, 7.9, 14.3}, 1, 1024, "",
     "fit: traces/nvidia-h200-x2/kernels-p2p.json.gz, one SM moves 48.2 (pull) / 45.9 (push) "
     "GB/s with 16-byte accesses, mean 47.05: 372.7 / 47.05 = 7.9 SMs (ParallelKittens' H100 "
     "kernel, with fewer bytes in flight per SM, needed about 76); Blackwell: 674.7 GB/s at "
     "Hopper's per-SM rate, unmeasured"},
    {"mech.multimem.sms", OFF(mech_sat_sms[CR_MECH_MULTIMEM]), K_DOUBLE, {76, 76, 7.9, 14.3}, 1,
     1024, "", "as ld/st"},
    {"mech.ce.launch", OFF(mech_launch_s[CR_MECH_CE]), K_DOUBLE, {5e-6, 5e-6, 1.7e-6, 1.7e-6}, 0,
     1, "s",
     "fit: traces/nvidia-h200-x2/kernels-p2p.json.gz, a 4 KiB peer copy takes 1.70 us of device "
     "time (Blackwell: Hopper's figure; Ampere: estimate)"},
    {"mech.tma.launch", OFF(mech_launch_s[CR_MECH_TMA]), K_DOUBLE, {4e-6, 4e-6, 1.9e-6, 1.9e-6}, 0,
     1, "s",
     "fit: traces/nvidia-h200-x2/kernels-p2p.json.gz, a 4 KiB TMA copy kernel takes 2.08 (pull) / "
     "1.70 (push) us of device time, mean 1.9 (Blackwell: Hopper's figure; Ampere: estimate)"},
    {"mech.ldst.launch", OFF(mech_launch_s[CR_MECH_LDST]), K_DOUBLE, {4e-6, 4e-6, 1.75e-6, 1.75e-6},
     0, 1, "s",
     "fit: traces/nvidia-h200-x2/kernels-p2p.json.gz, a 4 KiB ld/st copy kernel takes 1.92 (pull) "
     "/ 1.57 (push) us of device time, mean 1.75"},
    {"mech.multimem.launch", OFF(mech_launch_s[CR_MECH_MULTIMEM]), K_DOUBLE,
     {4e-6, 4e-6, 1.75e-6, 1.75e-6}, 0, 1, "s", "as ld/st"},
    {"mech.tma.chunk", OFF(mech_chunk_bytes[CR_MECH_TMA]), K_DOUBLE,
     {32768, 32768, 32768, 32768}, 0, 1e12, "B",
     "crbench's TMA chunk (doc/validation.md: 32 KiB bulk copies): the first chunk crosses one SM "
     "before the link streams; checked on traces/nvidia-h200-x2/kernels-p2p.json.gz (64 KiB: "
     "2.78 us measured (pull), 1.9 + 0.61 + 0.18 modelled)"},
    {"mech.ldst.chunk", OFF(mech_chunk_bytes[CR_MECH_LDST]), K_DOUBLE,
     {16384, 16384, 16384, 16384}, 0, 1e12, "B",
     "fit: traces/nvidia-h200-x2/kernels-p2p.json.gz, all-SM ld/st copies of 1-4 MiB take about "
     "0.35 us over launch + bytes / rate: 0.35 us x 47 GB/s per SM"},
    {"mech.multimem.chunk", OFF(mech_chunk_bytes[CR_MECH_MULTIMEM]), K_DOUBLE,
     {16384, 16384, 16384, 16384}, 0, 1e12, "B", "as ld/st"},
    {"mech.step", OFF(mech_step_s), K_DOUBLE, {2e-6, 2e-6, 1.8e-6, 1.8e-6}, 0, 1, "s",
     "estimate: flag write over NVLink and poll (about 1 us) plus ParallelKittens cross-SM sync "
     "through HBM 0.832 us"},
    {"coll.local.eff", OFF(local_eff), K_DOUBLE, {0.885, 0.885, 0.885, 0.885}, 0.01, 1, "",
     "fit: traces/h200-1/kernels-nccl.json, NCCL allreduce/allgather/reducescatter/broadcast/"
     "reduce on one rank (an out-of-place copy): 1 GiB in 506 us, 2 GiB moved = 4.25 of 4.8 TB/s "
     "(other generations: H200's fraction, unmeasured)"},
    {"coll.local.launch", OFF(local_launch_s), K_DOUBLE, {0.8e-6, 0.8e-6, 0.8e-6, 0.8e-6}, 0, 1,
     "s", "fit: traces/h200-1/kernels-nccl.json, one rank, 1-16 KiB: 0.80 us of device time"},
    {"coll.local.p2p_eff", OFF(local_p2p_eff), K_DOUBLE, {0.79, 0.79, 0.79, 0.79}, 0.01, 1, "",
     "fit: traces/h200-1/kernels-nccl.json, alltoall/sendrecv on one rank (NCCL's send/receive "
     "to itself): 1 GiB in 566-571 us, 3.80 of 4.8 TB/s"},
    {"coll.local.p2p_launch", OFF(local_p2p_launch_s), K_DOUBLE, {4.2e-6, 4.2e-6, 4.2e-6, 4.2e-6},
     0, 1, "s",
     "fit: traces/h200-1/kernels-nccl.json, alltoall/sendrecv on one rank, 64 KiB - 4 MiB: "
     "4.2-4.5 us (Simple)"},
    {"coll.local.p2p_ll_launch", OFF(local_p2p_ll_launch_s), K_DOUBLE,
     {3.2e-6, 3.2e-6, 3.2e-6, 3.2e-6}, 0, 1, "s",
     "fit: traces/h200-1/kernels-nccl.json, alltoall/sendrecv on one rank, 1-16 KiB: 3.2-3.3 us "
     "(LL up to NCCL_P2P_LL_THRESHOLD, 16 KiB)"},
    {"coll.local.l2_x", OFF(local_l2_x), K_DOUBLE, {1.46, 1.46, 1.46, 1.46}, 0.01, 10, "",
     "fit: traces/h200-1/kernels-nccl.json, one-rank copies whose input and output fit in L2 "
     "(1-16 MiB) run at about 7.0 TB/s = 1.46 x the 4.8 TB/s HBM peak"},
};
/* clang-format on */

#define N_KEYS ((int)(sizeof keys / sizeof keys[0]))

cr_gen cr_params_gen(const cr_gpu_spec *spec)
{
    if (!spec || !spec->vendor || strcmp(spec->vendor, "nvidia") != 0)
        return CR_GEN_OTHER;
    if (spec->arch >= 100)
        return CR_GEN_BLACKWELL;
    if (spec->arch >= 90)
        return CR_GEN_HOPPER;
    if (spec->arch >= 80)
        return CR_GEN_AMPERE;
    return CR_GEN_OTHER;
}

static void set_field(cr_params *p, const struct key *k, double v)
{
    char *base = (char *)p;
    if (k->type == K_INT) {
        int iv = (int)lround(v);
        memcpy(base + k->off, &iv, sizeof iv);
    } else {
        memcpy(base + k->off, &v, sizeof v);
    }
}

static double get_field(const cr_params *p, const struct key *k)
{
    const char *base = (const char *)p;
    if (k->type == K_INT) {
        int iv;
        memcpy(&iv, base + k->off, sizeof iv);
        return iv;
    }
    double v;
    memcpy(&v, base + k->off, sizeof v);
    return v;
}

static bool in_range(const struct key *k, double v)
{
    return isfinite(v) && v >= k->lo && v <= k->hi;
}

void cr_params_default(cr_gen gen, cr_params *p)
{
    memset(p, 0, sizeof *p);
    if ((unsigned)gen >= CR_GEN__COUNT)
        gen = CR_GEN_OTHER;
    p->gen = gen;
    for (int i = 0; i < N_KEYS; i++)
        set_field(p, &keys[i], keys[i].def[gen]);
    /* The copy engine uses no SMs; a zero saturating count means "no SM factor". */
    p->mech_sat_sms[CR_MECH_CE] = 0;
}

cr_status cr_params_for_topo(const cr_topo *t, int rank, cr_params *p, cr_diag *d)
{
    const cr_gpu_spec *spec = (rank >= 0 && rank < t->n_gpus) ? cr_topo_gpu_spec(t, rank) : NULL;
    cr_params_default(cr_params_gen(spec), p);
    for (int i = 0; i < N_KEYS; i++) {
        const cr_param *tp = cr_topo_find_param(t, keys[i].key);
        if (!tp)
            continue;
        double v = tp->value;
        if (!in_range(&keys[i], v))
            return cr_diag_set(d, CR_EINVAL,
                               "topology \"%s\": parameter %s = %g is outside its valid range "
                               "[%g, %g]%s%s",
                               t->name, keys[i].key, v, keys[i].lo, keys[i].hi,
                               keys[i].unit[0] ? " " : "", keys[i].unit);
        set_field(p, &keys[i], v);
    }
    return CR_OK;
}

/* The keys a topology's <param> may set besides the table's, each read by
 * its module with its own default through cr_topo_param: the operator
 * catalog's (ops.*, model/ops.c), the router's (route.*, model/route.c),
 * the measured ceilings (coll.ceil.*, model/coll.c), the fused operators'
 * validation (fused.*, validate/families.c), the simulator's PXN switch
 * (sim.pxn, model/flowsim.c) and calibrate's record of an empty kernel
 * (calib.kernel, read by nothing). tests/check_layout.sh checks that every
 * key the sources read or write by name is here or in the table. Each has
 * its unit and the range its reader makes sense of, so that a value out of
 * it is refused when the topology loads, not clamped quietly where it is
 * read (ops.c's clamps stay for topologies built in code). */
#define EFF 1e-3, 1.0   /* a fraction of a datasheet rate */
#define TIME 0.0, 1.0   /* a fixed cost of one operation */
#define RATE 1e6, 1e15  /* a bandwidth: a topology link's range */
#define SWITCH 0.0, 1.0 /* 0 or 1 */
static const struct other_key {
    const char *key;
    const char *unit; /* "" a plain number */
    double lo, hi;
    bool is_switch;
} other_keys[] = {
    {"calib.kernel", "s", TIME, false},
    {"coll.ceil.net", "", EFF, false},
    {"coll.ceil.pcie", "", EFF, false},
    {"coll.ceil.scaleup", "", EFF, false},
    {"fused.host.step", "s", TIME, false},
    {"fused.overlap.slow", "", 1.0, 100.0, false},
    {"ops.ce.d2d", "s", TIME, false},
    {"ops.ce.d2d_eff", "", EFF, false},
    {"ops.ce.d2h", "s", TIME, false},
    {"ops.ce.h2d", "s", TIME, false},
    {"ops.gemm.eff", "", EFF, false},
    {"ops.gemm.mem_eff", "", EFF, false},
    {"ops.gemm.overlap_q", "", 1.0, 1000.0, false},
    {"ops.gemm.power_s", "s", 0.0, 3600.0, false},
    {"ops.gemm.power_slope", "", 0.0, 10.0, false},
    {"ops.gemm.tile_fixed", "s", TIME, false},
    {"ops.hbm.eff", "", EFF, false},
    {"ops.hbm.read_eff", "", EFF, false},
    {"ops.hbm.read_lat", "s", TIME, false},
    {"ops.hbm.reduce_tail", "s", TIME, false},
    {"ops.hbm.turn", "", 1e-3, 1e3, false},
    {"ops.hbm.write_eff", "", EFF, false},
    {"ops.intra_sm.penalty", "", 0.0, 0.9, false},
    {"ops.kernel.fixed", "s", TIME, false},
    {"ops.launch", "s", TIME, false},
    {"ops.launch.event", "s", TIME, false},
    {"ops.launch.graph", "s", TIME, false},
    {"ops.launch.host", "s", TIME, false},
    {"ops.launch.sync", "s", TIME, false},
    {"ops.ldst.fixed", "s", TIME, false},
    {"ops.ldst.sm_bw", "B/s", RATE, false},
    {"ops.pageable.cache_bytes", "B", 0.0, 1e15, false},
    {"ops.pageable.cached_d2h", "B/s", RATE, false},
    {"ops.pageable.cached_h2d", "B/s", RATE, false},
    {"ops.pageable.d2h", "B/s", RATE, false},
    {"ops.pageable.direct_bytes", "B", 0.0, 1e15, false},
    {"ops.pageable.h2d", "B/s", RATE, false},
    {"ops.pcie.eff", "", EFF, false},
    {"ops.smcopy.knee", "", 1.0, 100.0, false},
    {"ops.sync.inter_sm", "s", TIME, false},
    {"ops.sync.intra_sm", "s", TIME, false},
    {"ops.tma.fixed", "s", TIME, false},
    {"ops.tma.sm_bw", "B/s", RATE, false},
    {"ops.torch_op", "s", TIME, false},
    {"ops.vec.eff", "", EFF, false},
    {"route.gpu_transit", "", SWITCH, true},
    {"route.pcie_p2p", "", SWITCH, true},
    {"sim.pxn", "", SWITCH, true},
};
#undef EFF
#undef TIME
#undef RATE
#undef SWITCH

/* The unit and range check one key shares with the table's: unit "" takes
 * a plain number; a plain number for a key with a unit is read in SI base
 * units. */
static cr_status check_value(const char *key, const char *unit, bool whole, double lo, double hi,
                             double value, const char *value_unit, cr_diag *d)
{
    if (value_unit[0] && strcmp(value_unit, unit) != 0)
        return cr_diag_set(d, CR_ERANGE,
                           "parameter %s takes %s%s, not a value in %s (a plain number is read "
                           "in SI base units)",
                           key, unit[0] ? "a value in " : "a plain number", unit, value_unit);
    if (whole && value != floor(value))
        return cr_diag_set(d, CR_ERANGE, "parameter %s is a count: %g is not whole", key, value);
    if (!(isfinite(value) && value >= lo && value <= hi))
        return cr_diag_set(d, CR_ERANGE,
                           "parameter %s = %g is outside its valid range [%g, %g]%s%s", key, value,
                           lo, hi, unit[0] ? " " : "", unit);
    return CR_OK;
}

cr_status cr_params_check_topo_key(const char *key, double value, const char *value_unit,
                                   cr_diag *d)
{
    for (size_t i = 0; i < sizeof other_keys / sizeof other_keys[0]; i++) {
        const struct other_key *o = &other_keys[i];
        if (strcmp(key, o->key) != 0)
            continue;
        if (o->is_switch && (value_unit[0] || (value != 0 && value != 1)))
            return cr_diag_set(d, CR_ERANGE, "parameter %s is a switch: give 0 or 1, not %g%s", key,
                               value, value_unit);
        return check_value(o->key, o->unit, false, o->lo, o->hi, value, value_unit, d);
    }
    for (int i = 0; i < N_KEYS; i++)
        if (strcmp(key, keys[i].key) == 0)
            return check_value(keys[i].key, keys[i].unit, keys[i].type == K_INT, keys[i].lo,
                               keys[i].hi, value, value_unit, d);
    const char *near = NULL;
    int best = 4; /* suggest within three edits */
    for (size_t i = 0; i < sizeof other_keys / sizeof other_keys[0]; i++) {
        int e = cr_edit_distance(key, other_keys[i].key, 64);
        if (e < best)
            best = e, near = other_keys[i].key;
    }
    for (int i = 0; i < N_KEYS; i++) {
        int e = cr_edit_distance(key, keys[i].key, 64);
        if (e < best)
            best = e, near = keys[i].key;
    }
    if (near)
        return cr_diag_set(d, CR_ENOTFOUND,
                           "unknown parameter \"%s\": did you mean \"%s\"? "
                           "(doc/topology-format.md lists the keys)",
                           key, near);
    return cr_diag_set(d, CR_ENOTFOUND,
                       "unknown parameter \"%s\": the keys are coll.*, mech.*, ops.*, route.* as "
                       "doc/topology-format.md lists them",
                       key);
}

cr_status cr_params_set(cr_params *p, const char *key, double value, cr_diag *d)
{
    for (int i = 0; i < N_KEYS; i++) {
        if (!key || strcmp(key, keys[i].key) != 0)
            continue;
        if (!in_range(&keys[i], value))
            return cr_diag_set(d, CR_EINVAL,
                               "parameter %s = %g is outside its valid range [%g, %g]%s%s",
                               keys[i].key, value, keys[i].lo, keys[i].hi,
                               keys[i].unit[0] ? " " : "", keys[i].unit);
        set_field(p, &keys[i], value);
        return CR_OK;
    }
    return cr_diag_set(d, CR_ENOTFOUND, "unknown model parameter \"%s\" (see cr_params_key)",
                       key ? key : "");
}

const char *cr_params_key(int i, const char **source, const char **unit)
{
    if (i < 0 || i >= N_KEYS)
        return NULL;
    if (source)
        *source = keys[i].source;
    if (unit)
        *unit = keys[i].unit;
    return keys[i].key;
}

cr_status cr_params_get(const cr_params *p, const char *key, double *out, cr_diag *d)
{
    for (int i = 0; i < N_KEYS; i++)
        if (key && strcmp(key, keys[i].key) == 0) {
            *out = get_field(p, &keys[i]);
            return CR_OK;
        }
    return cr_diag_set(d, CR_ENOTFOUND, "unknown model parameter \"%s\" (see cr_params_key)",
                       key ? key : "");
}
