/* SPDX-License-Identifier: MIT */
/*
 * Operator evaluation (see ops.h): bound, PyTorch + NCCL baseline, and the
 * intra-SM / inter-SM overlap predictions of the ParallelKittens cost model
 *   T = T_launch + max(T_comp, T_mem, T_comm) + T_non-overlapped + T_sync.
 * doc/operators.md derives every formula. Modelling constants are topology
 * parameters ("ops.*") so that `commroof calibrate` can replace them; the
 * defaults below name their sources.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "bound.h"
#include "grow.h"
#include "ops_priv.h"
#include "route.h"

/* Per-tile math efficiency of a GEMM where the topology has no measured
 * FLOP/s (with one, gemm_eff_from_measured solves it per dtype): cuBLASLt
 * bf16 8192^3 on the lent H200 takes 1367.9 us, 803.8 of 989.5 TFLOP/s
 * (traces/h200-1/kernels-gemm.json); through the tile model (16 waves of
 * 128x256 tiles with DEF_TILE_FIXED_S each) that is 0.87 per tile. */
#define DEF_GEMM_EFF 0.87
/* Multi-GPU operators' HBM traffic (mixed reads and writes of unknown
 * proportion): a 2:1 read/write stream kernel (triad) on the H200 reaches
 * 4.16 of 4.8 TB/s (traces/h200-1/kernels-hbm.json, 256 MiB - 8 GiB). */
#define DEF_HBM_EFF 0.87
/* Copy-engine constants, fitted to the even half of the lent H200's copy
 * sweep (traces/h200-1/kernels-ce.json, 4 KiB to 4 GiB; tools/fit_h200.py,
 * checked on the odd half, doc/validation.md). Pinned copies reach 0.876 of
 * PCIe Gen5 x16's 63 GB/s (55.2 GB/s). Fixed costs (device time): d2d
 * 1.25 us, pinned h2d 3.23 us and d2h 0.90 us over the 0.5 us link
 * latency. Pageable copies up to 1 MiB run as fast as pinned ones (the
 * driver copies them through its staging buffer in one go); above, the
 * host-side staging copy sets the rate: 11.1 GB/s h2d and 12.0 GB/s d2h
 * while the buffer fits the host's caches (up to 32 MiB), 5.3 GB/s and
 * 10.2 GB/s beyond. These are properties of the host: calibrate them on
 * yours. */
#define DEF_PCIE_EFF 0.876
#define DEF_CE_D2D_S 1.25e-6
#define DEF_CE_H2D_S 3.23e-6
#define DEF_CE_D2H_S 0.90e-6
#define DEF_PAGEABLE_DIRECT_BYTES (1024.0 * 1024.0)
#define DEF_PAGEABLE_CACHE_BYTES (32.0 * 1024.0 * 1024.0)
#define DEF_PAGEABLE_H2D_BPS 5.31e9
#define DEF_PAGEABLE_D2H_BPS 10.15e9
#define DEF_PAGEABLE_CACHED_H2D_BPS 11.05e9
#define DEF_PAGEABLE_CACHED_D2H_BPS 12.0e9
/* Elementwise kernels reach about the HBM efficiency on arithmetic too
 * (assumption: they are never compute bound in practice). */
#define DEF_VEC_EFF 0.8
/* Launch-to-start of one kernel in a stream, as back-to-back CUDA events
 * see it: about 1 us over the kernel on V100 in NVIDIA's CUDA Graphs post
 * (Gray 2019: 3.8 us per 2.9 us kernel); 2 us allows for larger argument
 * blocks. Assumption until kernels/' launch benchmark lands in traces/. */
#define DEF_LAUNCH_S 2.0e-6
/* One PyTorch eager operator: dispatcher plus launch, about 5 us of CPU
 * time per op (PyTorch performance tuning guide: "CPU overhead of a few
 * microseconds per operator"); exposed when kernels are short. */
#define DEF_TORCH_OP_S 5.0e-6
/* Per-tile (per-wave) prologue and epilogue of a GEMM: pipeline fill from
 * HBM, the tile's store, the wave's tail. 3.4 us fitted to the even half
 * of traces/h200-1/kernels-gemm.json (tools/fit_h200.py) together with
 * DEF_GEMM_MEM_EFF and DEF_GEMM_OVERLAP_Q; it sets the small GEMMs
 * (1024^3: one wave of 32 tiles, 6 us measured). */
#define DEF_TILE_FIXED_S 3.4e-6
/* Intra-SM overlap: communication warps share issue slots, registers and
 * shared memory with the math warps: 10% compute slowdown, an assumption
 * pending measurement. */
#define DEF_INTRA_PENALTY 0.10
/* ParallelKittens (arXiv 2511.13940): synchronisation within an SM
 * (mbarrier) about 64 ns, across SMs through HBM about 832 ns. */
#define DEF_SYNC_INTRA_S 64e-9
#define DEF_SYNC_INTER_S 832e-9

/* --- single-GPU kernels as validate measures them (device time, first
 * start to last end). Every constant below is fitted to the even half of
 * its family in traces/h200-1 (2026-11-29 sweep) by tools/fit_h200.py and
 * checked on the odd half (doc/validation.md has both errors) ---------- */
/* Fixed device time of one kernel that moves data: 0.87 us (an empty
 * kernel takes 0.67 us, kernels-launch.json; a 1 MiB write kernel 1.0 us,
 * kernels-hbm.json). */
#define DEF_KERNEL_FIXED_S 0.87e-6
/* HBM rate of a streaming kernel by direction, fractions of peak
 * (kernels-hbm.json): reads reach 4.63-4.65 TB/s (0.965 of 4.8), writes
 * 4.33 TB/s (0.902); mixing reads and writes costs DRAM bus turnarounds:
 * copy (1:1) reaches only 3.94 TB/s and triad (2:1) 4.16 TB/s, both fitted
 * by one extra term, min(read, written) bytes at 3.51 x peak. */
#define DEF_HBM_RD_EFF 0.965
#define DEF_HBM_WR_EFF 0.902
#define DEF_HBM_TURN 3.51
/* A kernel that reads waits for its first loads (HBM latency): small copy
 * and triad kernels (1-4 MiB) sit about 0.6 us above a write kernel's
 * intercept plus their bytes (kernels-hbm.json). A kernel that only reads
 * must reduce what it read to something (crbench's read kernel XORs its
 * input into one word): block reductions and a final combine add about
 * 0.4 us more (read kernels of 1-4 MiB take 1.0-1.1 us above that
 * intercept). */
#define DEF_HBM_RD_LAT_S 0.63e-6
#define DEF_HBM_REDUCE_S 0.38e-6
/* Memory-bound cuBLASLt GEMMs stream their operands at 0.805 of peak,
 * 3.86 TB/s (decode shapes, 1-128 x 8192 x 8192 in 16-bit types: 33-37 us
 * for a 128 MiB weight, kernels-gemm.json). */
#define DEF_GEMM_MEM_EFF 0.805
/* Compute and memory of one GEMM overlap imperfectly: time = (Tc^q +
 * Tm^q)^(1/q) (q = inf would be a perfect max); q = 4.9 from the shapes
 * where both terms are large (131072 x 256 x 2048, decode at m = 128). */
#define DEF_GEMM_OVERLAP_Q 4.9
/* Long tensor-core GEMMs slow down under the power limit: the H200 holds
 * its clock for a few ms of full tensor load, then the board's 700 W limit
 * lowers it. Modelled as a fraction of the kernel's time beyond a
 * threshold: 16384^3 in bf16 (11.6 ms) runs 6% and tf32 (24 ms) 11% below
 * the 8192^3 rate, fp8 (6 ms) 2%, while 8192^3 kernels (0.7-2.7 ms) and
 * fp32 on the CUDA cores (22 ms, less power) do not slow
 * (kernels-gemm.json; threshold and slope fitted on the even half). */
#define DEF_GEMM_POWER_S 3.7e-3
#define DEF_GEMM_POWER_SLOPE 0.159
/* Copy engine, device to device: 4.26 TB/s read plus written (0.888 of
 * peak) at 256 MiB - 4 GiB (kernels-ce.json, and the ce cases of
 * kernels-mech.json). */
#define DEF_CE_D2D_EFF 0.888
/* Local copies by SMs (kernels-mech.json): one SM copies 48.4 GB/s with
 * 16-byte loads/stores and 50.7 GB/s with TMA bulk copies (the 1 GiB one-SM
 * cases measure 48.6 and 50.5); many SMs saturate at the HBM copy rate of
 * the stream model (3.94 TB/s read + written); between the two, a soft
 * minimum (a^-p + b^-p)^(-1/p) with p = 5.3 (32-128 SMs reach 90-97% of
 * the lesser rate). Fixed device time: 1.42 us (ldst) and 1.93 us (TMA:
 * mbarrier setup and the bulk pipeline's fill); 64 KiB on 4 or more SMs
 * takes 1.4-1.5 and 2.1 us. */
#define DEF_LDST_SM_BPS 48.4e9
#define DEF_TMA_SM_BPS 50.7e9
#define DEF_SMCOPY_KNEE 5.3
#define DEF_LDST_FIXED_S 1.42e-6
#define DEF_TMA_FIXED_S 1.93e-6
/* Host-side launch costs (kernels-launch.json; they are properties of the
 * host and driver, 3.8-7.0 us per launch between the lent VMs): back-to-
 * back launches of empty kernels start 6.6 us apart (the host's launch
 * rate); launch + cudaStreamSynchronize takes 12.0 us; kernels replayed
 * from a CUDA graph start 1.5 us apart (the GPU front end); an event
 * record + synchronize takes 1.9 us. */
#define DEF_LAUNCH_HOST_S 6.6e-6
#define DEF_LAUNCH_SYNC_S 12.0e-6
#define DEF_LAUNCH_GRAPH_S 1.5e-6
#define DEF_LAUNCH_EVENT_S 1.9e-6

typedef struct {
    double gemm_eff, hbm_eff, pcie_eff, vec_eff;
    double kernel_fixed_s, hbm_rd_eff, hbm_wr_eff, hbm_turn, hbm_rd_lat_s, hbm_reduce_s;
    double gemm_mem_eff, gemm_q, ce_d2d_eff, gemm_power_s, gemm_power_slope;
    double ce_s[3]; /* copy-engine fixed cost: d2d, h2d, d2h */
    double pageable_direct_bytes, pageable_cache_bytes;
    double pageable_Bps[3], pageable_cached_Bps[3]; /* [1] h2d, [2] d2h */
    double launch_s, torch_op_s, tile_fixed_s, intra_penalty, sync_intra_s, sync_inter_s;
} consts;

