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
#include <stddef.h>
#include <string.h>

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
    {"coll.eff.net", OFF(net_eff), K_DOUBLE, {0.92, 0.92, 0.92, 0.92}, 0.01, 1, "",
     "NVIDIA maintainer, NVIDIA/nccl-tests#290: NDR 400 Gb/s NICs should reach 46-48 GB/s each "
     "through NCCL; the low end, 46/50 (InfiniBand headers at 4 KiB MTU, proxy overhead); "
     "checked, not fitted, against 2x8 H200 allreduce (nccl-tests#256, doc/bounds.md 2.2.1)"},
    {"coll.eff.nvls", OFF(nvls_eff), K_DOUBLE, {0.70, 0.70, 0.85 * 20.6 / 25, 0.74 * 40.1 / 50},
     0.01, 1, "",
     "NCCL tuning.cc nvlsEfficiency (Hopper 0.85, Blackwell 0.74) times NCCL's NVLink accounting "
     "(topo.h SM90 20.6 of 25 GB/s, SM100 40.1 of 50 GB/s per link)"},
    {"coll.ll_max", OFF(ll_max_Bps), K_DOUBLE, {39e9, 87.7e9, 141e9, 282e9}, 1e6, 1e15, "B/s",
     "NCCL tuning.cc llMaxBws, one node (Volta 39, Ampere 87.7, Hopper 141, Blackwell 282 GB/s)"},
    {"coll.ll128_ch", OFF(ll128_ch_Bps), K_DOUBLE, {20e9, 20e9, 36.7e9, 40e9}, 1e6, 1e15, "B/s",
     "NCCL tuning.cc perChMaxRingLL128Bws"},
    {"coll.simple_ch", OFF(simple_ch_Bps), K_DOUBLE, {40e9, 40e9, 60e9, 90e9}, 1e6, 1e15, "B/s",
     "NCCL search.cc: largest per-channel speed it searches (speedArrayIntra 40, sm90 60, sm100 "
     "90 GB/s)"},
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
    {"coll.lat_scale", OFF(lat_scale), K_DOUBLE, {1, 1, 1, 1}, 0.01, 100, "",
     "1 = NCCL tuning.cc baseLat/hwLat tables as they are"},
    {"mech.ce.eff", OFF(mech_eff[CR_MECH_CE]), K_DOUBLE, {0.82, 0.82, 368.8 / 450, 368.8 / 450},
     0.01, 1, "",
     "fit: ParallelKittens (arXiv 2511.13940) copy engine 368.8 of 450 GB/s on H100, 1 GB; "
     "Blackwell uses Hopper's fraction (check: 726.1 of 900 measured)"},
    {"mech.tma.eff", OFF(mech_eff[CR_MECH_TMA]), K_DOUBLE, {0.78, 0.78, 350.0 / 450, 350.0 / 450},
     0.01, 1, "",
     "fit: ParallelKittens TMA 350.0 of 450 GB/s on H100 (check: B200 669.1 of 900)"},
    {"mech.ldst.eff", OFF(mech_eff[CR_MECH_LDST]), K_DOUBLE,
     {0.76, 0.76, 342.7 / 450, 342.7 / 450}, 0.01, 1, "",
     "fit: ParallelKittens register ld/st 342.7 of 450 GB/s on H100 (check: B200 628.4 of 900)"},
    {"mech.multimem.eff", OFF(mech_eff[CR_MECH_MULTIMEM]), K_DOUBLE,
     {0.76, 0.76, 342.7 / 450, 342.7 / 450}, 0.01, 1, "",
     "ParallelKittens: multimem is register ld/st through the switch; ld/st figure"},
    {"mech.ce.half", OFF(mech_half_bytes[CR_MECH_CE]), K_DOUBLE, {6.5e6, 6.5e6, 6.5e6, 6.5e6}, 0,
     1e12, "B",
     "fit: ParallelKittens, copy engine needs about 256 MB for over 80% of 450 GB/s: "
     "0.80/0.82 at 256 MB gives 6.5 MB"},
    {"mech.tma.half", OFF(mech_half_bytes[CR_MECH_TMA]), K_DOUBLE, {228, 228, 228, 228}, 0, 1e12,
     "B", "fit: ParallelKittens, TMA near peak (taken as 90%) from about 2 KB messages: 2048/9"},
    {"mech.ldst.half", OFF(mech_half_bytes[CR_MECH_LDST]), K_DOUBLE, {14, 14, 14, 14}, 0, 1e12,
     "B", "fit: ParallelKittens, ld/st efficient (taken as 90%) at 128 B granularity: 128/9"},
    {"mech.multimem.half", OFF(mech_half_bytes[CR_MECH_MULTIMEM]), K_DOUBLE, {14, 14, 14, 14}, 0,
     1e12, "B", "as ld/st (ParallelKittens)"},
    {"mech.tma.sms", OFF(mech_sat_sms[CR_MECH_TMA]), K_DOUBLE, {15, 15, 15, 15}, 1, 1024, "",
     "ParallelKittens: about 15 SMs saturate NVLink with TMA on H100"},
    {"mech.ldst.sms", OFF(mech_sat_sms[CR_MECH_LDST]), K_DOUBLE, {76, 76, 76, 76}, 1, 1024, "",
     "ParallelKittens: about 76 SMs saturate NVLink with ld/st on H100"},
    {"mech.multimem.sms", OFF(mech_sat_sms[CR_MECH_MULTIMEM]), K_DOUBLE, {76, 76, 76, 76}, 1, 1024,
     "", "as ld/st (ParallelKittens)"},
    {"mech.ce.launch", OFF(mech_launch_s[CR_MECH_CE]), K_DOUBLE, {5e-6, 5e-6, 5e-6, 5e-6}, 0, 1,
     "s", "estimate: host-side cudaMemcpyPeerAsync issue plus an event wait; unverified"},
    {"mech.tma.launch", OFF(mech_launch_s[CR_MECH_TMA]), K_DOUBLE, {4e-6, 4e-6, 4e-6, 4e-6}, 0, 1,
     "s", "estimate: one kernel launch and completion, as NCCL's ~4-8 us base latencies"},
    {"mech.ldst.launch", OFF(mech_launch_s[CR_MECH_LDST]), K_DOUBLE, {4e-6, 4e-6, 4e-6, 4e-6}, 0,
     1, "s", "as TMA"},
    {"mech.multimem.launch", OFF(mech_launch_s[CR_MECH_MULTIMEM]), K_DOUBLE,
     {4e-6, 4e-6, 4e-6, 4e-6}, 0, 1, "s", "as TMA"},
    {"mech.step", OFF(mech_step_s), K_DOUBLE, {2e-6, 2e-6, 1.8e-6, 1.8e-6}, 0, 1, "s",
     "estimate: flag write over NVLink and poll (about 1 us) plus ParallelKittens cross-SM sync "
     "through HBM 0.832 us"},
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
        if (!isfinite(v) || v < keys[i].lo || v > keys[i].hi)
            return cr_diag_set(d, CR_EINVAL,
                               "topology \"%s\": parameter %s = %g is outside its valid range "
                               "[%g, %g]%s%s",
                               t->name, keys[i].key, v, keys[i].lo, keys[i].hi,
                               keys[i].unit[0] ? " " : "", keys[i].unit);
        set_field(p, &keys[i], v);
    }
    return CR_OK;
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
