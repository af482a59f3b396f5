/* SPDX-License-Identifier: MIT */
/*
 * The matrix FLOP rate of the bound (cr_op_mma_bound_flops, model/ops.h):
 * fp32- and fp64-accurate matrix products run faster than the native
 * fp32 / fp64 peak by emulation on lower-precision tensor cores, so the
 * bound's compute term takes the fastest published scheme where it beats
 * the native peak (doc/bounds.md 1.10, doc/operators.md "What counts").
 *
 * A scheme's rate on a GPU is the dense peak of the unit it runs on, as
 * the topology gives it, over the least number of products that the
 * scheme's authors say gives results as accurate as the native type: a
 * rate no implementation of the scheme can beat, since each product costs
 * at least its FLOPs at that unit's peak (the conversions, the reductions
 * and the reconstruction cost more on top, which a bound leaves out). A
 * published measured emulation rate on a GPU model is a floor under the
 * result: a time someone measured is possible. The prediction and the
 * baseline stay on the native peak (model/ops.c): what PyTorch runs.
 */
#include "ops.h"
#include "sbuf.h"
#include "ops_priv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One emulation scheme: `products` products on `unit` tensor cores give a
 * `target`-accurate matrix product. */
typedef struct {
    cr_dtype target;
    cr_dtype unit;
    int products;
    const char *name;
} scheme;

static const scheme schemes[] = {
    /* CUTLASS example 27 (ampere_3xtf32_fast_accurate_tensorop_gemm):
     * a = big + small, each TF32; big*big + big*small + small*big, the
     * small*small product dropped: three TF32 products, "fast accurate
     * SGEMM" measured against SIMT SGEMM. Ootomo and Yokota, "Recovering
     * single precision accuracy from Tensor Cores while surpassing the FP32
     * theoretical peak performance", IJHPCA 2022 (arXiv 2203.03341): the
     * TF32 form matches FP32 SIMT accuracy over the full exponent range. */
    {CR_DT_FP32, CR_DT_TF32, 3, "3xTF32"},
    /* cuBLAS 12.9 CUBLAS_COMPUTE_32F_EMULATED_16BFX9: each fp32 operand
     * split into three bf16, nine bf16 products; "accuracy equivalent to
     * or better than native" (NVIDIA blog, "Unlocking Tensor Core
     * Performance with Floating Point Emulation in cuBLAS", 2025). */
    {CR_DT_FP32, CR_DT_BF16, 9, "BF16x9"},
    /* Ozaki scheme II on INT8 (Uchino, Ozaki, Imamura, "High-Performance
     * and Power-Efficient Emulation of Matrix Multiplication using INT8
     * Matrix Engines", SC'25, arXiv 2508.03984): one INT8 product per
     * modulus (GEMMul8, gemmul8_real.hpp: one cublasGemmEx per modulus in
     * fast mode; accurate mode adds one for the scaling). The abstract's
     * 3.0x native SGEMM on GH200 is the 7-modulus fast mode (the authors'
     * data, GEMMul8_numerical_results results_04, 16384^3: 162.2 against
     * 54.1 TFLOP/s); the GEMMul8 README gives 7-9 moduli (fast) and 6-8
     * (accurate, + 1 product) for SGEMM emulation on B200: 7 products. */
    {CR_DT_FP32, CR_DT_INT8, 7, "Ozaki II"},
    /* The same for DGEMM (Ozaki, Uchino, Imamura, "Ozaki Scheme II",
     * arXiv 2504.08009; SC'25 above: 1.4x native DGEMM on GH200): the
     * GEMMul8 README uses 14 moduli for DGEMM emulation and gives 14-17
     * (fast mode) on B200. The authors' GH200 data match native DGEMM's
     * median error at 15 moduli (16384^3, phi 0.5); the least count they
     * use, 14, keeps the bound a bound. */
    {CR_DT_FP64, CR_DT_INT8, 14, "Ozaki II"},
    /* Not here: the FP8 form of Ozaki II (Uchino, Ozaki, Imamura, arXiv
     * 2603.10634, for Blackwell Ultra and Rubin, whose INT8 is cut) takes
     * three or four FP8 products per modulus (GEMMul8 matmult.hpp,
     * gemm_low_prec_f8x3), so where FP8's peak is INT8's (every GPU model
     * shipped) it is slower than the INT8 form; cuBLAS's
     * COMPUTE_64F_EMULATED_FIXEDPOINT is Ozaki scheme I, whose s slices
     * take s(s+1)/2 INT8 products (Ootomo, Ozaki, Yokota, IJHPCA 2024),
     * more than Ozaki II's 14 for fp64's 53 bits. */
};