static consts load_consts(const cr_topo *t)
{
    consts c;
    c.gemm_eff = cr_topo_param(t, "ops.gemm.eff", DEF_GEMM_EFF);
    c.hbm_eff = cr_topo_param(t, "ops.hbm.eff", DEF_HBM_EFF);
    c.pcie_eff = cr_topo_param(t, "ops.pcie.eff", DEF_PCIE_EFF);
    c.ce_s[0] = cr_topo_param(t, "ops.ce.d2d", DEF_CE_D2D_S);
    c.ce_s[1] = cr_topo_param(t, "ops.ce.h2d", DEF_CE_H2D_S);
    c.ce_s[2] = cr_topo_param(t, "ops.ce.d2h", DEF_CE_D2H_S);
    c.pageable_direct_bytes =
        cr_topo_param(t, "ops.pageable.direct_bytes", DEF_PAGEABLE_DIRECT_BYTES);
    c.pageable_cache_bytes = cr_topo_param(t, "ops.pageable.cache_bytes", DEF_PAGEABLE_CACHE_BYTES);
    c.pageable_Bps[0] = c.pageable_cached_Bps[0] = 0;
    c.pageable_Bps[1] = cr_topo_param(t, "ops.pageable.h2d", DEF_PAGEABLE_H2D_BPS);
    c.pageable_Bps[2] = cr_topo_param(t, "ops.pageable.d2h", DEF_PAGEABLE_D2H_BPS);
    c.pageable_cached_Bps[1] =
        cr_topo_param(t, "ops.pageable.cached_h2d", DEF_PAGEABLE_CACHED_H2D_BPS);
    c.pageable_cached_Bps[2] =
        cr_topo_param(t, "ops.pageable.cached_d2h", DEF_PAGEABLE_CACHED_D2H_BPS);
    c.vec_eff = cr_topo_param(t, "ops.vec.eff", DEF_VEC_EFF);
    c.launch_s = cr_topo_param(t, "ops.launch", DEF_LAUNCH_S);
    c.torch_op_s = cr_topo_param(t, "ops.torch_op", DEF_TORCH_OP_S);
    c.tile_fixed_s = cr_topo_param(t, "ops.gemm.tile_fixed", DEF_TILE_FIXED_S);
    c.intra_penalty = cr_topo_param(t, "ops.intra_sm.penalty", DEF_INTRA_PENALTY);
    c.sync_intra_s = cr_topo_param(t, "ops.sync.intra_sm", DEF_SYNC_INTRA_S);
    c.sync_inter_s = cr_topo_param(t, "ops.sync.inter_sm", DEF_SYNC_INTER_S);
    c.kernel_fixed_s = fmax(cr_topo_param(t, "ops.kernel.fixed", DEF_KERNEL_FIXED_S), 0);
    c.hbm_rd_eff = fmin(fmax(cr_topo_param(t, "ops.hbm.read_eff", DEF_HBM_RD_EFF), 1e-3), 1);
    c.hbm_wr_eff = fmin(fmax(cr_topo_param(t, "ops.hbm.write_eff", DEF_HBM_WR_EFF), 1e-3), 1);
    c.hbm_turn = fmax(cr_topo_param(t, "ops.hbm.turn", DEF_HBM_TURN), 1e-3);
    c.hbm_rd_lat_s = fmax(cr_topo_param(t, "ops.hbm.read_lat", DEF_HBM_RD_LAT_S), 0);
    c.hbm_reduce_s = fmax(cr_topo_param(t, "ops.hbm.reduce_tail", DEF_HBM_REDUCE_S), 0);
    c.gemm_mem_eff = fmin(fmax(cr_topo_param(t, "ops.gemm.mem_eff", DEF_GEMM_MEM_EFF), 1e-3), 1);
    c.gemm_q = fmax(cr_topo_param(t, "ops.gemm.overlap_q", DEF_GEMM_OVERLAP_Q), 1);
    c.gemm_power_s = fmax(cr_topo_param(t, "ops.gemm.power_s", DEF_GEMM_POWER_S), 0);
    c.gemm_power_slope = fmax(cr_topo_param(t, "ops.gemm.power_slope", DEF_GEMM_POWER_SLOPE), 0);
    c.ce_d2d_eff = fmin(fmax(cr_topo_param(t, "ops.ce.d2d_eff", DEF_CE_D2D_EFF), 1e-3), 1);
    /* Efficiencies above 1 would let a prediction beat the bound. */
    c.gemm_eff = fmin(fmax(c.gemm_eff, 1e-3), 1);
    c.hbm_eff = fmin(fmax(c.hbm_eff, 1e-3), 1);
    c.pcie_eff = fmin(fmax(c.pcie_eff, 1e-3), 1);
    c.vec_eff = fmin(fmax(c.vec_eff, 1e-3), 1);
    c.intra_penalty = fmin(fmax(c.intra_penalty, 0), 0.9);
    for (int i = 0; i < 3; i++) {
        c.ce_s[i] = fmax(c.ce_s[i], 0);
        c.pageable_Bps[i] = fmax(c.pageable_Bps[i], 0);
        c.pageable_cached_Bps[i] = fmax(c.pageable_cached_Bps[i], 0);
    }
    return c;
}

typedef struct {
    const cr_topo *t;
    const cr_gpu_spec *g;
    consts c;
    double peak_mma;  /* FLOP/s of the dtype: the predictions' and the baseline's */
    double mma_bound; /* the bound's matrix FLOP/s: peak_mma, or a faster emulation of an
                         fp32 or fp64 product (cr_op_mma_bound_flops, doc/bounds.md 1.10) */
    double peak_vec;  /* CUDA-core FLOP/s: fp32, doubled for packed 16-bit types */
    double vec_bound; /* the bound's CUDA-core FLOP/s: peak_vec, or the part's faster
                         16-bit units (cr_op_vec_bound_flops: fp16 on A100) */
} env;

/* --- compute and memory time of kernels --------------------------------- */

/* Tile shapes a Hopper-class GEMM library chooses from, with their math
 * efficiency relative to the largest (smaller tiles re-read operands more
 * per FLOP): assumption, to be fitted against the GEMM sweep of kernels/.
 * The set holds both orientations of each non-square tile (cuBLAS has
 * both, and a transposed tile re-reads the same bytes per FLOP), so a GEMM
 * and its transpose cost the same: a narrow output (a convolution's
 * 1M x 64) gets 128 x 64 tiles rather than 64 x 64 ones or 128 x 256 ones
 * three quarters empty. */
static const struct {
    double tm, tn, rel;
} gemm_tiles[] = {{128, 256, 1.0}, {256, 128, 1.0}, {128, 128, 0.95},
                  {64, 128, 0.85}, {128, 64, 0.85}, {64, 64, 0.7}};

/* Time of one GEMM on `sms` SMs, by tiles and waves: each SM takes one
 * tile at a time; a wave is `sms` tiles; a tile costs a fixed prologue
 * plus its padded FLOPs at the SM's share of peak. *ntiles gets the tile
 * count of the chosen shape. */
static double gemm_comp_s(const env *v, double m, double n, double k, int sms, double *ntiles)
{
    double best = INFINITY, peak_sm = v->peak_mma / v->g->sms * v->c.gemm_eff;
    *ntiles = 1;
    for (size_t i = 0; i < sizeof gemm_tiles / sizeof gemm_tiles[0]; i++) {
        double nt = ceil(m / gemm_tiles[i].tm) * ceil(n / gemm_tiles[i].tn);
        double waves = ceil(nt / sms);
        double tt = v->c.tile_fixed_s +
                    2 * gemm_tiles[i].tm * gemm_tiles[i].tn * k / (peak_sm * gemm_tiles[i].rel);
        if (waves * tt < best) {
            best = waves * tt;
            *ntiles = nt;
        }
    }
    /* Skinny shapes (m or n up to 16, decode) run as a GEMV / split-K kernel
     * over every SM, padded to the MMA's 8 rows, at 0.3 of the per-tile
     * efficiency: fitted to the fp32 16 x 8192 x 8192 GEMM measured on the
     * lent H200 (139 us, traces/h200-1/kernels-gemm.json). */
    if (fmin(m, n) <= 16) {
        double t =
            v->c.tile_fixed_s + 2 * fmax(fmin(m, n), 8) * fmax(m, n) * k / (peak_sm * sms * 0.3);
        if (t < best) {
            best = t;
            *ntiles = 0; /* no output tiles: a GEMV / split-K kernel */
        }
    }
    return best;
}

/* The per-tile math efficiency that makes the tile model reproduce a
 * measured GEMM throughput. calibrate measures an 8192^3 GEMM
 * (shared/reference/hardware.md): the measurement already contains that
 * shape's wave quantisation (2048 tiles of 128x256 in 16 waves of 132) and
 * tile prologues, so the efficiency is solved through the model rather than
 * taken as measured / peak, which would count them twice. */
static double gemm_eff_from_measured(const env *v, double meas_flops)
{
    const double n = 8192, tm = 128, tn = 256;
    double waves = ceil(ceil(n / tm) * ceil(n / tn) / v->g->sms);
    double per_tile = 2 * n * n * n / meas_flops / waves - v->c.tile_fixed_s;
    double peak_sm = v->peak_mma / v->g->sms;
    if (!(per_tile > 0))
        return v->c.gemm_eff;
    return fmin(fmax(2 * tm * tn * n / (peak_sm * per_tile), 1e-3), 1);
}

/* Compute part of a kernel's time on `sms` SMs (the memory part is
 * separate). Tiles of the main GEMM go to *ntiles (sms when there is no
 * GEMM). */
static double comp_s(const env *v, const ops_work *w, int sms, double *ntiles)
{
    double frac = (double)sms / v->g->sms, t = 0;
    *ntiles = sms;
    double mma = w->mma_flops;
    if (w->kernel == OPS_KERNEL_GEMM && w->gm > 0) {
        t += gemm_comp_s(v, w->gm, w->gn, w->gk, sms, ntiles);
        mma = fmax(mma - 2 * w->gm * w->gn * w->gk, 0);
    }
    if (mma > 0)
        t += mma / (v->peak_mma * v->c.gemm_eff * frac);
    if (w->vec_flops > 0)
        t += w->vec_flops / (v->peak_vec * v->c.vec_eff * frac);
    return t;
}

static double mem_s(const env *v, double bytes)
{
    return bytes / (v->g->hbm_Bps * v->c.hbm_eff);
}

/* Device time of the data movement of one streaming kernel that reads rd
 * and writes wr bytes of HBM: each direction at its own rate, the
 * turnaround cost of mixing them (min(rd, wr) bytes at hbm_turn x peak),
 * the wait for the first loads when it reads, and the reduction's tail
 * when it only reads. */
static double stream_s(const env *v, double rd, double wr)
{
    const consts *c = &v->c;
    double B = v->g->hbm_Bps;
    return rd / (B * c->hbm_rd_eff) + wr / (B * c->hbm_wr_eff) + fmin(rd, wr) / (B * c->hbm_turn) +
           (rd > 0 ? c->hbm_rd_lat_s : 0) + (rd > 0 && !(wr > 0) ? c->hbm_reduce_s : 0);
}

/* (a^q + b^q)^(1/q): a max that lets two overlapping terms each cost a
 * little of the other (q = inf is max(a, b)); never below max(a, b). */
static double soft_max(double a, double b, double q)
{
    double m = fmax(a, b);
    if (!(m > 0))
        return 0;
    return m * pow(pow(a / m, q) + pow(b / m, q), 1 / q);
}

/* Device time of one single-GPU kernel (no communication), as validate
 * measures it: the fixed cost of a kernel plus its compute and memory
 * time. A GEMM streams its operands at the rate memory-bound cuBLAS
 * kernels reach and overlaps that imperfectly with its tiles; a streaming
 * kernel moves its reads and writes at their own rates (the read/write
 * split from the operator's reads and writes per element where it has
 * them, else half and half). It moves what the named kernel moves
 * (base_hbm_bytes: attention's backward reads O, which the bound's
 * compulsory bytes leave out), elsewhere the bound's bytes. */
static double kernel_s(const env *v, const cr_op_def *op, const ops_work *w, const cr_op_params *p,
                       double *tiles)
{
    const consts *c = &v->c;
    double tc = comp_s(v, w, v->g->sms, tiles);
    if (w->kernel == OPS_KERNEL_GEMM) {
        double t = c->kernel_fixed_s +
                   soft_max(tc, w->base_hbm_bytes / (v->g->hbm_Bps * c->gemm_mem_eff), c->gemm_q);
        /* the power limit: tensor-core kernels only (fp32 runs on the CUDA
         * cores) */
        if (w->dt != CR_DT_FP32)
            t += c->gemm_power_slope * fmax(0, t - c->gemm_power_s);
        return t;
    }
    if (w->kernel == OPS_KERNEL_STREAM) {
        double rd_frac = 0.5;
        if (cr_op_uses(op, CR_OPP_READS) && cr_op_uses(op, CR_OPP_WRITES)) {
            double rw = p->v[CR_OPP_READS] + p->v[CR_OPP_WRITES];
            if (rw > 0)
                rd_frac = p->v[CR_OPP_READS] / rw;
        }
        return c->kernel_fixed_s + fmax(tc, stream_s(v, w->base_hbm_bytes * rd_frac,
                                                     w->base_hbm_bytes * (1 - rd_frac)));
    }
    return c->kernel_fixed_s + fmax(tc, mem_s(v, w->base_hbm_bytes));
}

/* --- host link (h2d / d2h) ---------------------------------------------- */

/* Widest path from GPU device src to any CPU over PCIe and C2C links, in
 * the copy's direction (to_gpu: host to device). Returns its bottleneck
 * bandwidth and fills *lat_s and *kind; 0 when no CPU is reachable, -1 out of memory. */
static double host_link_Bps(const cr_topo *t, int src, bool to_gpu, double *lat_s,
                            cr_link_kind *kind)
{
    double *best = calloc((size_t)t->n_devs, sizeof *best);
    double *lat = calloc((size_t)t->n_devs, sizeof *lat);
    int *lk = calloc((size_t)t->n_devs, sizeof *lk);
    int *queue = malloc((size_t)t->n_devs * 8 * sizeof *queue);
    double res = !best || !lat || !lk || !queue ? -1 : 0;
    if (res < 0)
        goto out;
    best[src] = INFINITY;
    lk[src] = CR_LINK_PCIE;
    int head = 0, tail = 0, cap = t->n_devs * 8;
    queue[tail++] = src;
    while (head < tail) {
        int u = queue[head++];
        if (u != src && !cr_route_forwards(t, u, false))
            continue; /* GPUs do not forward host traffic */
        for (int i = t->adj_off[u]; i < t->adj_off[u + 1]; i++) {
            const cr_link *l = &t->links[t->adj[i]];
            if (!cr_route_host(l->kind))
                continue;
            int o = cr_link_other(l, u);
            double bw = cr_link_bw_from(l, to_gpu ? o : u);
            double b = fmin(best[u], bw);
            if (b > best[o] * (1 + 1e-12)) {
                best[o] = b;
                lat[o] = lat[u] + l->lat_s;
                lk[o] = b < best[u] ? (int)l->kind : lk[u];
                if (tail < cap)
                    queue[tail++] = o;
            }
        }
    }
    for (int v = 0; v < t->n_devs; v++)
        if (t->devs[v].kind == CR_DEV_CPU && best[v] > res) {
            res = best[v];
            *lat_s = lat[v];
            *kind = (cr_link_kind)lk[v];
        }
out:
    free(best);
    free(lat);
    free(lk);
    free(queue);
    return res;
}

static cr_status eval_memcpy(const env *v, const ops_work *w, double bytes, cr_op_result *r,
                             cr_diag *d)
{
    const consts *c = &v->c;
    const char *lv = "hbm";
    r->t_hbm_s = cr_mem_floor_s(v->g, w->hbm_bytes, false, 0, &lv);
    r->t_hbm_cold_s = cr_mem_floor_s(v->g, w->hbm_bytes, true, 0, NULL);
    if (w->copy_kind == 0) {
        r->bound_s = r->t_hbm_s;
        cr_str_copy(r->binding, sizeof r->binding, lv);
        r->bound_cold_s = r->t_hbm_cold_s;
        cr_str_copy(r->binding_cold, sizeof r->binding_cold, "hbm");
        r->pred_s = c->ce_s[0] + w->hbm_bytes / (v->g->hbm_Bps * c->ce_d2d_eff);
        cr_str_copy(r->schedule, sizeof r->schedule, "copy-engine");
    } else {
        double lat = 0;
        cr_link_kind kind = CR_LINK_PCIE;
        double bw = host_link_Bps(v->t, v->t->gpus[0], w->copy_kind == 1, &lat, &kind);
        if (bw == 0 || !isfinite(bw)) /* bw < 0: out of memory, told below */
            /* a kind the machine cannot copy, as a dtype it lacks: the
             * caller's parameter (CR_EINVAL), not a failure */
            return cr_diag_set(d, CR_EINVAL,
                               "topology %s has no host link from GPU 0 (h2d and d2h need a <cpu> "
                               "reached over pcie or c2c links): give kind d2d, or a topology "
                               "with a host",
                               v->t->name);
        r->t_comm_s = bytes / bw;
        /* the bound's latency: the least to any CPU, not the widest path's
         * (an added wider, longer path raised the bound: QA audit of
         * hardware monotonicity); the prediction keeps the widest path's */
        double lb = fmin(lat, cr_route_host_lat_s(v->t, v->t->gpus[0]));
        if (lb < 0 || bw < 0) /* not "no host link" (QA audit of allocation failures) */
            return cr_diag_set(d, CR_ENOMEM, "out of memory searching the host links");
        r->lat_s = r->lat_chain_s = lb;
        const char *link = kind == CR_LINK_C2C ? "host-link (c2c)" : "host-link (pcie)";
        double m = fmax(r->t_comm_s, r->t_hbm_s);
        r->bound_s = m + lb;
        cr_str_copy(r->binding, sizeof r->binding,
                    lb > m                     ? "latency"
                    : r->t_hbm_s > r->t_comm_s ? lv
                                               : link);
        double mc = fmax(r->t_comm_s, r->t_hbm_cold_s);
        r->bound_cold_s = mc + lb;
        cr_str_copy(r->binding_cold, sizeof r->binding_cold,
                    lb > mc                         ? "latency"
                    : r->t_hbm_cold_s > r->t_comm_s ? "hbm"
                                                    : link);
        /* pinned: the link at its measured efficiency; pageable: the host's
         * staging copy when it is slower (never faster than pinned) */
        double rate = bw * c->pcie_eff;
        if (!w->pinned && bytes > c->pageable_direct_bytes) {
            double staged = bytes <= c->pageable_cache_bytes ? c->pageable_cached_Bps[w->copy_kind]
                                                             : c->pageable_Bps[w->copy_kind];
            if (staged > 0)
                rate = fmin(rate, staged);
        }
        r->pred_s = c->ce_s[w->copy_kind] + lat + fmax(bytes / rate, mem_s(v, w->hbm_bytes));
        cr_str_copy(r->schedule, sizeof r->schedule, "copy-engine");
    }
    r->baseline_kernels = 1;
    r->baseline_launch_s = c->torch_op_s;
    r->baseline_compute_s = r->pred_s - c->ce_s[w->copy_kind];
    r->baseline_s = r->baseline_launch_s + r->baseline_compute_s;
    snprintf(r->why, sizeof r->why, "one copy-engine transfer%s",
             w->copy_kind != 0 && !w->pinned ? " staged through a pinned driver buffer (pageable)"
                                             : "");
    return CR_OK;
}

/* --- communication ------------------------------------------------------ */

/* Per-cut sums of transfer times across phases, each direction apart: the
 * same cut carries the bytes of every phase, so their times add there,
 * but its two directions are separate links (a reduce-scatter through the
 * switches sends 7/8 of its buffer out of a GPU and takes 1/8 in, the
 * allgather after it the reverse: S each way, not 7/4 S; QA audit of
 * 2026-12-06). Different cuts run in parallel, so the bound is the max
 * over cuts and directions of the sums. */
#define MAX_KEYS (CR_OP_MAX_COMM * (CR_COLL_MAX_TERMS + 1))
typedef struct {
    char name[48], where[48];
    double s_out, s_in; /* the phases' transfer times out of and into the cut, summed */
    double lat_s;       /* the cut's own latency (a GPU's ports: the last byte still
                           travels a link, doc/bounds.md 1.5), once */
} cutsum;

/* The cut's transfer time: its busier direction. */
static double cut_s(const cutsum *k)
{
    return fmax(k->s_out, k->s_in);
}

static void add_cut(cutsum *k, int *n, const char *name, const char *where, double out_s,
                    double in_s, double lat_s)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(k[i].name, name) == 0 && strcmp(k[i].where, where) == 0) {
            k[i].s_out += out_s;
            k[i].s_in += in_s;
            k[i].lat_s = fmax(k[i].lat_s, lat_s);
            return;
        }
    if (*n >= MAX_KEYS)
        return;
    cr_str_copy(k[*n].name, sizeof k[*n].name, name);
    cr_str_copy(k[*n].where, sizeof k[*n].where, where);
    k[*n].s_out = out_s;
    k[*n].s_in = in_s;
    k[*n].lat_s = lat_s;
    (*n)++;
}