/* Published measured emulation rates, a floor under the bound's rate on
 * the GPU models named (the names as the shipped topologies and the GPU
 * catalog write them). None binds today: each lies below the rate of a
 * scheme above on that model (test_ops test_emulated_rates). */
static const struct {
    const char *models[4];
    cr_dtype target;
    double flops;
    const char *what;
} measured[] = {
    /* GH200: the H100's GH100 die with the H100 SXM's tensor peaks (GH200
     * datasheet), so its rates hold for the SXM parts of that die. */
    {{"H100-SXM", "H100-SXM-94GB", "H200-SXM", "GH200"},
     CR_DT_FP32,
     162.2e12,
     "Ozaki II on INT8, 7 moduli, GH200, 16384^3: 3.0x native SGEMM (SC'25, arXiv 2508.03984)"},
    {{"H100-SXM", "H100-SXM-94GB", "H200-SXM", "GH200"},
     CR_DT_FP64,
     80.2e12,
     "Ozaki II on INT8, GH200 (arXiv 2504.08009, abstract: 56.6 to 80.2 TFLOP/s)"},
    {{"B200"},
     CR_DT_FP32,
     259e12,
     "Ozaki II on INT8, fast mode 7-9 moduli, B200, 16384^3 (GEMMul8 README)"},
    {{"B200"},
     CR_DT_FP64,
     123e12,
     "Ozaki II on INT8, fast mode 14-17 moduli, B200, 16384^3 (GEMMul8 README)"},
    /* FP16 with error correction over a limited exponent range, 33 TFLOP/s
     * with TF32 over the full one (A100 SXM; Ootomo and Yokota above). */
    {{"A100-SXM-40GB", "A100-SXM-80GB"},
     CR_DT_FP32,
     51e12,
     "FP16 Tensor Cores with error correction, A100 (Ootomo and Yokota, arXiv 2203.03341)"},
};

static bool named(const char *const *models, const char *name)
{
    for (int i = 0; i < 4 && models[i]; i++)
        if (name && strcmp(models[i], name) == 0)
            return true;
    return false;
}

double cr_op_mma_bound_flops(const cr_gpu_spec *g, cr_dtype dt, char *by, size_t by_size)
{
    if (by && by_size)
        by[0] = '\0';
    if (!g || (int)dt < 0 || dt >= CR_DT__COUNT)
        return 0;
    double native = g->peak_flops[dt], best = native;
    /* emulation raises a rate the part has; a part without the type keeps
     * none (no prediction either: cr_op_eval refuses it) */
    if (!(native > 0) || (dt != CR_DT_FP32 && dt != CR_DT_FP64))
        return native;
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++) {
        const scheme *s = &schemes[i];
        double unit = g->peak_flops[s->unit], rate = unit / s->products;
        if (s->target != dt || !(unit > 0) || !(rate > best))
            continue;
        best = rate;
        if (by && by_size)
            cr_snprintf_c(by, by_size,
                          "%s matrix products by emulation, %s on %s tensor cores, %d products: "
                          "%.4g / %d = %.4g TFLOP/s, above the %s peak of %.4g",
                          cr_dtype_name(dt), s->name, cr_dtype_name(s->unit), s->products,
                          unit / 1e12, s->products, rate / 1e12, cr_dtype_name(dt), native / 1e12);
    }
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
        if (measured[i].target != dt || !named(measured[i].models, g->name) ||
            !(measured[i].flops > best))
            continue;
        best = measured[i].flops;
        if (by && by_size)
            cr_snprintf_c(by, by_size,
                          "%s matrix products by emulation, measured at %.4g TFLOP/s: %s",
                          cr_dtype_name(dt), best / 1e12, measured[i].what);
    }
    return best;
}

double ops_vec_peak_flops(const cr_gpu_spec *g, cr_dtype dt, double fallback)
{
    double f32 = g ? g->peak_flops[CR_DT_FP32] : 0;
    return f32 > 0 ? f32 * (cr_dtype_bytes(dt) < 4 ? 2 : 1) : fallback;
}

double cr_op_vec_bound_flops(const cr_gpu_spec *g, cr_dtype dt, double fallback)
{
    /* GA100's FP16 units: 78 TFLOP/s non-tensor FP16, 4x its FP32 (A100
     * whitepaper Table 1; NVIDIA's Hopper architecture post, Table 3, the
     * A100 column: FP16 78, BF16 39, FP32 19.5). A kernel doing HFMA2 there
     * reaches twice the doubled rate, which was no bound (bound audit,
     * session 45). */
    if (g && g->peak_flops[CR_DT_FP32] > 0 && dt == CR_DT_FP16 && g->arch == 80 && g->vendor &&
        strcmp(g->vendor, "nvidia") == 0)
        return 4 * g->peak_flops[CR_DT_FP32];
    return ops_vec_peak_flops(g, dt, fallback);
}