/* A phase's cut terms (the operator counts HBM itself) and its hot
 * receiver into the per-cut sums keys, and stage where given; returns the
 * largest transfer time of the terms. */
static double add_phase_cuts(cutsum *keys, int *nk, cutsum *stage, int *ns, const ops_comm_est *e)
{
    double bw_max = 0, port_lat_s = 0;
    for (int k = 0; k < e->bound.n_terms; k++) {
        const cr_coll_term *tm = &e->bound.terms[k];
        if (strcmp(tm->name, "hbm") == 0 || strcmp(tm->name, "l2") == 0 ||
            strcmp(tm->name, "llc") == 0)
            continue;
        if (strncmp(tm->name, "gpu", 3) == 0)
            port_lat_s = fmax(port_lat_s, tm->lat_s);
        double bw = fmax(tm->time_s - tm->lat_s, 0);
        add_cut(keys, nk, tm->name, tm->where, tm->out_s, tm->in_s, tm->lat_s);
        if (stage)
            add_cut(stage, ns, tm->name, tm->where, tm->out_s, tm->in_s, tm->lat_s);
        bw_max = fmax(bw_max, bw);
    }
    /* The hot receiver's ports, inwards: a GPU's cut, so its last byte
     * still travels a link, as the gpu cuts' terms say (their latency).
     * Without it, a skew heavy enough for this cut to bind gave a bound
     * below the even split's: alltoallv of 28,381 B on hgx-h100-8, bound
     * 0.648 us at skew 1 and 0.600 at skew 8 (QA audit, 2026-12-06). */
    if (e->skew_term_s > 0) {
        add_cut(keys, nk, "gpu-ingress", "hot receiver", 0, e->skew_term_s, port_lat_s);
        if (stage)
            add_cut(stage, ns, "gpu-ingress", "hot receiver", 0, e->skew_term_s, port_lat_s);
    }
    return bw_max;
}

/* A bound's terms together: the largest of compute, memory, transfer
 * (with its cut's own latency) and the latency floor. */
static double floor_of(double compute, double mem, double transfer, double lat)
{
    return fmax(fmax(compute, fmax(mem, transfer)), lat);
}

/* The busiest cut: its sum and own latency together (index, or -1). */
static int worst_cut(const cutsum *k, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (best < 0 || cut_s(&k[i]) + k[i].lat_s > cut_s(&k[best]) + k[best].lat_s)
            best = i;
    return best;
}

static void describe_group(const cr_topo *t, const char *dim, int *ranks, int n, char *buf,
                           size_t size)
{
    cr_rankset rs = {n, ranks};
    char rtxt[24];
    cr_rankset_format(&rs, t->n_gpus, rtxt, sizeof rtxt);
    /* nodes spanned: count distinct node indices (ranks are few or strided) */
    int nodes = 0, last = -2;
    bool sorted_nodes = true;
    for (int i = 0; i < n; i++) {
        int nd = t->devs[t->gpus[ranks[i]]].node;
        if (nd != last) {
            if (nd < last)
                sorted_nodes = false;
            nodes++;
            last = nd;
        }
    }
    if (!sorted_nodes || last < 0)
        snprintf(buf, size, "%.4s: ranks %s", dim, rtxt);
    else
        snprintf(buf, size, "%.4s: ranks %s, %d node%s", dim, rtxt, nodes, nodes == 1 ? "" : "s");
}

typedef struct {
    ops_group g[CR_OP_MAX_COMM];
    int gi[CR_OP_MAX_COMM];        /* phase -> group slot */
    bool borrowed[CR_OP_MAX_COMM]; /* g[i] is a copy of a cache entry: the cache closes it */
    int n;
    ops_group_cache *cache; /* NULL: every group opened here and closed at the end */
} groups;

static void groups_close(groups *gs)
{
    for (int i = 0; i < gs->n; i++)
        if (!gs->borrowed[i])
            ops_group_close(&gs->g[i]);
    gs->n = 0;
}

void ops_group_cache_free(ops_group_cache *c)
{
    for (int i = 0; i < c->n; i++)
        ops_group_close(&c->g[i]);
    free(c->g);
    memset(c, 0, sizeof *c);
}

/* The group of ranks all[0..m) from the cache, opened and added there on
 * a miss, into *g (a shallow copy: the cache keeps it open). A group's
 * context depends on the topology and the ranks alone, and what it
 * memoises (cr_coll_ctx's rail loads) is keyed by the whole request, so a
 * group shared across operators evaluates as one of their own would. */
static cr_status cache_group(ops_group_cache *c, const cr_topo *t, const int *all, int m,
                             ops_group *g, cr_diag *d)
{
    for (int j = 0; j < c->n; j++)
        if (c->g[j].t == t && c->g[j].n == m &&
            memcmp(c->g[j].ranks, all, (size_t)m * sizeof *all) == 0) {
            *g = c->g[j];
            return CR_OK;
        }
    if (cr_grow((void **)&c->g, &c->cap, (size_t)c->n + 1, sizeof *c->g))
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    cr_status st = ops_group_open(t, all, m, &c->g[c->n], d);
    if (st != CR_OK)
        return st;
    *g = c->g[c->n++];
    return CR_OK;
}

/* The group of phase ph (one already open with the same ranks, or a new
 * one) into *gi, and its ranks described into desc (NULL: not). */
static cr_status group_of_phase(const env *v, const cr_op_params *p, const ops_phase *ph,
                                groups *gs, int *gi, char *desc, size_t desc_size, cr_diag *d)
{
    static const char *const dn[] = {"tp", "cp", "ep", "dp", "pp"};
    int n = (int)p->v[ph->dim];
    int *all = malloc((size_t)n * sizeof *all);
    if (!all)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    ops_group_ranks(p, ph->dim, all);
    int m = n;
    if (ph->sub_n > 0) {
        m = ph->sub_n;
        for (int j = 0; j < m; j++)
            all[j] = all[j * ph->sub_stride];
    }
    int found = -1;
    for (int j = 0; j < gs->n; j++)
        if (gs->g[j].n == m && memcmp(gs->g[j].ranks, all, (size_t)m * sizeof *all) == 0)
            found = j;
    if (found < 0 && gs->n >= CR_OP_MAX_COMM) {
        free(all);
        return cr_diag_set(d, CR_ERANGE, "more than %d communication groups", CR_OP_MAX_COMM);
    }
    if (found < 0) {
        cr_status st = gs->cache ? cache_group(gs->cache, v->t, all, m, &gs->g[gs->n], d)
                                 : ops_group_open(v->t, all, m, &gs->g[gs->n], d);
        if (st != CR_OK) {
            free(all);
            return st;
        }
        gs->borrowed[gs->n] = gs->cache != NULL;
        found = gs->n++;
    }
    *gi = found;
    if (desc)
        describe_group(v->t, dn[ph->dim - CR_OPP_TP], all, m, desc, desc_size);
    free(all);
    return CR_OK;
}

static cr_status open_groups(const env *v, const cr_op_params *p, const ops_work *w, groups *gs,
                             cr_op_result *r, cr_diag *d)
{
    ops_group_cache *cache = gs->cache;
    memset(gs, 0, sizeof *gs);
    gs->cache = cache;
    for (int i = 0; i < w->n_ph; i++) {
        cr_status st = group_of_phase(v, p, &w->ph[i], gs, &gs->gi[i], r->comm[i].group,
                                      sizeof r->comm[i].group, d);
        if (st != CR_OK)
            return st;
    }
    return CR_OK;
}

/* Time of the phases with mechanism m on `sms` SMs (0 = the copy engine
 * for m = CE): stages in sequence, concurrent phases in parallel, and never
 * below floor_s, the bound's communication term (r->t_comm_s): phases that
 * run together share the cuts whose bytes the bound sums over them (a
 * halo exchange's four directions all leave through a GPU's one PCIe
 * port), which each phase's own mechanism time does not see. */
static cr_status comm_mech_s(const env *v, const ops_work *w, groups *gs, cr_mech m, int sms,
                             double floor_s, double *out, int *sms_used, cr_diag *d)
{
    double total = 0, stage = 0;
    if (sms_used)
        *sms_used = 0;
    for (int i = 0; i < w->n_ph; i++) {
        double s = 0;
        int used = 0;
        cr_status st = ops_comm_mech(&gs->g[gs->gi[i]], &w->ph[i], w->dt, m, sms, &s, &used, d);
        if (st != CR_OK)
            return st;
        if (sms_used && used > *sms_used)
            *sms_used = used;
        if (i > 0 && !w->ph[i].concurrent) {
            total += stage;
            stage = 0;
        }
        stage = fmax(stage, s);
    }
    *out = fmax(total + stage, floor_s);
    (void)v;
    return CR_OK;
}

/* --- the main evaluation ------------------------------------------------ */

static void bind_one(const cr_op_result *r, double t_mem, const char *mem_level,
                     const char *comm_binding, double *bound, char *binding, size_t size)
{
    /* the dependency latency is a floor of its own, not added: a byte
     * that crosses a cut need not travel the group's diameter, and a fused
     * kernel may send the element it computes first (doc/bounds.md 1.5) */
    double m = fmax(r->t_compute_s, fmax(t_mem, r->t_comm_s + r->t_comm_lat_s));
    *bound = fmax(m, r->lat_s);
    const char *b = r->lat_s > m                   ? "latency"
                    : m == r->t_compute_s && m > 0 ? "compute"
                    : m == t_mem                   ? mem_level
                                                   : comm_binding;
    cr_str_copy(binding, size, b);
}

/* The memory term with the measured ceilings (commroof calibrate) in
 * place of the peaks, as the bound's own (cr_mem_floor_s): warm, bytes
 * that fit the caches at the L2's measured rate where there is one; cold,
 * every byte at the measured HBM rate. Peaks where nothing is measured, so
 * that attainable equals the bound there (doc/bounds.md 1.6). */
double cr_op_attainable_mem_s(const cr_gpu_spec *g, double bytes, bool cold)
{
    cr_gpu_spec gm = *g;
    if (g->meas_l2_Bps > 0)
        gm.l2_Bps = g->l2_Bps > 0 ? fmin(g->meas_l2_Bps, g->l2_Bps) : g->meas_l2_Bps;
    double hb = g->meas_hbm_Bps > 0 ? fmin(g->meas_hbm_Bps, g->hbm_Bps) : 0;
    return cr_mem_floor_s(&gm, bytes, cold, hb, NULL);
}

/* The warm bound (memory term through the caches, level mem_level) and
 * the cold one (HBM only), each naming its binding resource. */
/* An alternative algorithm's transfer (ops_alt): its phases' per-cut
 * sums as the main phases' in keys (MAX_KEYS of them, *pnk used), one
 * diameter of latency in *lat. */
static cr_status alt_comm(const env *v, const cr_op_params *p, const ops_work *w, const ops_alt *a,
                          groups *gs, cutsum *keys, int *pnk, double *lat, cr_diag *d)
{
    int nk = 0;
    *lat = 0;
    for (int i = 0; i < a->n_ph; i++) {
        int gi;
        cr_status st = group_of_phase(v, p, &a->ph[i], gs, &gi, NULL, 0, d);
        ops_comm_est e;
        if (st == CR_OK)
            st = ops_comm_eval(&gs->g[gi], &a->ph[i], w->dt, &e, d);
        if (st != CR_OK)
            return st;
        add_phase_cuts(keys, &nk, NULL, NULL, &e);
        *lat = fmax(*lat, e.bound.lat_s);
    }
    *pnk = nk;
    return CR_OK;
}

/* The resources of the algorithms for ops_mix_min: compute first (its
 * time under each in res[0]), then each cut any algorithm crosses, out and
 * in, its name in names[]; returns their count. An algorithm that does not
 * cross a cut loads it for 0; one that does, for its sum and the cut's
 * latency. */
static int mix_resources(int k, const cutsum *const *ks, const int *nks, const double *tc,
                         ops_mix_res *res, const char **names)
{
    int n = 1;
    memset(&res[0], 0, sizeof res[0]);
    for (int j = 0; j < k; j++)
        res[0].v[j] = tc[j];
    names[0] = "compute";
    for (int a = 0; a < k; a++)
        for (int i = 0; i < nks[a]; i++) {
            const cutsum *key = &ks[a][i];
            bool seen = false;
            for (int r = 1; r < n && !seen; r += 2)
                seen = strcmp(names[r], key->name) == 0 && strcmp(names[r + 1], key->where) == 0;
            if (seen)
                continue;
            memset(&res[n], 0, 2 * sizeof res[n]);
            for (int j = 0; j < k; j++)
                for (int q = 0; q < nks[j]; q++)
                    if (!strcmp(ks[j][q].name, key->name) && !strcmp(ks[j][q].where, key->where)) {
                        res[n].v[j] = ks[j][q].s_out + ks[j][q].lat_s;
                        res[n + 1].v[j] = ks[j][q].s_in + ks[j][q].lat_s;
                    }
            /* names[n + 1] holds the cut's instance, for the lookup above */
            names[n] = key->name;
            names[n + 1] = key->where;
            n += 2;
        }
    return n;
}

/* The bound is the least over the main algorithm, the alternatives
 * (ops_alt) and splits of the work between them (ops_mix.c, whose
 * candidates include each algorithm alone): each with its own compute and
 * transfer terms, the memory term and measured ceilings as the main one's. */
static cr_status bound_alternatives(const env *v, const cr_op_params *p, const ops_work *w,
                                    groups *gs, double meas_mma, const char *mem_level,
                                    const cutsum *main_keys, int main_nk, cr_op_result *r,
                                    cr_diag *d)
{
    double pm = meas_mma > 0 ? fmin(meas_mma, v->mma_bound) : v->mma_bound;
    /* per algorithm (0 the main one): compute at the peaks and at the
     * measured ceilings, cut sums, latency */
    int k = 1 + (w->n_alt < OPS_MAX_ALT ? w->n_alt : OPS_MAX_ALT);
    cutsum alt_keys[OPS_MAX_ALT][MAX_KEYS];
    const cutsum *ks[OPS_MIX_ALGOS] = {main_keys};
    int nks[OPS_MIX_ALGOS] = {main_nk};
    double tcs[OPS_MIX_ALGOS] = {r->t_compute_s}, tcas[OPS_MIX_ALGOS],
           lats[OPS_MIX_ALGOS] = {r->lat_s};
    tcas[0] = fmax(w->mma_flops > 0 ? w->mma_flops / pm : 0,
                   w->vec_flops > 0 ? w->vec_flops / v->vec_bound : 0);
    for (int j = 1; j < k; j++) {
        const ops_alt *a = &w->alt[j - 1];
        cr_status st = alt_comm(v, p, w, a, gs, alt_keys[j - 1], &nks[j], &lats[j], d);
        if (st != CR_OK)
            return st;
        ks[j] = alt_keys[j - 1];
        double tv = a->vec_flops > 0 ? a->vec_flops / v->vec_bound : 0;
        tcs[j] = fmax(a->mma_flops > 0 ? a->mma_flops / v->mma_bound : 0, tv);
        tcas[j] = fmax(a->mma_flops > 0 ? a->mma_flops / pm : 0, tv);
    }
    ops_mix_res res[1 + 2 * MAX_KEYS * OPS_MIX_ALGOS];
    const char *names[1 + 2 * MAX_KEYS * OPS_MIX_ALGOS];
    int n = mix_resources(k, ks, nks, tcs, res, names);
    struct {
        double floor, *bound;
        char *binding;
        const char *level;
    } m[2] = {{r->t_hbm_s, &r->bound_s, r->binding, mem_level},
              {r->t_hbm_cold_s, &r->bound_cold_s, r->binding_cold, "hbm"}};
    for (int c = 0; c < 2; c++) {
        double x[OPS_MIX_ALGOS];
        int arg;
        double b = ops_mix_min(k, res, n, m[c].floor, lats, x, &arg);
        if (!(b < *m[c].bound * (1 - 1e-12)))
            continue; /* the main algorithm alone: its own bound stands */
        *m[c].bound = b;
        cr_str_copy(m[c].binding, 64,
                    arg == -2   ? "latency"
                    : arg == -1 ? m[c].level
                                : names[arg - (arg > 0 && arg % 2 == 0)]);
        if (c != 0)
            continue;
        int used_n = 0, only = 0;
        for (int j = 0; j < k; j++)
            if (x[j] > 1e-12)
                used_n++, only = j;
        if (used_n == 1) { /* another algorithm alone */
            cr_str_copy(r->bound_by, sizeof r->bound_by, w->alt[only - 1].what);
            continue;
        }
        int used = snprintf(r->bound_by, sizeof r->bound_by, "a split of the work:");
        const char *sep = " ";
        for (int j = 0; j < k && used > 0 && (size_t)used < sizeof r->bound_by; j++)
            if (x[j] > 1e-12) {
                used += cr_snprintf_c(r->bound_by + used, sizeof r->bound_by - (size_t)used,
                                      "%s%.0f%% %s", sep, 100 * x[j],
                                      j ? w->alt[j - 1].what : "its phases");
                sep = "; ";
            }
    }
    for (int j = 0; j < k; j++)
        res[0].v[j] = tcas[j];
    double xa[OPS_MIX_ALGOS];
    int arga;
    r->attainable_s = fmin(
        r->attainable_s,
        ops_mix_min(k, res, n, cr_op_attainable_mem_s(v->g, w->hbm_bytes, false), lats, xa, &arga));
    r->attainable_cold_s = fmin(
        r->attainable_cold_s,
        ops_mix_min(k, res, n, cr_op_attainable_mem_s(v->g, w->hbm_bytes, true), lats, xa, &arga));
    return CR_OK;
}

static void set_binding(cr_op_result *r, const char *comm_binding, const char *mem_level)
{
    bind_one(r, r->t_hbm_s, mem_level, comm_binding, &r->bound_s, r->binding, sizeof r->binding);
    bind_one(r, r->t_hbm_cold_s, "hbm", comm_binding, &r->bound_cold_s, r->binding_cold,
             sizeof r->binding_cold);
}

void cr_op_result_use_cold(cr_op_result *r)
{
    r->bound_s = r->bound_cold_s;
    r->cold = true;
    r->t_hbm_s = r->t_hbm_cold_s;
    cr_str_copy(r->binding, sizeof r->binding, r->binding_cold);
    if (r->bound_s > 0)
        r->headroom = r->bound_s > 0 ? r->baseline_s / r->bound_s : 0; /* 0: no bound */
    r->attainable_s = fmax(r->attainable_cold_s, r->bound_s);
}

static cr_status counts(const cr_op_def *op, const cr_op_params *p, ops_work *w, cr_op_result *r,
                        cr_diag *d)
{
    memset(r, 0, sizeof *r);
    memset(w, 0, sizeof *w);
    cr_status st = op->shape(p, w, d);
    if (st != CR_OK)
        return st;
    r->flops = w->flops;
    r->hbm_bytes = w->hbm_bytes;
    r->ranks = w->group_size;
    r->n_comm = w->n_ph;
    for (int i = 0; i < w->n_ph; i++) {
        const ops_phase *ph = &w->ph[i];
        cr_op_comm *c = &r->comm[i];
        cr_str_copy(c->what, sizeof c->what, ph->what);
        cr_str_copy(c->coll, sizeof c->coll, cr_coll_name(ph->coll));
        c->bytes = ph->bytes;
        c->group_size = ph->sub_n > 0 ? ph->sub_n : (int)p->v[ph->dim];
        r->comm_bytes += ph->bytes;
        double f = cr_coll_busbw_factor(ph->coll, c->group_size);
        r->traffic_bytes += ph->bytes * f * (ph->skew > 0 ? ph->skew : 1);
    }
    return CR_OK;
}

cr_status cr_op_counts(const cr_op_def *op, const cr_op_params *p, cr_op_result *r, cr_diag *d)
{
    ops_work w;
    cr_status st = cr_op_params_check(op, p, NULL, d);
    if (st != CR_OK)
        return st;
    return counts(op, p, &w, r, d);
}

static void sched_why(cr_op_result *r, const env *v, const ops_work *w)
{
    const cr_op_sched *in = &r->intra, *ex = &r->inter;
    bool inter = ex->pred_s < in->pred_s;
    double gain = 100 * (fmax(in->pred_s, ex->pred_s) / fmin(in->pred_s, ex->pred_s) - 1);
    cr_str_copy(r->schedule, sizeof r->schedule, inter ? "inter-sm" : "intra-sm");
    r->pred_s = inter ? ex->pred_s : in->pred_s;
    if (!isfinite(in->pred_s))
        snprintf(r->why, sizeof r->why,
                 "inter-SM is the only schedule: no device-initiated mechanism (TMA, ld/st) "
                 "reaches every rank of the group (other nodes or a PCIe path), so %s on %d SMs "
                 "communicates while the other %d compute (all of them once it is done)",
                 ex->mech, ex->comm_sms, v->g->sms - ex->comm_sms);
    else if (inter && strcmp(ex->mech, "nccl") == 0)
        cr_snprintf_c(
            r->why, sizeof r->why,
            "inter-SM wins by %.0f%%: NCCL on its %d channel SMs, overlapped with compute on "
            "the other %d, beats the device-initiated mechanisms on this fabric",
            gain, ex->comm_sms, v->g->sms - ex->comm_sms);
    else if (inter && strcmp(ex->mech, "multimem") == 0)
        cr_snprintf_c(r->why, sizeof r->why,
                      "inter-SM wins by %.0f%%: %d SMs drive in-switch "
                      "reduction/multicast (multimem), "
                      "so each GPU moves about half the bytes of a point-to-point "
                      "reduction; intra-SM "
                      "TMA cannot use the switch",
                      gain, ex->comm_sms);
    else if (inter && ex->comm_sms == 0)
        cr_snprintf_c(r->why, sizeof r->why,
                      "inter-SM wins by %.0f%%: the copy engine moves the data with no "
                      "SM, so all %d "
                      "SMs compute; intra-SM pays %.0f%% compute for co-resident "
                      "communication warps",
                      gain, v->g->sms, 100 * v->c.intra_penalty);
    else if (inter)
        cr_snprintf_c(r->why, sizeof r->why,
                      "inter-SM wins by %.0f%%: %d of %d SMs on %s saturate the links "
                      "(T_comm %.3g us) "
                      "while %d SMs compute, then all (T_comp %.3g us); intra-SM's tiles pay "
                      "%.0f%% compute for "
                      "co-resident communication warps (T_comp %.3g us)",
                      gain, ex->comm_sms, v->g->sms, ex->mech, ex->t_comm_s * 1e6,
                      v->g->sms - ex->comm_sms, ex->t_comp_s * 1e6, 100 * v->c.intra_penalty,
                      in->t_comp_s * 1e6);
    else if (in->t_comp_s >= in->t_comm_s)
        cr_snprintf_c(r->why, sizeof r->why,
                      "intra-SM wins by %.0f%%: compute binds (T_comp %.3g us >= T_comm "
                      "%.3g us), so "
                      "taking SMs from compute costs more than co-resident "
                      "communication warps; tiles "
                      "%s overlap with %.0f ns mbarrier syncs instead of %.0f ns "
                      "cross-SM flags; the best inter-SM split (%d SMs on %s) takes %.4g us",
                      gain, in->t_comp_s * 1e6, in->t_comm_s * 1e6,
                      w->tile_aligned ? "produced and consumed in place" : "in flight",
                      v->c.sync_intra_s * 1e9, v->c.sync_inter_s * 1e9, ex->comm_sms, ex->mech,
                      ex->pred_s * 1e6);
    else
        cr_snprintf_c(r->why, sizeof r->why,
                      "intra-SM wins by %.0f%%: communication binds (T_comm %.3g us) "
                      "and every SM issues %s for it, with %.0f ns mbarrier syncs instead of %.0f "
                      "ns cross-SM flags; the best inter-SM split (%d SMs on %s, %.4g us) does not "
                      "reach the links' rate sooner",
                      gain, in->t_comm_s * 1e6, in->mech, v->c.sync_intra_s * 1e9,
                      v->c.sync_inter_s * 1e9, ex->comm_sms, ex->mech, ex->pred_s * 1e6);
    /* A fused schedule can lose to the unfused baseline (its per-step
     * syncs, the SMs it takes from compute): say so rather than let the
     * winner of the two read as a gain. */
    if (r->pred_s > r->baseline_s) {
        size_t len = strlen(r->why);
        cr_snprintf_c(r->why + len, sizeof r->why - len,
                      "; neither beats the PyTorch + NCCL baseline (%.4g us)", r->baseline_s * 1e6);
    }
}

/* Compute time when `s` of the SMs communicate for tcomm and then return to
 * compute (a communication kernel on a second stream ends and its SMs take
 * the compute kernel's remaining blocks; a persistent kernel hands them
 * tiles): the compute runs on S - s SMs (t_few) while the communication
 * lasts and on all of them (t_all) after it. If it finishes during the
 * communication it takes t_few; otherwise the fraction tcomm / t_few is
 * done by then and the rest runs at the full rate. Between t_all and
 * t_few, never above the unoverlapped t_all + tcomm. */
static double released_comp_s(double t_all, double t_few, double tcomm)
{
    if (!(t_few > tcomm))
        return t_few;
    return tcomm + t_all * (1 - tcomm / t_few);
}

/* One inter-SM candidate: s SMs (or NCCL's channels) communicate, the
 * others compute; t_all is the compute time on every SM (comp_s), the same
 * for every candidate. */
static void inter_try(const env *v, const ops_work *w, cr_op_result *r, int s, double tcomm,
                      const char *mech, double chunks, double steps, double t_all)
{
    const consts *c = &v->c;
    cr_op_sched *ex = &r->inter;
    if (!isfinite(tcomm) || s >= v->g->sms)
        return;
    double tt = 0;
    double tcomp = released_comp_s(t_all, comp_s(v, w, v->g->sms - s, &tt), tcomm);
    double tmem = mem_s(v, w->hbm_bytes);
    double non = fmin(tcomp, tcomm) / chunks + r->lat_chain_s;
    double sync = steps * c->sync_inter_s;
    double pred = c->launch_s + fmax(tcomp, fmax(tmem, tcomm)) + non + sync;
    if (pred < ex->pred_s) {
        ex->pred_s = pred;
        ex->comm_sms = s;
        ex->t_launch_s = c->launch_s;
        ex->t_comp_s = tcomp;
        ex->t_mem_s = tmem;
        ex->t_comm_s = tcomm;
        ex->t_nonoverlap_s = non;
        ex->t_sync_s = sync;
        cr_str_copy(ex->mech, sizeof ex->mech, mech);
    }
}

static cr_status schedules(const env *v, const ops_work *w, groups *gs, cr_op_result *r, cr_diag *d)
{
    const consts *c = &v->c;
    int S = v->g->sms;
    double steps = 0;
    for (int i = 0; i < w->n_ph; i++)
        steps += r->comm[i].group_size - 1;
    double chunks = fmax(w->group_size, 1), tiles = 0;
    double tmem = mem_s(v, w->hbm_bytes);

    /* intra-SM: every SM computes; producer warps issue TMA (register
     * ld/st where TMA cannot reach the peers). */
    cr_op_sched *in = &r->intra;
    in->t_launch_s = c->launch_s;
    double t_all = comp_s(v, w, S, &tiles);
    in->t_comp_s = t_all / (1 - c->intra_penalty);
    in->t_mem_s = tmem;
    cr_status st = comm_mech_s(v, w, gs, CR_MECH_TMA, S, r->t_comm_s, &in->t_comm_s, NULL, d);
    cr_str_copy(in->mech, sizeof in->mech, "tma");
    if (st == CR_OK && !isfinite(in->t_comm_s)) {
        st = comm_mech_s(v, w, gs, CR_MECH_LDST, S, r->t_comm_s, &in->t_comm_s, NULL, d);
        cr_str_copy(in->mech, sizeof in->mech, "ldst");
    }
    if (st != CR_OK)
        return st;
    double ichunks = w->tile_aligned ? fmax(chunks, tiles) : chunks;
    in->t_nonoverlap_s = fmin(in->t_comp_s, in->t_comm_s) / ichunks + r->lat_chain_s;
    in->t_sync_s = steps * c->sync_intra_s;
    in->pred_s = in->t_launch_s + fmax(in->t_comp_s, fmax(in->t_mem_s, in->t_comm_s)) +
                 in->t_nonoverlap_s + in->t_sync_s;
    if (!isfinite(in->pred_s))
        cr_str_copy(in->mech, sizeof in->mech, "none");

    /* inter-SM: s SMs communicate with the best device mechanism, S - s
     * compute; s = 0 is the copy engine; NCCL on its own channels is the
     * candidate that reaches every topology. */
    static const int cand[] = {1,  2,  4,  8,  12, 16, 20, 24,  32,
                               40, 48, 56, 64, 76, 80, 96, 112, 128};
    static const cr_mech mechs[] = {CR_MECH_TMA, CR_MECH_LDST, CR_MECH_MULTIMEM};
    r->inter.pred_s = INFINITY;
    double tcomm = INFINITY;
    int used = 0;
    st = comm_mech_s(v, w, gs, CR_MECH_CE, 0, r->t_comm_s, &tcomm, NULL, d);
    if (st != CR_OK)
        return st;
    inter_try(v, w, r, 0, tcomm, "ce", chunks, steps, t_all);
    st = comm_mech_s(v, w, gs, CR_MECH_NONE, 0, r->t_comm_s, &tcomm, &used, d);
    if (st != CR_OK)
        return st;
    inter_try(v, w, r, used > 0 ? used : 1, tcomm, "nccl", chunks, steps, t_all);
    for (size_t i = 0; i < sizeof cand / sizeof cand[0] && cand[i] < S; i++)
        for (size_t j = 0; j < sizeof mechs / sizeof mechs[0]; j++) {
            st = comm_mech_s(v, w, gs, mechs[j], cand[i], r->t_comm_s, &tcomm, NULL, d);
            if (st != CR_OK)
                return st;
            inter_try(v, w, r, cand[i], tcomm, cr_mech_name(mechs[j]), chunks, steps, t_all);
        }
    if (!isfinite(r->inter.pred_s))
        return cr_diag_set(d, CR_EUNSUPPORTED,
                           "no transfer mechanism (NCCL, copy engine, TMA, ld/st, multimem) can "
                           "run this operator's communication on this topology");
    sched_why(r, v, w);
    return CR_OK;
}

/* NCCL calls of one phase: one, or one per bucket and one for the
 * remainder (nccl_phase_s). */
static double ops_phase_calls(const ops_phase *ph)
{
    if (!(ph->bucket > 0) || ph->bucket >= ph->bytes)
        return 1;
    double nb = floor(ph->bytes / ph->bucket);
    return nb + (ph->bytes - nb * ph->bucket > 0 ? 1 : 0);
}

/* NCCL time of one phase, bucketed as DDP issues it. */
static cr_status nccl_phase_s(const ops_work *w, int i, groups *gs, const ops_comm_est *e,
                              double *out, cr_diag *d)
{
    const ops_phase *ph = &w->ph[i];
    *out = e->nccl_s;
    if (!(ph->bucket > 0) || ph->bucket >= ph->bytes)
        return CR_OK;
    double nb = floor(ph->bytes / ph->bucket), rem = ph->bytes - nb * ph->bucket;
    cr_coll_req rq = cr_coll_req_default(ph->coll, ph->bucket);
    rq.dtype = ph->dtype >= 0 ? (cr_dtype)ph->dtype : w->dt;
    cr_coll_pred pr;
    cr_status st = cr_coll_predict(gs->g[gs->gi[i]].ctx, &rq, &pr, d);
    if (st != CR_OK)
        return st;
    double t = nb * pr.pred_s;
    if (rem > 0) {
        rq.bytes = rem;
        st = cr_coll_predict(gs->g[gs->gi[i]].ctx, &rq, &pr, d);
        if (st != CR_OK)
            return st;
        t += pr.pred_s;
    }
    *out = t;
    return CR_OK;
}

cr_status cr_op_eval(const cr_topo *t, const cr_op_def *op, const cr_op_params *p, cr_op_result *r,
                     cr_diag *d)
{
    return ops_eval_cached(t, op, p, r, NULL, d);
}

cr_status ops_eval_cached(const cr_topo *t, const cr_op_def *op, const cr_op_params *p,
                          cr_op_result *r, ops_group_cache *cache, cr_diag *d)
{
    ops_work w;
    groups gs;
    memset(&gs, 0, sizeof gs);
    gs.cache = cache;
    cr_status st = cr_op_params_check(op, p, t, d);
    if (st != CR_OK)
        return st;
    st = counts(op, p, &w, r, d);
    if (st != CR_OK)
        return st;
    if (!t)
        return cr_diag_set(d, CR_EINVAL, "no topology given (cr_topo_open)");
    if (!t->finalized || t->n_gpus < 1)
        return cr_diag_set(d, CR_EINVAL, "topology %s is not finalized", t->name);
    env v;
    v.t = t;
    v.g = cr_topo_gpu_spec(t, 0);
    v.c = load_consts(t);
    if (!v.g || !(v.g->hbm_Bps > 0) || v.g->sms < 1)
        return cr_diag_set(d, CR_EUNSUPPORTED, "topology %s: GPU 0 has no HBM bandwidth or SMs",
                           t->name);
    v.peak_mma = v.g->peak_flops[w.dt];
    v.mma_bound = cr_op_mma_bound_flops(v.g, w.dt, r->mma_bound_by, sizeof r->mma_bound_by);
    r->mma_bound_flops = v.mma_bound;
    v.peak_vec = ops_vec_peak_flops(v.g, w.dt, v.peak_mma);
    v.vec_bound = cr_op_vec_bound_flops(v.g, w.dt, v.peak_mma);
    if ((w.mma_flops > 0 && !(v.peak_mma > 0)) || (w.vec_flops > 0 && !(v.peak_vec > 0))) {
        /* the element type asked for is the caller's choice, as a layout
         * larger than the machine is: CR_EINVAL, a usage error for the
         * CLI (op and check exited 1 here, 2 for every other option the
         * topology cannot honour; QA audit of the CLI), with the types
         * the part has */
        char has[96] = "";
        size_t n = 0;
        for (int k = 0; k < CR_DT__COUNT && n < sizeof has; k++) {
            double mma = v.g->peak_flops[k], vec = ops_vec_peak_flops(v.g, (cr_dtype)k, mma);
            if ((w.mma_flops > 0 && !(mma > 0)) || (w.vec_flops > 0 && !(vec > 0)))
                continue;
            int m = snprintf(has + n, sizeof has - n, "%s%s", n ? ", " : "",
                             cr_dtype_name((cr_dtype)k));
            n += m > 0 ? (size_t)m : 0;
        }
        return cr_diag_set(d, CR_EINVAL,
                           "%s (GPU of topology %s) has no %s peak FLOP/s: give dtype one of "
                           "those it has (%s), or a topology whose GPU has %s",
                           v.g->name, t->name, cr_dtype_name(w.dt), has[0] ? has : "none",
                           cr_dtype_name(w.dt));
    }
    /* Measured ceilings (commroof calibrate) replace the default
     * efficiencies: they are what this machine reaches. The HBM ceiling is
     * the best stream kernel (reads only); mixed traffic runs at the share
     * of it that a 2:1 read/write kernel reaches on the H200 (4.16 of
     * 4.65 TB/s, traces/h200-1/kernels-hbm.json). */
    double meas_mma = v.g->meas_flops[w.dt], meas_hbm = v.g->meas_hbm_Bps;
    if (meas_mma > 0 && v.peak_mma > 0 && !cr_topo_find_param(t, "ops.gemm.eff"))
        v.c.gemm_eff = gemm_eff_from_measured(&v, meas_mma);
    if (meas_hbm > 0 && !cr_topo_find_param(t, "ops.hbm.eff"))
        v.c.hbm_eff = fmin(meas_hbm / v.g->hbm_Bps * DEF_HBM_EFF / DEF_HBM_RD_EFF, 1);
    const consts *c = &v.c;

    if (op->shape == ops_shape_memcpy) {
        st = eval_memcpy(&v, &w, p->v[CR_OPP_BYTES], r, d);
        if (st != CR_OK)
            return st;
        r->attainable_s = r->bound_s;
        r->attainable_cold_s = r->bound_cold_s;
        if (w.copy_kind == 0 && meas_hbm > 0) {
            r->attainable_s = fmax(r->bound_s, cr_op_attainable_mem_s(v.g, w.hbm_bytes, false));
            r->attainable_cold_s =
                fmax(r->bound_cold_s, cr_op_attainable_mem_s(v.g, w.hbm_bytes, true));
        }
        r->headroom = r->bound_s > 0 ? r->baseline_s / r->bound_s : 0; /* 0: no bound */
        return CR_OK;
    }

    r->t_compute_s = fmax(w.mma_flops > 0 ? w.mma_flops / v.mma_bound : 0,
                          w.vec_flops > 0 ? w.vec_flops / v.vec_bound : 0);
    const char *mem_level = "hbm";
    r->t_hbm_s = cr_mem_floor_s(v.g, w.hbm_bytes, false, 0, &mem_level);
    r->t_hbm_cold_s = cr_mem_floor_s(v.g, w.hbm_bytes, true, 0, NULL);

    /* communication: per-cut sums, latency per stage */
    char comm_binding[64] = "comm";
    cutsum keys[MAX_KEYS];
    int nk = 0;
    double base_comm = 0;
    if (w.n_ph > 0) {
        st = open_groups(&v, p, &w, &gs, r, d);
        if (st != CR_OK)
            goto fail;
        double lat = 0, lat_max = 0, stage_lat = 0, stage_nccl = 0, stage_bound = 0;
        cutsum stage_keys[MAX_KEYS];
        int nsk = 0;
        for (int i = 0; i <= w.n_ph; i++) {
            if (i == w.n_ph || (i > 0 && !w.ph[i].concurrent)) {
                /* close the stage: NCCL's concurrent calls cannot beat the
                 * stage's own cut bound */
                int sk = worst_cut(stage_keys, nsk);
                stage_bound =
                    fmax(sk >= 0 ? cut_s(&stage_keys[sk]) + stage_keys[sk].lat_s : 0, stage_lat);
                base_comm += fmax(stage_nccl, stage_bound);
                lat += stage_lat;
                lat_max = fmax(lat_max, stage_lat);
                stage_lat = stage_nccl = 0;
                nsk = 0;
                if (i == w.n_ph)
                    break;
            }
            ops_comm_est e;
            st = ops_comm_eval(&gs.g[gs.gi[i]], &w.ph[i], w.dt, &e, d);
            if (st != CR_OK)
                goto fail;
            cr_op_comm *cc = &r->comm[i];
            cc->bound_s = e.bound.bound_s;
            cc->bound_lat_s = e.bound.lat_s;
            double bw_max = add_phase_cuts(keys, &nk, stage_keys, &nsk, &e);
            cr_str_copy(cc->binding, sizeof cc->binding, e.bound.binding);
            if (e.skew_term_s > 0) {
                if (e.skew_term_s > bw_max)
                    cr_str_copy(cc->binding, sizeof cc->binding, "gpu-ingress");
                cc->bound_s = fmax(cc->bound_s, e.skew_term_s);
            }
            double ns = 0;
            st = nccl_phase_s(&w, i, &gs, &e, &ns, d);
            if (st != CR_OK)
                goto fail;
            cc->nccl_s = ns;
            cr_str_copy(cc->algo, sizeof cc->algo, e.algo);
            cr_str_copy(cc->proto, sizeof cc->proto, e.proto);
            stage_lat = fmax(stage_lat, e.bound.lat_s);
            stage_nccl = fmax(stage_nccl, ns);
        }
        int best = worst_cut(keys, nk);
        if (best >= 0) {
            r->t_comm_s = cut_s(&keys[best]);
            r->t_comm_lat_s = keys[best].lat_s;
            cr_str_copy(comm_binding, sizeof comm_binding, keys[best].name);
        }
        /* the bound's latency is one group diameter: any operator can be
         * done in one round (every rank sends its inputs to every rank and
         * computes there), so the phases' latencies do not add for it (an
         * audit found sp_norm at 8 x 128 bound at 1.2 us where one round
         * takes 0.6); NCCL's dependent calls do, in the predictions */
        r->lat_s = lat_max;
        r->lat_chain_s = lat;
    }
    set_binding(r, comm_binding, mem_level);
    {
        /* the bound's max with measured ceilings: the memory term warm
         * as the bound's (it took every byte from HBM: an elementwise add
         * that fits the L2 had attainable 1.31 us beside a bound of 0.31) */
        double pm = meas_mma > 0 ? fmin(meas_mma, v.mma_bound) : v.mma_bound;
        double tc = fmax(w.mma_flops > 0 ? w.mma_flops / pm : 0,
                         w.vec_flops > 0 ? w.vec_flops / v.vec_bound : 0);
        double tx = r->t_comm_s + r->t_comm_lat_s;
        r->attainable_s =
            floor_of(tc, cr_op_attainable_mem_s(v.g, w.hbm_bytes, false), tx, r->lat_s);
        r->attainable_cold_s =
            floor_of(tc, cr_op_attainable_mem_s(v.g, w.hbm_bytes, true), tx, r->lat_s);
    }
    if (w.n_alt > 0 &&
        (st = bound_alternatives(&v, p, &w, &gs, meas_mma, mem_level, keys, nk, r, d)) != CR_OK)
        goto fail;

    /* baseline: PyTorch kernels, then NCCL, unoverlapped */
    double tiles = 0;
    /* each bucket of a bucketed phase is its own NCCL call, as
     * nccl_phase_s times it (ddp's 128 MiB of gradients in 25 MiB buckets
     * counted as one call: "2 launches" for 6 allreduces and a backward) */
    r->baseline_kernels = w.base_kernels;
    for (int i = 0; i < w.n_ph; i++)
        r->baseline_kernels += ops_phase_calls(&w.ph[i]);
    r->baseline_launch_s = w.base_kernels * c->torch_op_s;
    /* A pure collective's adds and copies run inside NCCL's kernels. */
    if (w.kernel == OPS_KERNEL_NONE && w.n_ph > 0)
        r->baseline_compute_s = 0;
    else
        r->baseline_compute_s = fmax(comp_s(&v, &w, v.g->sms, &tiles), mem_s(&v, w.base_hbm_bytes));
    r->baseline_comm_s = base_comm;
    r->baseline_s = r->baseline_launch_s + r->baseline_compute_s + r->baseline_comm_s;

    if (w.n_ph == 0) { /* single-GPU kernel: its device time */
        r->pred_s = kernel_s(&v, op, &w, p, &tiles);
        /* PyTorch launches the same kernel from its dispatcher. */
        r->baseline_compute_s = r->pred_s;
        r->baseline_s = r->baseline_launch_s + r->baseline_compute_s;
        cr_str_copy(r->schedule, sizeof r->schedule, "kernel");
        if (w.kernel == OPS_KERNEL_GEMM && tiles == 0)
            snprintf(r->why, sizeof r->why,
                     "one GEMV / split-K kernel over %d SMs (a skinny shape: no output tiles "
                     "to spread)",
                     v.g->sms);
        else if (w.kernel == OPS_KERNEL_GEMM) {
            double waves = ceil(tiles / v.g->sms);
            cr_snprintf_c(r->why, sizeof r->why,
                          "one kernel: %.0f tile%s in %.0f wave%s over %d SMs", tiles,
                          tiles == 1 ? "" : "s", waves, waves == 1 ? "" : "s", v.g->sms);
        } else
            snprintf(r->why, sizeof r->why, "one kernel over %d SMs", v.g->sms);
    } else if (w.overlappable && w.flops > 0) {
        r->has_overlap = true;
        st = schedules(&v, &w, &gs, r, d);
        if (st != CR_OK)
            goto fail;
    } else { /* pure communication: NCCL or the best custom kernel */
        double best = INFINITY;
        cr_mech bm = CR_MECH_NONE;
        for (int m = 0; m < CR_MECH__COUNT; m++) {
            double x = INFINITY;
            st = comm_mech_s(&v, &w, &gs, (cr_mech)m, 0, r->t_comm_s, &x, NULL, d);
            if (st != CR_OK)
                goto fail;
            if (x < best)
                best = x, bm = (cr_mech)m;
        }
        r->pred_s = r->baseline_comm_s + r->baseline_compute_s;
        cr_str_copy(r->schedule, sizeof r->schedule, "nccl");
        snprintf(r->why, sizeof r->why, "no compute to overlap: NCCL %s/%s is the fastest transfer",
                 r->comm[0].algo, r->comm[0].proto);
        if (best + r->baseline_compute_s < r->pred_s) {
            r->pred_s = best + r->baseline_compute_s;
            cr_str_copy(r->schedule, sizeof r->schedule, cr_mech_name(bm));
            snprintf(r->why, sizeof r->why,
                     "no compute to overlap: a custom %s kernel beats NCCL %s/%s (no "
                     "staging "
                     "buffers, one-sided sync)",
                     cr_mech_name(bm), r->comm[0].algo, r->comm[0].proto);
        }
    }
    r->headroom = r->bound_s > 0 ? r->baseline_s / r->bound_s : 0; /* 0: no bound */
    groups_close(&gs);
    /* No verdict from a non-finite number (issue 13 item 8): a peak of
     * 1e-300FLOP/s made the bound infinite and every time "impossible". */
    if (!isfinite(r->bound_s) || !isfinite(r->attainable_s) || !isfinite(r->pred_s) ||
        !isfinite(r->baseline_s))
        return cr_diag_set(d, CR_EINVARIANT,
                           "%s: the bound or prediction is not a finite time (bound %g s, "
                           "pred %g s): a figure of topology %s is out of any sane range "
                           "(commroof topo check names it)",
                           op->name, r->bound_s, r->pred_s, t->name);
    return CR_OK;
fail:
    groups_close(&gs);
    return st;
}

static cr_status eval_single(const cr_topo *t, const char *name, cr_op_params *p, cr_op_result *r,
                             cr_diag *d)
{
    const cr_op_def *op = NULL;
    cr_status st = cr_op_find(name, &op, d);
    if (st != CR_OK)
        return st;
    return cr_op_eval(t, op, p, r, d);
}

cr_status cr_op_eval_gemm(const cr_topo *t, double m, double n, double k, cr_dtype dt,
                          cr_op_result *r, cr_diag *d)
{
    cr_op_params p;
    cr_op_params_defaults(cr_op_at(0), &p);
    p.v[CR_OPP_M] = m, p.v[CR_OPP_N] = n, p.v[CR_OPP_K] = k, p.v[CR_OPP_DTYPE] = dt;
    if (!(m >= 1 && n >= 1 && k >= 1 && m < 1e12 && n < 1e12 && k < 1e12))
        return cr_diag_set(d, CR_ERANGE, "gemm: m, n, k must be 1 to 1e12");
    return eval_single(t, "gemm", &p, r, d);
}

cr_status cr_op_eval_memcpy(const cr_topo *t, const char *kind, bool pinned, double bytes,
                            cr_op_result *r, cr_diag *d)
{
    const cr_op_def *op = NULL;
    cr_status st = cr_op_find("memcpy", &op, d);
    if (st != CR_OK)
        return st;
    cr_op_params p;
    cr_op_params_defaults(op, &p);
    st = cr_op_param_set(op, &p, "kind", kind, d);
    if (st != CR_OK)
        return st;
    if (!(bytes > 0 && bytes <= 1e15))
        return cr_diag_set(d, CR_ERANGE, "memcpy: bytes must be more than 0 and at most 1e15");
    p.v[CR_OPP_PINNED] = pinned;
    p.v[CR_OPP_BYTES] = bytes;
    return cr_op_eval(t, op, &p, r, d);
}

cr_status cr_op_eval_sm_copy(const cr_topo *t, const char *mech, int sms, double bytes,
                             cr_op_result *r, cr_diag *d)
{
    bool tma = mech && strcmp(mech, "tma") == 0;
    if (!mech || (!tma && strcmp(mech, "ldst") != 0))
        return cr_diag_set(d, CR_EINVAL, "SM copy: mechanism \"%s\" is not ldst or tma",
                           mech ? mech : "(none)");
    cr_status st = cr_op_eval_memcpy(t, "d2d", true, bytes, r, d);
    if (st != CR_OK)
        return st;
    env v;
    memset(&v, 0, sizeof v);
    v.t = t;
    v.g = cr_topo_gpu_spec(t, 0);
    v.c = load_consts(t);
    if (sms < 1 || sms > v.g->sms)
        return cr_diag_set(d, CR_ERANGE, "SM copy: %d SMs, GPU 0 of %s has 1 to %d", sms, t->name,
                           v.g->sms);
    double sm_Bps = tma ? cr_topo_param(t, "ops.tma.sm_bw", DEF_TMA_SM_BPS)
                        : cr_topo_param(t, "ops.ldst.sm_bw", DEF_LDST_SM_BPS);
    double fixed = tma ? cr_topo_param(t, "ops.tma.fixed", DEF_TMA_FIXED_S)
                       : cr_topo_param(t, "ops.ldst.fixed", DEF_LDST_FIXED_S);
    double knee = fmax(cr_topo_param(t, "ops.smcopy.knee", DEF_SMCOPY_KNEE), 1);
    /* bytes copied per second when HBM binds: one byte read and one written
     * at the streaming rates (stream_s without the read latency, which the
     * fixed cost holds) */
    double hbm = 1 / (stream_s(&v, 1, 1) - v.c.hbm_rd_lat_s);
    double sm = fmax(sm_Bps, 1) * sms;
    /* soft minimum, normalised by the lesser rate so that no power
     * underflows */
    double lo = fmin(sm, hbm);
    double rate = lo * pow(pow(lo / sm, knee) + pow(lo / hbm, knee), -1 / knee);
    r->pred_s = fmax(fixed, 0) + bytes / rate;
    r->baseline_compute_s = r->pred_s;
    r->baseline_s = r->baseline_launch_s + r->baseline_compute_s;
    r->headroom = r->bound_s > 0 ? r->baseline_s / r->bound_s : 0; /* 0: no bound */
    cr_str_copy(r->schedule, sizeof r->schedule, tma ? "tma" : "ldst");
    cr_snprintf_c(r->why, sizeof r->why,
                  "%d SMs copy at %.3g GB/s each; HBM holds the copy to %.4g GB/s", sms,
                  sm_Bps / 1e9, hbm / 1e9);
    return CR_OK;
}

cr_status cr_op_launch_s(const cr_topo *t, const char *kind, double *out_s, cr_diag *d)
{
    static const struct {
        const char *kind, *key;
        double def_s;
    } k[] = {{"async", "ops.launch.host", DEF_LAUNCH_HOST_S},
             {"sync", "ops.launch.sync", DEF_LAUNCH_SYNC_S},
             {"graph", "ops.launch.graph", DEF_LAUNCH_GRAPH_S},
             {"event", "ops.launch.event", DEF_LAUNCH_EVENT_S},
             {"kernel", "ops.kernel.fixed", DEF_KERNEL_FIXED_S}};
    for (size_t i = 0; kind && i < sizeof k / sizeof k[0]; i++)
        if (strcmp(kind, k[i].kind) == 0) {
            *out_s = fmax(cr_topo_param(t, k[i].key, k[i].def_s), 0);
            return CR_OK;
        }
    return cr_diag_set(d, CR_EINVAL,
                       "launch kind \"%s\" is not async, sync, graph, event or kernel",
                       kind ? kind : "(none)");
}

cr_status cr_op_eval_elementwise(const cr_topo *t, double elems, double reads, double writes,
                                 double flops_per_elem, cr_dtype dt, cr_op_result *r, cr_diag *d)
{
    cr_op_params p;
    cr_op_params_defaults(NULL, &p);
    if (!(elems >= 1 && elems <= 1e15 && reads >= 0 && writes >= 0 && flops_per_elem >= 0))
        return cr_diag_set(d, CR_ERANGE, "elementwise: elems 1 to 1e15, reads, writes, FLOPs >= 0");
    p.v[CR_OPP_ELEMS] = elems, p.v[CR_OPP_READS] = reads, p.v[CR_OPP_WRITES] = writes;
    p.v[CR_OPP_FLOPS_PER] = flops_per_elem, p.v[CR_OPP_DTYPE] = dt;
    return eval_single(t, "elementwise", &p, r, d);
}
