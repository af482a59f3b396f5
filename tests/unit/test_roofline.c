/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of roofline (validate/roofline.h): the emit_nvtx range-name
 * parser, element types from kernel names, short kernel names, and the
 * table of the hand-made trace tests/fixtures/roofline/torch_block.json
 * (its generator's comments give each activity's time), with the fuzz
 * corpora replayed through the fuzz targets (range names, whole traces).
 */
#include "cr_test.h"

#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "topo.h"
#include "topo_xml.h"
#include "traces/reader/trace_summary.h"
#include "validate/roofline.h"
#include "validate/roofline_priv.h"

#include "tests/fuzz/fuzz_roofline_names.c"
/* the second target of this module, under a name of its own */
#define LLVMFuzzerTestOneInput fuzz_roofline_trace_input
#include "tests/fuzz/fuzz_roofline_trace.c"
#undef LLVMFuzzerTestOneInput

static void test_parse_names(void **state)
{
    (void)state;
    cr_rf_name n;
    cr_diag d = {{0}};
    /* the exact form of torch/csrc/profiler/util.cpp getNvtxStr */
    const char *s = "aten::addmm, seq = 3, op_id = 12, sizes = [[4096], [512, 1024], [1024, "
                    "4096], [], []], input_op_ids = [(0,-1), (1,0)]";
    assert_int_equal(cr_rf_parse_name(s, &n, &d), CR_OK);
    assert_string_equal(n.op, "aten::addmm");
    assert_int_equal(n.seq, 3);
    assert_int_equal(n.op_id, 12);
    assert_true(n.has_sizes);
    assert_false(n.truncated);
    assert_int_equal(n.n_shapes, 5);
    assert_int_equal(n.ndim[0], 1);
    assert_int_equal(n.ndim[1], 2);
    assert_int_equal(n.dim[2][1], 4096);
    assert_int_equal(n.ndim[3], 0);
    assert_close(cr_rf_numel(&n, 1), 512.0 * 1024, 0, 0);
    assert_close(cr_rf_numel(&n, 3), 1, 0, 0);
    assert_true(cr_rf_numel(&n, 5) < 0);
    assert_int_equal(strncmp(s + n.sizes_off, "[[4096]", 7), 0);
    assert_int_equal(s[n.sizes_off + n.sizes_len - 1], ']');
    assert_int_equal(s[n.sizes_off + n.sizes_len], ',');

    /* no seq (outside autograd), no sizes */
    assert_int_equal(cr_rf_parse_name("aten::empty, op_id = 7", &n, &d), CR_OK);
    assert_int_equal(n.seq, -1);
    assert_false(n.has_sizes);
    /* a plain user range parses as an operator name alone */
    assert_int_equal(cr_rf_parse_name("my range", &n, &d), CR_OK);
    assert_string_equal(n.op, "my range");

    /* cut at 256 bytes by the tracer: inside sizes, inside a key */
    assert_int_equal(cr_rf_parse_name("aten::mm, op_id = 1, sizes = [[8, 4], [4", &n, &d), CR_OK);
    assert_true(n.truncated);
    assert_int_equal(n.n_shapes, 1);
    assert_int_equal(cr_rf_parse_name("aten::mm, op_id = 1, si", &n, &d), CR_OK);
    assert_false(n.has_sizes);
    /* input_op_ids: one pair per input; cut or longer than sizes: none */
    assert_int_equal(cr_rf_parse_name(s, &n, &d), CR_OK);
    assert_int_equal(n.n_ids, 2);
    assert_int_equal(n.id_op[0], 0);
    assert_int_equal(n.id_out[0], -1);
    assert_int_equal(n.id_op[1], 1);
    assert_int_equal(n.id_out[1], 0);
    assert_int_equal(
        cr_rf_parse_name("aten::mul, op_id = 6, sizes = [[4], [4]], input_op_ids = [(5,0), (5", &n,
                         &d),
        CR_OK);
    assert_int_equal(n.n_ids, 0);
    assert_true(n.ids_cut);
}

static void test_parse_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "aten::mm, colour = 3",                            /* unknown key */
        "aten::mm, seq = x",                               /* not an integer */
        "aten::mm, sizes = [[1 2]]",                       /* no separator */
        "aten::mm, sizes = [[1, 2, 3, 4, 5, 6, 7, 8, 9]]", /* > 8 dimensions */
        "aten::mm, sizes = [[9007199254740993]]",          /* > 2^53 */
        "aten::mm, sizes = [[1]], sizes = [[2]]",          /* twice */
        ", sizes = [[1]]",                                 /* no operator */
        "aten::mm,sizes = [[1]]",                          /* not ", " */
        "aten::mm, sizes = [[-1]]",                        /* negative */
        /* more than 2^63 - 1 elements (PyTorch's numel is an int64_t):
         * (2^53)^2 made a GEMM bound of 1.5e39 us, every call impossible;
         * 2^30 x 2^33 = 2^63 is one too many */
        "aten::mm, sizes = [[9007199254740992, 9007199254740992], [1, 1]]",
        "aten::mm, sizes = [[1, 1], [1073741824, 8589934592]]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_rf_name n;
        cr_diag d = {{0}};
        if (cr_rf_parse_name(bad[i], &n, &d) != CR_EPARSE)
            fail_msg("\"%s\" parsed", bad[i]);
        assert_true(d.msg[0] != '\0');
    }
    /* the largest count is one, and a zero dimension empties the rest */
    cr_rf_name n;
    cr_diag d = {{0}};
    assert_int_equal(cr_rf_parse_name("aten::add, sizes = [[1073741824, 8589934591], [0, "
                                      "9007199254740992, 9007199254740992]]",
                                      &n, &d),
                     CR_OK);
    assert_int_equal(n.n_shapes, 2);
    assert_true(cr_rf_numel(&n, 1) == 0);
}

static void test_kernel_dtype_and_short_names(void **state)
{
    (void)state;
    assert_int_equal(cr_rf_kernel_dtype("void at::native::vectorized_elementwise_kernel<4, "
                                        "at::native::CUDAFunctor_add<c10::BFloat16>>(int)"),
                     CR_DT_BF16);
    assert_int_equal(cr_rf_kernel_dtype("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128"),
                     CR_DT_BF16);
    assert_int_equal(cr_rf_kernel_dtype("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8"),
                     CR_DT_FP32);
    assert_int_equal(cr_rf_kernel_dtype("ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)"), CR_DT_FP32);
    /* cuDNN's f16 is the 16-bit family, one name for fp16 and bf16 (an
     * H100's float16 and bfloat16 SDPA, traces/h100-1/cudnn-names-*) */
    assert_int_equal(cr_rf_kernel_dtype("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_"
                                        "f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0"),
                     -1);
    assert_int_equal(cr_rf_kernel_elem_bytes("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_"
                                             "wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0"),
                     2);
    /* cuBLASLt's nvjet codes (roofline_name.c nvjet_types): t bf16, h
     * fp16, q fp8 (qqtst: fp8 in, bf16 out: fp8, the least bound); s
     * (fp32, maybe run as TF32) unread; the tile's "_h_" is not the code */
    assert_int_equal(cr_rf_kernel_dtype("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT"),
                     CR_DT_BF16);
    assert_int_equal(cr_rf_kernel_dtype("nvjet_sm90_hsh_128x256_64x4_2x1_v_bz_TNN"), CR_DT_FP16);
    assert_int_equal(cr_rf_kernel_dtype("nvjet_sm90_qqtst_128x128_128x6_1x2_h_bz_coopA_algo2_TNT"),
                     CR_DT_FP8);
    assert_int_equal(cr_rf_kernel_dtype("nvjet_hsh_64x8_64x16_4x1_v_bz_splitK_TNT"), CR_DT_FP16);
    assert_int_equal(cr_rf_kernel_dtype("nvjet_sm90_sss_128x64_64x8_2x1_v_bz_TNN"), -1);
    assert_int_equal(cr_rf_kernel_dtype("nvjet_sm90_256x128_h_bz_TNT"), -1); /* no code */
    /* a conversion names both types: the smaller element (fp8 in, bf16
     * out, 3 bytes an element where bf16 alone would bound 4: the bound
     * must not exceed what the copy moves); tf32 over fp32, its peak */
    assert_int_equal(cr_rf_kernel_dtype("void at::native::unrolled_elementwise_kernel<at::native::"
                                        "direct_copy_kernel_cuda(...)::{lambda(c10::Float8_e4m3fn)"
                                        "#1}, c10::BFloat16>(int)"),
                     CR_DT_FP8);
    assert_int_equal(
        cr_rf_kernel_dtype("sm80_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32"),
        CR_DT_TF32);

    char b[128];
    assert_string_equal(cr_trace_short_name("void at::native::vectorized_elementwise_kernel<4, "
                                            "at::native::bfloat16_copy_kernel_cuda(at::"
                                            "TensorIteratorBase&)::{lambda(float)#1}, "
                                            "std::array<char*, 2ul> >(int, std::array<char*, 2ul>)",
                                            b, sizeof b),
                        "at::native::vectorized_elementwise_kernel");
    assert_string_equal(cr_trace_short_name("void at::native::(anonymous namespace)::"
                                            "vectorized_layer_norm_kernel<c10::BFloat16, float>("
                                            "int, float)",
                                            b, sizeof b),
                        "at::native::(anonymous namespace)::vectorized_layer_norm_kernel");
    assert_string_equal(cr_trace_short_name("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<"
                                            "4096ul>)",
                                            b, sizeof b),
                        "ncclDevKernel_SendRecv");
    assert_string_equal(cr_trace_short_name("nvjet_sm90_tst_256x128", b, sizeof b),
                        "nvjet_sm90_tst_256x128");
    assert_string_equal(cr_trace_short_name("_Z6kernelPf", b, sizeof b), "_Z6kernelPf");
    assert_string_equal(cr_trace_short_name("void k<1>(int)", b, 4), "k");
    /* a comparison in a template argument, as __cxa_demangle writes one
     * (g++ 12 and c++filt on an instantiation of template<int N>
     * std::enable_if_t<(N < 2)> k(int)): the '<' between ")(" compares,
     * the name is still k's; "std::enable_if" merged every such kernel
     * into one row */
    assert_string_equal(
        cr_trace_short_name("std::enable_if<(1)<(2), void>::type k<1>(int)", b, sizeof b), "k");
    assert_string_equal(cr_trace_short_name("std::enable_if<((4)<<(1))<(0), void>::type "
                                            "ns::sl<4>(float*)",
                                            b, sizeof b),
                        "ns::sl");
    assert_string_equal(
        cr_trace_short_name("std::enable_if<((3)>(2)), void>::type j<3>(int)", b, sizeof b), "j");
    assert_string_equal(cr_trace_short_name("void k<&(operator<(A, A))>(A<(1)<=(2)>)", b, sizeof b),
                        "k");
}

/* The row of op (the first row when there is none: the test then fails on
 * its values, after saying which row was missing). */
static const cr_rf_row *find(const cr_roofline *r, const char *op)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->rows[i].op, op))
            return &r->rows[i];
    print_error("no row %s\n", op);
    static const cr_rf_row none;
    return &none;
}

/* The fixture's times (tests/fixtures/roofline/README.md): addmm 9, 10,
 * 11 us inside aten::linear; native_layer_norm, add 4 us; flash attention
 * 60 us; copy_ a 5 us d2d memcpy of 8 MiB; gelu 3 us; one kernel in no
 * range; two 1 MiB all-reduces of 20 and 22 us on a 2-rank communicator. */
/* A real kernel's best time from the audit's traces (PyTorch 2.11 on the
 * H200, tests/fixtures/roofline/audit/README.md) must not be below its
 * bound; the bound cold (HBM at 4.8 TB/s) is the bytes given. */
static const cr_rf_row *audit_row(const cr_topo *t, const char *file, const char *args,
                                  cr_roofline *r)
{
    char path[160];
    snprintf(path, sizeof path, "tests/fixtures/roofline/audit/%s", file);
    cr_roofline_opts o = {0};
    o.has_dtype = true;
    o.dtype = CR_DT_BF16;
    cr_diag d = {{0}};
    const char *paths[] = {path};
    if (cr_roofline_read(t, paths, 1, &o, r, &d) != CR_OK)
        fail_msg("%s: %s", path, d.msg);
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].kind == CR_RF_ATEN && !strcmp(r->rows[i].args, args)) {
            assert_true(r->rows[i].has_bound);
            assert_false(r->rows[i].violation);
            assert_true(r->rows[i].min_s > r->rows[i].bound_s);
            return &r->rows[i];
        }
    fail_msg("%s: no row %s", file, args);
    return NULL;
}

static const char *case_get(const cr_rf_case *m, const char *k)
{
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->k[i], k))
            return m->v[i];
    return "1"; /* the catalog's default where a case leaves it out */
}

/* matmul's leading dimensions broadcast into a batch: [1024, 1024] x [8,
 * 1024, 1024] is 8 products (before the batch fix, m = 1024: a bound 8x too
 * small). An operand with a batch may be one matrix broadcast over it
 * (PyTorch runs matmul([1, m, k], [b, k, n]) as bmm of an expanded A), so
 * both count once and C per product (batch), unless input_op_ids show one
 * fresh and whole: then the batch is folded into its side. The audit's
 * [[4, 1, 16, 32], [1, 6, 32, 8]] holds 4 x 512 + 6 x 256 elements and
 * writes 24 x 128; folding into m counted A 24 times (15,616 elements),
 * now 512 + 256 + 3072 = 3840 <= 6656. Shapes whose batches do not
 * broadcast get no case. */
/* Element counts a double no longer holds exactly (2^53 and more: 9 PB at
 * a byte, beyond any GPU) have no case: a cat of four tensors of 2^62
 * elements, each one PyTorch can describe, summed to 2^64, whose uint64_t
 * conversion in the gcd of the case's parts is undefined (it gave
 * elems = 0); one tensor of 2^63 - 2^30 elements was refused by the
 * catalog only by its range (elems up to 1e18). */
static void test_counts_beyond_exact(void **state)
{
    (void)state;
    static const char *const names[] = {
        "aten::cat, op_id = 1, sizes = [[1073741824, 4294967296], [1073741824, 4294967296], "
        "[1073741824, 4294967296], [1073741824, 4294967296], []]",
        "aten::add, op_id = 1, sizes = [[1073741824, 8589934591], [], []]",
        "aten::add, op_id = 1, sizes = [[1048576, 8589934592], [], []]", /* 2^53: refused */
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        cr_rf_name pn;
        cr_diag d = {{0}};
        assert_int_equal(cr_rf_parse_name(names[i], &pn, &d), CR_OK);
        cr_rf_owned own = {.kernel = true};
        assert_int_equal(cr_rf_resolve_inputs(&pn, NULL, NULL, &own.in), CR_OK);
        cr_rf_case m;
        assert_true(cr_rf_map_aten(&pn, &own, &m));
        cr_rf_inputs_free(&own.in);
        cr_dtype dt = CR_DT_BF16;
        assert_false(cr_rf_case_finish(&m, &dt));
        assert_non_null(strstr(m.note, "2^53"));
    }
    /* just under 2^53 elements: a case */
    cr_rf_name pn;
    cr_diag d = {{0}};
    assert_int_equal(
        cr_rf_parse_name("aten::add, op_id = 1, sizes = [[1048575, 8589934592], [], []]", &pn, &d),
        CR_OK);
    cr_rf_owned own = {.kernel = true};
    assert_int_equal(cr_rf_resolve_inputs(&pn, NULL, NULL, &own.in), CR_OK);
    cr_rf_case m;
    assert_true(cr_rf_map_aten(&pn, &own, &m));
    cr_rf_inputs_free(&own.in);
    cr_dtype dt = CR_DT_BF16;
    assert_true(cr_rf_case_finish(&m, &dt));
    assert_string_equal(case_get(&m, "elems"), "9007190664806400");
}

static void test_matmul_batch(void **state)
{
    (void)state;
    static const struct {
        const char *sizes;
        const char *m, *n, *batch; /* m NULL: no case */
        bool a_fresh, b_fresh;
    } cases[] = {
        {"[[1024, 1024], [8, 1024, 1024]]", "1024", "1024", "8", false, false},
        {"[[1024, 1024], [8, 1024, 1024]]", "1024", "8192", "1", false, true},
        {"[[8, 1024, 1024], [1024, 1024]]", "8192", "1024", "1", false, false},
        {"[[8, 1024, 1024], [8, 1024, 1024]]", "1024", "1024", "8", false, false},
        {"[[8, 1024, 1024], [8, 1024, 1024]]", "8192", "1024", "1", true, true},
        {"[[4, 1, 16, 32], [1, 6, 32, 8]]", "16", "8", "24", true, true},
        {"[[3, 16, 32], [4, 32, 8]]", NULL, NULL, NULL, false, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[160];
        snprintf(name, sizeof name, "aten::matmul, seq = 0, op_id = 1, sizes = %s", cases[i].sizes);
        cr_rf_name pn;
        cr_diag d = {{0}};
        assert_int_equal(cr_rf_parse_name(name, &pn, &d), CR_OK);
        cr_rf_owned own = {.kernel = true};
        assert_int_equal(cr_rf_resolve_inputs(&pn, NULL, NULL, &own.in), CR_OK);
        own.in.fresh[0] = cases[i].a_fresh;
        own.in.fresh[1] = cases[i].b_fresh;
        cr_rf_case m;
        bool ok = cr_rf_map_aten(&pn, &own, &m);
        cr_rf_inputs_free(&own.in);
        if (!cases[i].m) {
            assert_false(ok);
            continue;
        }
        assert_true(ok);
        assert_string_equal(case_get(&m, "m"), cases[i].m);
        assert_string_equal(case_get(&m, "n"), cases[i].n);
        assert_string_equal(case_get(&m, "batch"), cases[i].batch);
    }
}

/* The audit's bmm of A [8192, 4096] expanded to 64 against B [64, 4096,
 * 64] bf16, and matmul(A[None], B) (the same bmm): best 678.7 and 684.9 us,
 * bounded at 895.8 us (A's bytes counted 64 times, impossible). FLOPs
 * 2 x 64 x 8192 x 64 x 4096 = 2.75e11 at 989.5 TFLOP/s: 278 us, binding. */
static void test_bmm_broadcast(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    const char *files[] = {"bmmexp.trace.json", "matmulexp.trace.json"};
    for (int i = 0; i < 2; i++) {
        cr_roofline r;
        const cr_rf_row *w = audit_row(t, files[i], "[[64, 8192, 4096], [64, 4096, 64]]", &r);
        assert_close(w->bound_s, 2.0 * 64 * 8192 * 64 * 4096 / 989.5e12, 1e-3, 0);
        assert_string_equal(w->binding, "compute");
        cr_roofline_release(&r);
    }
    cr_topo_free(t);
}

/* Packed (variable-length) attention: q [1, T, h, d] holds n sequences
 * given by cu_seqlens [n + 1]; each attends only within itself, so the
 * least work is n equal sequences of floor(T / n) (sum s_i (s_i + 1) / 2 is
 * convex), never one sequence of T. PyTorch 2.11's nested-tensor path on
 * the H200: _efficient_attention_forward of 64 x 1024 packed tokens took
 * 1.87 ms where the T^2 / 2 case bounded it at 17.8 ms (impossible). */
static void test_attention_packed(void **state)
{
    (void)state;
    static const struct {
        const char *name, *batch, *seq;
    } cases[] = {
        {"aten::_efficient_attention_forward, seq = 0, op_id = 1, sizes = [[1, 65536, 16, 128], "
         "[1, 65536, 16, 128], [1, 65536, 16, 128], [], [65], [65], [], [], [], [], [], [], [], "
         "[]]",
         "64", "1024"},
        /* 1000 tokens of 3 sequences: at least 3 of 333 */
        {"aten::_efficient_attention_forward, seq = 0, op_id = 1, sizes = [[1, 1000, 8, 64], [1, "
         "1000, 8, 64], [1, 1000, 8, 64], [], [4], [4], [], []]",
         "3", "333"},
        {"aten::_flash_attention_forward, seq = 0, op_id = 1, sizes = [[1, 4096, 8, 64], [1, "
         "4096, 8, 64], [1, 4096, 8, 64], [5], [5], [], []]",
         "4", "1024"},
        /* not packed: the batch and sequence as given */
        {"aten::_efficient_attention_forward, seq = 0, op_id = 1, sizes = [[2, 4096, 8, 64], [2, "
         "4096, 8, 64], [2, 4096, 8, 64], [], [], [], [], []]",
         "2", "4096"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_rf_name pn;
        cr_diag d = {{0}};
        assert_int_equal(cr_rf_parse_name(cases[i].name, &pn, &d), CR_OK);
        cr_rf_owned own = {.kernel = true};
        cr_rf_case m;
        assert_true(cr_rf_map_aten(&pn, &own, &m));
        assert_string_equal(m.op, "attention");
        assert_string_equal(m.k[0], "batch");
        assert_string_equal(m.v[0], cases[i].batch);
        assert_string_equal(m.k[3], "seq");
        assert_string_equal(m.v[3], cases[i].seq);
    }
}

/* x * x reads x once. The audit's x = randn(2^29) bf16, x * x: the
 * kernel's best 523.4 us; 3 x 1 GiB (two reads, a write) bounded it at
 * 658 us (impossible). Without input_op_ids one full-size operand is read;
 * with them, one tensor (the same pair, or through a view) once, two
 * fresh tensors twice. */
static void test_same_tensor_once(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    const double n = 536870912, hbm = 4.8e12;
    cr_roofline r;
    const cr_rf_row *w = audit_row(t, "mulxx.trace.json", "[[536870912], [536870912]]", &r);
    assert_close(w->bound_cold_s, 2 * n * 2 / hbm, 1e-3, 0);
    cr_roofline_release(&r);
    w = audit_row(t, "ids_mul.json", "[[536870912], [536870912]]", &r);
    assert_int_equal(w->calls, 2); /* x * x and x * x.view(-1) */
    assert_close(w->bound_cold_s, 2 * n * 2 / hbm, 1e-3, 0);
    cr_roofline_release(&r);
    w = audit_row(t, "ids_mul.json", "[[268435456], [268435456]]", &r);
    assert_close(w->bound_cold_s, 3 * n / 2 * 2 / hbm, 1e-3, 0);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

/* Calls of one operator and sizes whose inputs resolve differently are one
 * row, bounded by the weakest call's case, each call held to its own.
 * ids_mix.json: mul of [2^29] bf16 twice with x * x's kernel (523.4 us on
 * the H200): x * y of two fresh tensors (input_op_ids: 3 x 1 GiB, cold
 * 671.1 us, its warm bound above 523.4 us: impossible) and a * b without
 * ids (one read: 2 x 1 GiB, cold 447.4 us). */
static void test_inputs_resolved_apart(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    const double n = 536870912, hbm = 4.8e12;
    cr_roofline_opts o = {0};
    o.has_dtype = true;
    o.dtype = CR_DT_BF16;
    const char *paths[] = {"tests/fixtures/roofline/audit/ids_mix.json"};
    cr_roofline r;
    if (cr_roofline_read(t, paths, 1, &o, &r, &d) != CR_OK)
        fail_msg("%s: %s", paths[0], d.msg);
    assert_int_equal(r.n, 1);
    const cr_rf_row *w = &r.rows[0];
    assert_string_equal(w->op, "aten::mul");
    assert_int_equal(w->calls, 2);
    assert_true(w->has_bound);
    /* the row's bound is the smaller, the one-read case's: below both calls */
    assert_close(w->bound_cold_s, 2 * n * 2 / hbm, 1e-3, 0);
    assert_true(w->bound_s <= w->bound_cold_s);
    assert_true(w->min_s > w->bound_s && w->median_s > w->bound_s);
    /* the fresh call's own bound (the rest of bound_total) is above its
     * time: impossible, though the row's bound is below every call */
    double own = w->bound_total_s - w->bound_s;
    assert_true(own > w->bound_s);
    assert_true(own > w->min_s);
    assert_true(own < 3 * n * 2 / hbm); /* warm, at most its cold 671.1 us */
    assert_true(w->violation);
    assert_string_equal(w->verdict, "impossible");
    assert_int_equal(r.violations, 1);
    assert_non_null(strstr(w->note, "below its own bound"));
    assert_non_null(strstr(w->note, "1 of 2 calls' inputs unproven (no input_op_ids)"));
    /* each call saves down to its own bound; these beat it: nothing to
     * save (not a negative figure beside a total that leaves it out) */
    assert_true(w->total_s < w->bound_total_s);
    assert_close(w->save_s, 0, 0, 0);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

/* copy_ of an expanded view reads its source, not the destination's size.
 * The audit's r[1, 2^24].expand(64, 2^24).contiguous() bf16: bounded at
 * 2^30 x (2 B written + 1 B read) = 671 us cold, above what a write-only
 * kernel takes (2 GiB at the 4.33 TB/s this repo measured: 496 us). Without
 * input_op_ids a source of the destination's size may be such a view: the
 * write alone (2^31 B); with them, the expand's own sizes give the
 * source, read at 1 byte an element (2^31 + 2^24 B); a [1, N] source whose
 * sizes show the broadcast reads N. */
static void test_expanded_source(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    const double n = 16777216, hbm = 4.8e12;
    cr_roofline r;
    const cr_rf_row *w =
        audit_row(t, "cloneexp.trace.json", "[[64, 16777216], [64, 16777216], []]", &r);
    assert_close(w->bound_cold_s, 64 * n * 2 / hbm, 1e-3, 0);
    cr_roofline_release(&r);
    w = audit_row(t, "ids_copy.json", "[[64, 16777216], [64, 16777216], []]", &r);
    assert_close(w->bound_cold_s, (64 * n * 2 + n) / hbm, 1e-3, 0);
    cr_roofline_release(&r);
    w = audit_row(t, "ids_copy.json", "[[64, 16777216], [1, 16777216], []]", &r);
    assert_close(w->bound_cold_s, (64 * n * 2 + n) / hbm, 1e-3, 0);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

/* Gathers write their output and read the distinct rows, which no trace
 * gives: repeated indices read a row once. The audit's embedding of 65536
 * zeros from W [50000, 4096] bf16 (run as aten::gather, best 148.2 us) was
 * bounded at 210.6 us for 65536 rows read and written. Now the write,
 * 65536 x 4096 x 2 B, and the index (an expand of [65536, 1] under
 * input_op_ids: 65536 x 4 B; without ids, left out). embedding and
 * index_select likewise: n x h written, no row read. index_select's dim
 * is no tensor in sizes: n x the smaller of rows and h (dim 1 of x [64,
 * 65536] with 32768 indices writes 64 x 32768 elements; it was bounded at
 * 32768 x 65536). */
static void test_gather_rows(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    const double out = 65536.0 * 4096 * 2, hbm = 4.8e12;
    const char *args = "[[50000, 4096], [], [65536, 4096], [], [65536, 4096]]";
    cr_roofline r;
    const cr_rf_row *w = audit_row(t, "emb0.trace.json", args, &r);
    assert_close(w->bound_cold_s, out / hbm, 1e-3, 0);
    cr_roofline_release(&r);
    w = audit_row(t, "ids_emb.json", args, &r);
    assert_close(w->bound_cold_s, (out + 4 * 65536.0) / hbm, 1e-4, 0);
    cr_roofline_release(&r);
    cr_topo_free(t);
    static const char *const names[] = {
        "aten::embedding, op_id = 1, sizes = [[50000, 4096], [8, 8192], [], [], []]",
        "aten::index_select, op_id = 1, sizes = [[50000, 4096], [], [65536]]",
        "aten::index_select, op_id = 1, sizes = [[4096, 50000], [], [65536]]",
    };
    for (int i = 0; i < 3; i++) {
        cr_rf_name pn;
        assert_int_equal(cr_rf_parse_name(names[i], &pn, &d), CR_OK);
        cr_rf_owned own = {.kernel = true};
        assert_int_equal(cr_rf_resolve_inputs(&pn, NULL, NULL, &own.in), CR_OK);
        cr_rf_case m;
        assert_true(cr_rf_map_aten(&pn, &own, &m));
        cr_rf_inputs_free(&own.in);
        assert_close(m.w_elems, 65536.0 * 4096, 0, 0);
        assert_close(m.r_elems, 0, 0, 0);
    }
    cr_rf_name pn;
    assert_int_equal(
        cr_rf_parse_name("aten::index_select, op_id = 1, sizes = [[64, 65536], [], [32768]]", &pn,
                         &d),
        CR_OK);
    cr_rf_owned own = {.kernel = true};
    assert_int_equal(cr_rf_resolve_inputs(&pn, NULL, NULL, &own.in), CR_OK);
    cr_rf_case m;
    assert_true(cr_rf_map_aten(&pn, &own, &m));
    cr_rf_inputs_free(&own.in);
    assert_close(m.w_elems, 64.0 * 32768, 0, 0);
}

/* Mixed input types: bf16 [n] + fp32 [n] -> fp32 runs PyTorch's
 * unrolled_elementwise_kernel<CUDAFunctor_add<float>, ..., LoadWithCast<2>,
 * StoreWithCast<1>>, naming only float; every operand at 4 B bounded it at
 * 12n B (671 us cold for n = 2^28, above the 645 us a fused kernel at this
 * repo's measured 4.16 TB/s triad rate would take; truth 10n B). Reads
 * now at 1 byte an element, the write at the named type: without
 * input_op_ids one read, 5n B = 279.6 us. Untyped kernel names that show
 * an element size bound with it, never wider than --dtype. */
static void test_mixed_types(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    const double n = 268435456, hbm = 4.8e12;
    cr_roofline r;
    const cr_rf_row *w = audit_row(t, "addmix.trace.json", "[[268435456], [268435456], []]", &r);
    assert_close(w->bound_cold_s, (n * 1 + n * 4) / hbm, 1e-3, 0);
    assert_true(w->bound_s < 645e-6);
    assert_string_equal(w->dtype, "fp32");
    cr_roofline_release(&r);
    cr_topo_free(t);
    /* the demo trace's cat kernel: 2-byte elements */
    assert_int_equal(
        cr_rf_kernel_elem_bytes(
            "void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous "
            "namespace)::OpaqueType<2u>, unsigned int, 3, 64, 64>(at::native::(anonymous "
            "namespace)::OpaqueType<2u>*)"),
        2);
    assert_int_equal(cr_rf_kernel_elem_bytes("void at::native::vectorized_elementwise_kernel<4, "
                                             "at::native::BinaryFunctor<bool, bool, bool, "
                                             "at::native::MulFunctor<bool> >>"),
                     1);
    assert_int_equal(cr_rf_kernel_elem_bytes("void f<TrivialOffsetCalculator<1, unsigned int>>"),
                     0);
    assert_int_equal(cr_rf_kernel_elem_bytes("nvjet_sm90_tst_64x512_64x2_1x2_h_bz_coopB_NNT"), 0);
}

/* The case of one emit_nvtx name, its inputs resolved without a trace (no
 * producer: nothing fresh), then edited by fix (may be NULL). */
static bool map_name(const char *name, bool grad_input_kernel, bool all_fresh, cr_rf_case *m)
{
    cr_rf_name pn;
    cr_diag d = {{0}};
    assert_int_equal(cr_rf_parse_name(name, &pn, &d), CR_OK);
    cr_rf_owned own = {.kernel = true, .grad_input_kernel = grad_input_kernel};
    assert_int_equal(cr_rf_resolve_inputs(&pn, NULL, NULL, &own.in), CR_OK);
    for (int i = 0; all_fresh && i < own.in.n; i++)
        own.in.fresh[i] = own.in.key[i] >= 0;
    bool ok = cr_rf_map_aten(&pn, &own, m);
    cr_rf_inputs_free(&own.in);
    return ok;
}

/* A training step's operators (traces/h200-1/train-2026-12-04: names as
 * torch 2.11 wrote them), each against the bytes derived by hand. */
static void test_training_ops(void **state)
{
    (void)state;
    cr_rf_case m;
    const double N = 4.0 * 1024 * 4096;
    /* an operator the table lacks: listed without a bound, says why */
    assert_false(map_name("aten::my_op, op_id = 1, sizes = [[4]]", false, false, &m));
    assert_non_null(strstr(m.note, "no model of aten::my_op"));
    /* gelu_backward (grad, self): out written; without a producer the two
     * operands may be one tensor, so one is read */
    assert_true(map_name("aten::gelu_backward, op_id = 187, sizes = [[4, 1024, 4096], [4, 1024, "
                         "4096], []], input_op_ids = [(183,0), (66,0), (0,-1)]",
                         false, false, &m));
    assert_close(m.w_elems, N, 0, 0);
    assert_close(m.r_elems, N, 0, 0);
    /* shown fresh and distinct: both */
    assert_true(map_name("aten::gelu_backward, op_id = 187, sizes = [[4, 1024, 4096], [4, 1024, "
                         "4096], []], input_op_ids = [(183,0), (66,0), (0,-1)]",
                         false, true, &m));
    assert_close(m.r_elems, 2 * N, 0, 0);
    /* where(cond, a, b): the bool condition is not read at the float type */
    assert_true(map_name("aten::where, op_id = 3, sizes = [[64, 64], [64, 64], [64, 64]], "
                         "input_op_ids = [(1,0), (2,0), (3,0)]",
                         false, true, &m));
    assert_close(m.r_elems, 2 * 4096.0, 0, 0);
    /* fill_: written only */
    assert_true(map_name("aten::fill_, op_id = 5, sizes = [[32000, 1024], []]", false, false, &m));
    assert_close(m.w_elems, 32000.0 * 1024, 0, 0);
    assert_close(m.r_elems, 0, 0, 0);
    /* a reduction reads its input; its output is left out */
    assert_true(
        map_name("aten::sum, op_id = 9, sizes = [[4096, 1024], [], [], []]", false, false, &m));
    assert_close(m.r_elems, 4096.0 * 1024, 0, 0);
    assert_close(m.w_elems, 1, 0, 0);
    /* log_softmax backward: grad_output and output (fresh) read, grad
     * written */
    assert_true(map_name("aten::_log_softmax_backward_data, op_id = 112, sizes = [[4096, 8192], "
                         "[4096, 8192], [], []], input_op_ids = [(107,0), (94,0), (0,-1), (0,-1)]",
                         false, true, &m));
    assert_close(m.w_elems, 4096.0 * 8192, 0, 0);
    assert_close(m.r_elems, 2 * 4096.0 * 8192, 0, 0);
    /* layer_norm backward: with a grad_input kernel, grad_out and input read
     * and grad_input written; without one, grad_out alone */
    const char *lnb = "aten::native_layer_norm_backward, op_id = 226, sizes = [[4, 1024, 1024], "
                      "[4, 1024, 1024], [], [4, 1024, 1], [4, 1024, 1], [1024], [1024], []], "
                      "input_op_ids = [(222,0), (58,0), (0,-1), (60,1), (60,2), (0,-1), (0,-1), "
                      "(0,-1)]";
    assert_true(map_name(lnb, true, true, &m));
    assert_close(m.w_elems, 4.0 * 1024 * 1024, 0, 0);
    assert_close(m.r_elems, 2 * 4.0 * 1024 * 1024, 0, 0);
    assert_true(map_name(lnb, false, true, &m));
    assert_close(m.w_elems, 1, 0, 0);
    assert_close(m.r_elems, 4.0 * 1024 * 1024, 0, 0);
    /* nll_loss: the target may be uint8 (1 B an element), and a row whose
     * target is ignore_index (not in sizes) reads no element of self and
     * writes none of grad_input: a uint8 target of 4096 rows all 255
     * (ignore_index=255) moves 4 KB, where a row's element and 4 B of
     * target bounded 32 KB (fp32) forward and backward; the target alone
     * (grad_input's zeroing is a range of its own, aten::zero_, inside
     * the backward: traces/h200-1/train-2026-12-04) */
    assert_true(map_name("aten::nll_loss_forward, op_id = 99, sizes = [[4096, 8192], [4096], [], "
                         "[], []]",
                         false, false, &m));
    assert_close(m.r_elems, 0, 0, 0);
    assert_close(m.r_bytes, 4096, 0, 0);
    assert_true(map_name("aten::nll_loss_backward, op_id = 107, sizes = [[], [4096, 8192], [4096], "
                         "[], [], [], []]",
                         false, false, &m));
    assert_close(m.w_elems, 1, 0, 0);
    assert_close(m.r_bytes, 4096, 0, 0);
    /* embedding backward: grad_output and the indices read */
    assert_true(map_name("aten::embedding_dense_backward, op_id = 366, sizes = [[4, 1024, 1024], "
                         "[4, 1024], [], [], []]",
                         false, false, &m));
    assert_close(m.r_elems, 4.0 * 1024 * 1024, 0, 0);
    assert_close(m.r_bytes, 4 * 4.0 * 1024, 0, 0);
    /* up to 3,072 indices (8 x 384 tokens) PyTorch's feature kernel skips
     * padding_idx's rows unread (half the batch padding: 12.6 of 25.2 MB
     * of grad_output read): the indices alone */
    assert_true(map_name("aten::embedding_dense_backward, op_id = 366, sizes = [[8, 384, 4096], "
                         "[8, 384], [], [], []]",
                         false, false, &m));
    assert_close(m.r_elems, 0, 0, 0);
    assert_close(m.r_bytes, 4 * 3072.0, 0, 0);
    /* attention backward: the forward's case, backward */
    assert_true(map_name("aten::_cudnn_attention_backward, op_id = 288, sizes = [[4, 16, 1024, "
                         "64], [4, 16, 1024, 64], [4, 16, 1024, 64], [4, 16, 1024, 64], [4, 16, "
                         "1024, 64], [4, 16, 1024, 1], [], [], [], [], [], [], [], [], [], []]",
                         false, false, &m));
    assert_string_equal(m.op, "attention");
    assert_string_equal(case_get(&m, "batch"), "4");
    assert_string_equal(case_get(&m, "seq"), "1024");
    assert_string_equal(case_get(&m, "heads"), "16");
    assert_string_equal(case_get(&m, "backward"), "yes");
    /* packed (batch 1, cumulative lengths of 4 sequences after out): 4 of
     * 1024; with a batch of 2, a 1-D [2] tensor is no sequence list */
    assert_true(map_name("aten::_flash_attention_backward, op_id = 1, sizes = [[1, 4096, 8, 64], "
                         "[1, 4096, 8, 64], [1, 4096, 8, 64], [1, 4096, 8, 64], [1, 4096, 8, "
                         "64], [1, 8, 4096], [5], [5], [], [], [], [], [], [], []]",
                         false, false, &m));
    assert_string_equal(case_get(&m, "batch"), "4");
    assert_string_equal(case_get(&m, "seq"), "1024");
    assert_true(map_name("aten::_flash_attention_backward, op_id = 1, sizes = [[2, 512, 8, 64], "
                         "[2, 512, 8, 64], [2, 512, 8, 64], [2, 512, 8, 64], [2, 512, 8, 64], "
                         "[2, 8, 512], [], [], [], [], [], [], [2], [], []]",
                         false, false, &m));
    assert_string_equal(case_get(&m, "batch"), "2");
    assert_string_equal(case_get(&m, "seq"), "512");
}

/* A key expanded across heads (repeat_kv by expand, MQA): K and V are
 * counted at the heads their storage holds, a divisor of the query heads. */
static void test_expanded_kv_heads(void **state)
{
    (void)state;
    const char *name = "aten::_scaled_dot_product_flash_attention, op_id = 3, sizes = [[2, 32, "
                       "128, 64], [2, 32, 128, 64], [2, 32, 128, 64], [], [], [], []]";
    const double numel = 2.0 * 32 * 128 * 64;
    const struct {
        double stored;
        const char *kv;
    } cases[] = {{numel, "32"}, {numel / 8, "4"}, {numel / 3, "8"}, {numel / 64, "1"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_rf_name pn;
        cr_diag d = {{0}};
        assert_int_equal(cr_rf_parse_name(name, &pn, &d), CR_OK);
        cr_rf_owned own = {.kernel = true};
        assert_int_equal(cr_rf_resolve_inputs(&pn, NULL, NULL, &own.in), CR_OK);
        own.in.elems[1] = cases[i].stored; /* as an expand's source shows it */
        cr_rf_case m;
        assert_true(cr_rf_map_aten(&pn, &own, &m));
        cr_rf_inputs_free(&own.in);
        assert_string_equal(case_get(&m, "kv_heads"), cases[i].kv);
        assert_string_equal(case_get(&m, "heads"), "32");
    }
}

/* Foreach calls: lists one after another in sizes; each distinct tensor
 * once, the first list written where the op updates it after reading. */
/* One foreach or fused-optimizer range and what cr_rf_map_aten makes of
 * it: whether it maps, and the elements read and written (-1: not
 * asserted). */
struct foreach_case {
    const char *name;
    bool maps;
    double r_elems, w_elems;
};

static void test_foreach(void **state)
{
    (void)state;
    cr_rf_case m;
    static const struct foreach_case cases[] = {
        /* addcmul_(exp_avg_sq, grads, grads): two tensors of 32 and 4
         * elements a list; the grads twice, one tensor each: 3 x 36
         * distinct minus 36 = 72 read, the first list (36) written */
        {"aten::_foreach_addcmul_, op_id = 1, sizes = [[8, 4], [4], [8, 4], [4], [8, 4], [4], "
         "[]], input_op_ids = [(10,0), (11,0), (20,0), (21,0), (20,0), (21,0), (0,-1)]",
         true, 72, 36},
        /* gradients no recorded op made ((0,-1): a trace of the step
         * alone) may be one tensor where they share a place: read once a
         * place */
        {"aten::_foreach_addcmul_, op_id = 1, sizes = [[8, 4], [4], [8, 4], [4], [8, 4], [4], "
         "[]], input_op_ids = [(10,0), (11,0), (0,-1), (0,-1), (0,-1), (0,-1), (0,-1)]",
         true, 72, 36},
        /* fused AdamW (fp32 weights, traces/h200-1/train-2026-12-04's
         * amp_fused trace): params, grads, exp_avgs, exp_avg_sqs all read,
         * all but the grads written; 0-d steps and scalars left out */
        {"aten::_fused_adamw_, op_id = 1, sizes = [[8, 4], [4], [8, 4], [4], [8, 4], [4], [8, "
         "4], [4], [], [], [], [], [], []]",
         true, 4 * 36, 3 * 36},
        {"aten::_fused_adamw_, op_id = 1, sizes = [[8, 4], [4], [8, 4], [2], [8, 4], [4], [8, "
         "4], [4], [], []]",
         false, -1, -1},
        /* with GradScaler's found_inf (the last argument, made by a
         * recorded op): a skipped step's kernel returns before reading the
         * lists */
        {"aten::_fused_adamw_, op_id = 9, sizes = [[8, 4], [4], [8, 4], [4], [8, 4], [4], [8, "
         "4], [4], [], [], [], [], [], [], [], [], [], [], [], [], []], input_op_ids = [(1,0), "
         "(2,0), (3,0), (4,0), (5,0), (6,0), (7,0), (8,0), (0,-1), (0,-1), (0,-1), (0,-1), "
         "(0,-1), (0,-1), (0,-1), (0,-1), (0,-1), (0,-1), (0,-1), (0,-1), (30,0)]",
         true, 0, 1},
        /* found_inf None ((0,-1)): the lists */
        {"aten::_fused_adamw_, op_id = 9, sizes = [[8, 4], [4], [8, 4], [4], [8, 4], [4], [8, "
         "4], [4], [], [], [], [], [], [], [], [], [], [], [], [], []], input_op_ids = [(1,0), "
         "(2,0), (3,0), (4,0), (5,0), (6,0), (7,0), (8,0), (0,-1), (0,-1), (0,-1), (0,-1), "
         "(0,-1), (0,-1), (0,-1), (0,-1), (0,-1), (0,-1), (0,-1), (0,-1), (0,-1)]",
         true, 4 * 36, -1},
        /* five parameters of one shape, no amsgrad: 4 lists of 5 (35
         * tensors moved: 20 read, 15 written), which 5 lists of 4 also fit
         * (36) */
        {"aten::_fused_adamw_, op_id = 1, sizes = [[64], [64], [64], [64], [64], [64], [64], "
         "[64], [64], [64], [64], [64], [64], [64], [64], [64], [64], [64], [64], [64], [], [], "
         "[], [], [], [], [], [], [], [], [], [], [], [], []]",
         true, 20 * 64, 15 * 64},
        /* without input_op_ids: the first list once */
        {"aten::_foreach_addcmul_, op_id = 1, sizes = [[8, 4], [4], [8, 4], [4], [8, 4], [4], "
         "[]]",
         true, 0, 36},
        /* zero_ writes, never reads; sqrt (out of place) reads one list
         * and writes another */
        {"aten::_foreach_zero_, op_id = 1, sizes = [[8, 4], [4]], input_op_ids = [(1,0), (2,0)]",
         true, 0, 36},
        {"aten::_foreach_sqrt, op_id = 1, sizes = [[8, 4], [4]], input_op_ids = [(1,0), (2,0)]",
         true, 36, 36},
        /* four equal tensors: one list of four or (mul_ takes two lists)
         * two of two; the smaller first list is written, never more than
         * the true */
        {"aten::_foreach_mul_, op_id = 1, sizes = [[16], [16], [16], [16], []], input_op_ids = "
         "[(1,0), (2,0), (3,0), (4,0), (0,-1)]",
         true, 64, 32},
        /* a second list that broadcasts ([4] onto [8, 4]): two lists still */
        {"aten::_foreach_add_, op_id = 1, sizes = [[8, 4], [4], [4], [4], []], input_op_ids = "
         "[(1,0), (2,0), (3,0), (4,0), (0,-1)]",
         true, 44, 36},
        /* three tensors of other shapes and a scalar: one list, all
         * written */
        {"aten::_foreach_mul_, op_id = 1, sizes = [[8, 4], [4], [2, 4], []], input_op_ids = "
         "[(1,0), (2,0), (3,0), (0,-1)]",
         true, -1, 44},
        /* addcdiv_'s tensor of scalars ([2], 1-D, last) is no fourth list,
         * and is not read on the GPU (PyTorch requires it on the CPU) */
        {"aten::_foreach_addcdiv_, op_id = 1, sizes = [[8, 4], [4], [8, 4], [4], [8, 4], [4], "
         "[2]], input_op_ids = [(1,0), (2,0), (3,0), (4,0), (5,0), (6,0), (7,0)]",
         true, 3 * 36, 36},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const struct foreach_case *c = &cases[k];
        bool maps = map_name(c->name, false, false, &m);
        if (maps != c->maps)
            fail_msg("case %zu (%s): maps %d, expected %d", k, c->name, maps, c->maps);
        if (c->r_elems >= 0 && m.r_elems != c->r_elems)
            fail_msg("case %zu (%s): %g elements read, expected %g", k, c->name, m.r_elems,
                     c->r_elems);
        if (c->w_elems >= 0 && m.w_elems != c->w_elems)
            fail_msg("case %zu (%s): %g elements written, expected %g", k, c->name, m.w_elems,
                     c->w_elems);
    }
    /* 300 tensors (more than the 24 the parser once kept) */
    char name[8192];
    int o = snprintf(name, sizeof name, "aten::_foreach_zero_, op_id = 1, sizes = [");
    for (int i = 0; i < 300; i++)
        o += snprintf(name + o, sizeof name - (size_t)o, "%s[2, 2]", i ? ", " : "");
    snprintf(name + o, sizeof name - (size_t)o, "]");
    assert_true(map_name(name, false, false, &m));
    assert_close(m.w_elems, 300 * 4, 0, 0); /* zero_ takes one list */
}

/* A table that bounds nothing checks nothing: cr_roofline_unchecked says
 * why, in the words `commroof roofline` prints and the report's program
 * table notes (which said "OK: 0 row(s) with a time below the bound"). */
static void test_unchecked(void **state)
{
    (void)state;
    cr_rf_row rows[2] = {{.kind = CR_RF_KERNEL}, {.kind = CR_RF_CR}};
    snprintf(rows[1].op, sizeof rows[1].op, "%s", "cr:gemm");
    snprintf(rows[1].args, sizeof rows[1].args, "%s", "m=1");
    snprintf(rows[1].note, sizeof rows[1].note, "%s", "no n");
    cr_roofline r = {.rows = rows, .n = 1};
    char buf[512] = "";
    assert_true(cr_roofline_unchecked(&r, buf, sizeof buf));
    assert_non_null(strstr(buf, "FAILED: no operator row, so nothing was checked"));
    r.n = 2;
    assert_true(cr_roofline_unchecked(&r, buf, sizeof buf));
    assert_string_equal(
        buf,
        "FAILED: no operator row got a bound, so nothing was checked; first: cr:gemm m=1: no n");
    rows[1].has_bound = true;
    buf[0] = '\0';
    assert_false(cr_roofline_unchecked(&r, buf, sizeof buf));
    assert_string_equal(buf, "");
}

static void test_fixture_table(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    const char *paths[] = {"tests/fixtures/roofline/torch_block.json"};
    cr_roofline r;
    cr_roofline_opts o = {0};
    assert_int_equal(cr_roofline_read(t, paths, 1, &o, &r, &d), CR_OK);
    assert_int_equal(r.files, 1);
    assert_int_equal(r.n, 8);
    /* the innermost range owns the GEMM: addmm, not linear */
    const cr_rf_row *w = find(&r, "aten::addmm");
    assert_int_equal(w->calls, 3);
    assert_close(w->median_s, 10e-6, 1e-9, 0);
    assert_close(w->total_s, 30e-6, 1e-9, 0);
    assert_string_equal(w->dtype, "bf16");
    assert_string_equal(w->dtype_src, "kernel");
    assert_string_equal(w->model, "gemm m=512 n=4096 k=1024 dtype=bf16");
    /* compute-bound: 2 m n k over the H200's dense bf16 peak, the same
     * figure `commroof op gemm` uses (989.5 TFLOP/s, 8192^3 in 1111.2 us) */
    assert_true(w->has_bound);
    assert_string_equal(w->binding, "compute");
    cr_diag dd = {{0}};
    cr_op_result g;
    assert_int_equal(cr_op_eval_gemm(t, 512, 4096, 1024, CR_DT_BF16, &g, &dd), CR_OK);
    assert_close(w->bound_s, g.bound_s, 1e-12, 0);
    assert_close(w->bound_s, 2.0 * 512 * 4096 * 1024 / 989.5e12, 0.01, 0);
    assert_close(w->pct_of_roofline, 100 * w->bound_s / 10e-6, 1e-9, 0);
    assert_close(w->save_s, 30e-6 - 3 * w->bound_s, 1e-9, 0);
    for (size_t i = 0; i < r.n; i++)
        assert_string_not_equal(r.rows[i].op, "aten::linear");

    /* add, its range without input_op_ids: the two operands may be one
     * tensor (x + x), so one read and the write of 512 x 4096 bf16, cold
     * from HBM at 4.8 TB/s */
    w = find(&r, "aten::add");
    assert_close(w->bound_cold_s, 2.0 * 512 * 4096 * 2 / 4.8e12, 0.01, 0);
    /* copy_: the memcpy's 8 MiB read and written */
    w = find(&r, "aten::copy_");
    assert_string_equal(w->model, "memcpy kind=d2d pinned=no bytes=8388608");
    assert_close(w->bound_cold_s, 2.0 * 8388608 / 4.8e12, 0.01, 0);
    /* attention, causal: 4 b h d s (s + 1) / 2 FLOPs */
    w = find(&r, "aten::_scaled_dot_product_flash_attention");
    assert_close(w->bound_s, 4.0 * 4 * 16 * 64 * 1024 * 1025 / 2 / 989.5e12, 0.01, 0);
    /* gelu (pointwise since 2026-12-04): 512 x 4096 bf16 read and written */
    w = find(&r, "aten::gelu");
    assert_close(w->bound_cold_s, 2.0 * 512 * 4096 * 2 / 4.8e12, 0.01, 0);
    /* the kernel no range owns */
    w = find(&r, "my_ns::my_kernel");
    assert_int_equal(w->kind, CR_RF_KERNEL);
    assert_int_equal(r.calls_unowned, 1);
    /* NCCL: paired by order after ncclGroupEnd; 2 ranks from ncclCommInitRank */
    w = find(&r, "ncclAllReduce");
    assert_int_equal(w->calls, 2);
    assert_close(w->median_s, 21e-6, 1e-9, 0);
    assert_string_equal(w->dtype, "bf16");
    assert_true(w->has_bound);
    assert_int_equal(r.violations, 0);
    assert_close(r.total_s, (30 + 12 + 12 + 180 + 15 + 9 + 2 + 42) * 1e-6, 1e-9, 0);
    cr_roofline_release(&r);

    /* the impossible 8192^3 mm: a violation once the dtype is given */
    const char *imp[] = {"tests/fixtures/roofline/impossible_mm.json"};
    assert_int_equal(cr_roofline_read(t, imp, 1, &o, &r, &d), CR_OK);
    assert_false(r.rows[0].has_bound);
    cr_roofline_release(&r);
    o.has_dtype = true;
    o.dtype = CR_DT_BF16;
    assert_int_equal(cr_roofline_read(t, imp, 1, &o, &r, &d), CR_OK);
    assert_true(r.rows[0].violation);
    assert_int_equal(r.violations, 1);
    assert_string_equal(r.rows[0].dtype_src, "--dtype");
    cr_roofline_release(&r);

    /* kernel names whole (78 characters, cut at 63 before), and one
     * longer than a row holds ends in "..." */
    const char *longk[] = {"tests/fixtures/roofline/long_kernel_names.json"};
    assert_int_equal(cr_roofline_read(t, longk, 1, &o, &r, &d), CR_OK);
    assert_int_equal(r.n, 2);
    w = find(&r, "at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel");
    assert_int_equal(w->kind, CR_RF_KERNEL);
    const cr_rf_row *cut = r.rows[0].op[0] == 'm' ? &r.rows[0] : &r.rows[1];
    assert_int_equal(strlen(cut->op), sizeof cut->op - 1);
    assert_string_equal(cut->op + strlen(cut->op) - 3, "...");
    assert_int_equal(strncmp(cut->op, "my_ns::very_long_generated_kernel_name_", 39), 0);
    cr_roofline_release(&r);

    /* a file that is not there */
    const char *none[] = {"tests/fixtures/roofline/none.json"};
    assert_int_not_equal(cr_roofline_read(t, none, 1, &o, &r, &d), CR_OK);
    cr_topo_free(t);
}

/* The audit of 2026-12-04's traces (tests/fixtures/roofline/README.md):
 * every call is held to the bound, durations survive epoch timestamps, a
 * cr: range's parameters are read whole and the ones it leaves out are
 * said, and NCCL kernels pair with calls per process and per GPU. */
static cr_roofline read_one(const cr_topo *t, const char *path)
{
    cr_roofline r;
    cr_roofline_opts o = {0};
    cr_diag d = {{0}};
    const char *paths[] = {path};
    if (cr_roofline_read(t, paths, 1, &o, &r, &d) != CR_OK)
        fail_msg("%s: %s", path, d.msg);
    return r;
}

/* A product whose kernel names no type (a Triton GEMM's) takes the
 * type its operands' producers show (tests/fixtures/roofline/README.md,
 * input_dtype.json): bf16 from the layer norm its operand is a view of,
 * from that product for the product it feeds, and through a split of it
 * (and a transpose) for a third; not from an fp32 producer, nor for an op
 * that is not a product; --dtype, where given, wins. */
static void test_input_dtype(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    const double flops = 2.0 * 4096 * 1024 * 4096, bf16_peak = 989.5e12;
    cr_roofline r = read_one(t, "tests/fixtures/roofline/input_dtype.json");
    int input = 0;
    for (size_t i = 0; i < r.n; i++) {
        const cr_rf_row *w = &r.rows[i];
        if (strcmp(w->op, "aten::mm") != 0)
            continue;
        if (strstr(w->args, "[1024, 2048]")) { /* fed by fp32 exp */
            assert_false(w->has_bound);
            assert_non_null(strstr(w->note, "give --dtype"));
            continue;
        }
        assert_true(w->has_bound);
        assert_string_equal(w->dtype, "bf16");
        assert_string_equal(w->dtype_src, "input");
        /* 4096 x 1024 x 4096 twice; 4096 x 2048 x 4096 through the split */
        double k = strstr(w->args, "2048") ? 2 : 1;
        assert_close(w->bound_s, k * flops / bf16_peak, 0.01, 0);
        input++;
    }
    assert_int_equal(input, 3);
    const cr_rf_row *g = find(&r, "aten::gelu");
    assert_false(g->has_bound);
    assert_string_equal(g->dtype_src, "");
    cr_roofline_release(&r);
    cr_roofline_opts o = {0};
    o.has_dtype = true;
    o.dtype = CR_DT_FP32;
    const char *paths[] = {"tests/fixtures/roofline/input_dtype.json"};
    if (cr_roofline_read(t, paths, 1, &o, &r, &d) != CR_OK)
        fail_msg("%s", d.msg);
    for (size_t i = 0; i < r.n; i++)
        if (!strcmp(r.rows[i].op, "aten::mm"))
            assert_string_equal(r.rows[i].dtype_src, "--dtype");
    cr_roofline_release(&r);
    cr_topo_free(t);
}

static void test_calls_and_pairing(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    /* 4096^3 mm calls of 10, 200 and 200 us: the median (200) is above the
     * 139 us bound, the 10 us call is not */
    cr_roofline r = read_one(t, "tests/fixtures/roofline/one_call_below.json");
    const cr_rf_row *w = find(&r, "aten::mm");
    assert_close(w->median_s, 200e-6, 1e-12, 0);
    assert_close(w->min_s, 10e-6, 1e-12, 0);
    assert_true(w->violation);
    assert_string_equal(w->verdict, "impossible");
    assert_non_null(strstr(w->note, "the fastest of 3 calls took 10.000 us"));
    assert_int_equal(r.violations, 1);
    cr_roofline_release(&r);
    /* a 2.2 us kernel at ts 1733300000123456 us: 2.2 us, above the 1024^3
     * bound (2.171 us); from the timestamps it came out 2.146 */
    r = read_one(t, "tests/fixtures/roofline/epoch_timestamps.json");
    w = find(&r, "aten::mm");
    assert_close(w->median_s, 2.2e-6, 1e-15, 0);
    assert_false(w->violation);
    cr_roofline_release(&r);
    /* parameters after a 150-character label: 8192^3 (1111.7 us), not
     * the m=8 of a name cut at 160 bytes */
    r = read_one(t, "tests/fixtures/roofline/cr_long_name.json");
    w = find(&r, "cr:gemm");
    assert_close(w->bound_s, 2.0 * 8192 * 8192 * 8192 / 989.5e12, 0.01, 0);
    assert_string_equal(w->dtype_src, "range");
    cr_roofline_release(&r);
    /* k left out: no bound on the catalog's default k (another
     * problem's), said; m given twice: no bound */
    r = read_one(t, "tests/fixtures/roofline/cr_keys.json");
    int said = 0, twice = 0;
    for (size_t i = 0; i < r.n; i++) {
        if (strstr(r.rows[i].note, "the range gives no k=")) {
            said++;
            assert_false(r.rows[i].has_bound);
        }
        if (strstr(r.rows[i].note, "m given twice")) {
            twice++;
            assert_false(r.rows[i].has_bound);
        }
    }
    assert_int_equal(said, 1);
    assert_int_equal(twice, 1);
    cr_roofline_release(&r);
    /* process 1000: two calls, one kernel; process 2000: one of each. Its
     * call is timed (the search for kernels starts over per process) */
    r = read_one(t, "tests/fixtures/roofline/nccl_two_procs_unpaired.json");
    w = find(&r, "ncclAllReduce");
    assert_int_equal(w->calls, 2);
    assert_int_equal(r.nccl_unpaired, 1);
    cr_roofline_release(&r);
    /* one process, two GPUs (ncclCommInitAll): per group one call per
     * communicator, each with its GPU's kernel, merged as two ranks */
    r = read_one(t, "tests/fixtures/roofline/nccl_one_proc_two_gpus.json");
    w = find(&r, "ncclAllReduce");
    assert_int_equal(w->calls, 3);
    assert_int_equal(r.nccl_unpaired, 0);
    assert_int_equal(r.nccl_grouped, 0);
    assert_non_null(strstr(w->note, "over 2 ranks"));
    cr_roofline_release(&r);
    /* aten::cat of 1,025 tensors (more than the parser keeps): the
     * operator's row, its kernel's 50 us, no bound, why (before: a kernel
     * row "no operator range owns it") */
    r = read_one(t, "tests/fixtures/roofline/aten_unread_cat.json");
    w = find(&r, "aten::cat");
    assert_int_equal(w->kind, CR_RF_ATEN);
    assert_close(w->median_s, 50e-6, 1e-12, 0);
    assert_false(w->has_bound);
    assert_non_null(strstr(w->note, "more than 1024 tensors"));
    assert_int_equal(r.calls_unowned, 0);
    cr_roofline_release(&r);
    /* an NCCL range without its message size: no bound, said so, "?B" */
    r = read_one(t, "tests/fixtures/roofline/nccl_no_size.json");
    w = find(&r, "ncclAllReduce");
    assert_false(w->has_bound);
    assert_non_null(strstr(w->note, "no message size"));
    assert_non_null(strstr(w->args, "?B"));
    cr_roofline_release(&r);
    /* a kernel name of 2-byte characters cut to the row: whole characters */
    r = read_one(t, "tests/fixtures/roofline/utf8_long_kernel.json");
    json_t *js = json_string(r.rows[0].op);
    assert_non_null(js);
    json_decref(js);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

/* Every activity and NCCL call inside a cr: range validate reads is that
 * range's (tests/fixtures/roofline/cr_nccl.json): a crbench all-reduce
 * case with NCCL's own ranges inside, one without them, and a program's
 * all-reduce outside both. The cases' NCCL kernels are neither an NCCL
 * row's calls nor kernels of their own, so no device time counts twice;
 * the call outside is paired as before. */
static void test_cr_range_owns_nccl(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    cr_roofline r = read_one(t, "tests/fixtures/roofline/cr_nccl.json");
    assert_int_equal(r.n, 3);
    int cr = 0;
    for (size_t i = 0; i < r.n; i++) {
        assert_int_not_equal(r.rows[i].kind, CR_RF_KERNEL);
        cr += r.rows[i].kind == CR_RF_CR;
    }
    assert_int_equal(cr, 2);
    const cr_rf_row *w = find(&r, "ncclAllReduce");
    assert_int_equal(w->calls, 1);
    /* the two ranks' kernels (25 us from 3010, 26 us from 3011): the last
     * start to the last end */
    assert_close(w->median_s, 26e-6, 1e-12, 0);
    assert_int_equal(r.nccl_unpaired, 0);
    /* the cases: per iteration, the last GPU's start to the last end */
    assert_close(r.total_s, 2 * 30e-6 + 2 * 40e-6 + 26e-6, 1e-12, 0);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

/* iters=N in a catalog operator's cr: range: N calls, each the range's
 * device time / N, for gemm (also a crbench family's name) as for
 * elementwise; ranges of one call and other counts share a row
 * (tests/fixtures/roofline/README.md, annotated_iters.json). Before, the
 * elementwise range was 1 call of 300 us and the gemm range of one kernel
 * a crbench case, skipped. */
static void test_cr_op_iters(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    cr_roofline r = read_one(t, "tests/fixtures/roofline/annotated_iters.json");
    assert_int_equal(r.info.skipped, 0);
    static const cr_rf_row none;
    const cr_rf_row *ew = &none, *bad = &none; /* the test fails on none's values */
    for (size_t i = 0; i < r.n; i++) {
        if (strcmp(r.rows[i].op, "cr:elementwise") != 0)
            continue;
        if (strstr(r.rows[i].args, "iters=2.5"))
            bad = &r.rows[i];
        else
            ew = &r.rows[i];
    }
    /* 10 kernels of 30 us in a range of iters=10 */
    assert_int_equal(ew->calls, 10);
    assert_close(ew->median_s, 30e-6, 1e-9, 0);
    assert_close(ew->min_s, 30e-6, 1e-9, 0);
    assert_close(ew->total_s, 300e-6, 1e-9, 0);
    assert_null(strstr(ew->args, "iters"));
    /* one row: 800 us over iters=4 (200 us each), 2 x 250 us over iters=2:
     * the median of 200, 200, 200, 200, 250, 250 */
    const cr_rf_row *g = find(&r, "cr:gemm");
    assert_int_equal(g->calls, 6);
    assert_close(g->median_s, 200e-6, 1e-9, 0);
    assert_close(g->min_s, 200e-6, 1e-9, 0);
    assert_close(g->total_s, 1300e-6, 1e-9, 0);
    assert_true(g->has_bound);
    assert_close(g->save_s, 1300e-6 - 6 * g->bound_s, 1e-9, 0);
    /* iters=2.5 counts nothing: one call of the range's 5 us, no bound */
    assert_int_equal(bad->calls, 1);
    assert_false(bad->has_bound);
    assert_non_null(strstr(bad->note, "iters=2.5: not a whole number"));
    assert_close(r.total_s, 300e-6 + 1300e-6 + 5e-6, 1e-9, 0);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

/* A trace whose launches did not block (metadata.launch_blocking false)
 * and whose operator ranges own activities is counted, once, with its
 * path; the same trace saying nothing is not. */
static void test_by_start(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    cr_roofline r = read_one(t, "tests/fixtures/roofline/torch_block_by_start.json");
    assert_int_equal(r.by_start, 1);
    assert_string_equal(r.by_start_path, "tests/fixtures/roofline/torch_block_by_start.json");
    cr_roofline_release(&r);
    r = read_one(t, "tests/fixtures/roofline/torch_block.json");
    assert_int_equal(r.by_start, 0);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

/* Where the trace has the CUDA calls (tests/fixtures/roofline/
 * launch_linked.json: the GPU behind the host, each mm's GEMM starting in
 * the next add's range, each add's kernel after every range closed), each
 * activity goes to the range open on its call's thread when the call
 * began: three mm calls of 200-220 us, four adds of 4 us (one whose call
 * was not recorded, by its start, counted as unlinked), nothing for a
 * range of another thread open across them all, and no by-start note; read by start alone (the
 * same events without the calls) the adds held the GEMMs. */
static void test_by_launch(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    cr_roofline r = read_one(t, "tests/fixtures/roofline/launch_linked.json");
    assert_int_equal(r.n, 2);
    const cr_rf_row *w = find(&r, "aten::mm");
    assert_int_equal(w->calls, 3);
    assert_close(w->median_s, 210e-6, 1e-12, 0);
    w = find(&r, "aten::add");
    assert_int_equal(w->calls, 4);
    assert_close(w->median_s, 4e-6, 1e-12, 0);
    assert_int_equal(r.by_start, 0);
    assert_int_equal(r.calls_unowned, 0);
    assert_int_equal(r.unlinked, 1); /* the add whose call was not recorded */
    assert_non_null(strstr(r.first_unlinked, "vectorized_elementwise_kernel in "));
    cr_roofline_release(&r);
    cr_topo_free(t);
}

/* A CUDA graph captured under the operators' ranges and launched three
 * times inside a user range (tests/fixtures/roofline/graph_replayed.json):
 * each replayed kernel goes to the range open on the thread that made its
 * node, reached through the executable graph's clone, one call per launch
 * (the mm's 200, 210, 220 us; the add's 4 us); a node made where its
 * thread had no range open keeps the rule by start (the user range: no
 * operator), and so does one whose clone names no original (written
 * while the add's range was open: not a making). The same events without
 * the node events gave no operator a kernel. */
static void test_by_graph_node(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    cr_roofline r = read_one(t, "tests/fixtures/roofline/graph_replayed.json");
    const cr_rf_row *w = find(&r, "aten::mm");
    assert_int_equal(w->calls, 3);
    assert_close(w->median_s, 210e-6, 1e-12, 0);
    assert_close(w->total_s, 630e-6, 1e-12, 0);
    w = find(&r, "aten::add");
    assert_int_equal(w->calls, 3);
    assert_close(w->median_s, 4e-6, 1e-12, 0);
    assert_int_equal(r.graph_activities, 6);
    assert_int_equal(r.by_start, 0);
    assert_int_equal(r.unlinked, 0);
    size_t fills = 0, scales = 0;
    for (size_t i = 0; i < r.n; i++) {
        fills += strstr(r.rows[i].op, "fill_kernel") ? (size_t)r.rows[i].calls : 0;
        scales += strstr(r.rows[i].op, "scale_kernel") ? (size_t)r.rows[i].calls : 0;
    }
    assert_int_equal(fills, 3);
    assert_int_equal(scales, 3);
    cr_roofline_release(&r);
    r = read_one(t, "tests/fixtures/roofline/graph_replayed_no_nodes.json");
    for (size_t i = 0; i < r.n; i++)
        assert_null(strstr(r.rows[i].op, "aten::"));
    assert_int_equal(r.graph_activities, 0);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

/* Products captured in a CUDA graph launched twice
 * (tests/fixtures/roofline/graph_input_dtype.json, input_dtype.json's
 * first two products): each range a graph's second launch runs in is
 * copied, and the copy is not a second operator of its op_id, so the
 * product fed by the first (input_op_ids) still finds it, and its bf16:
 * both products bf16 (input), 2 calls of 60 us each. Before, the two
 * ranges of op_id 5 made its producer unknown: the second product had no
 * type and no bound. */
static void test_by_graph_node_inputs(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("hgx-h200-8", &t, &d), CR_OK);
    cr_roofline r = read_one(t, "tests/fixtures/roofline/graph_input_dtype.json");
    int mm = 0;
    for (size_t i = 0; i < r.n; i++) {
        const cr_rf_row *w = &r.rows[i];
        if (strcmp(w->op, "aten::mm") != 0)
            continue;
        assert_int_equal(w->calls, 2);
        assert_close(w->median_s, 60e-6, 1e-12, 0);
        assert_true(w->has_bound);
        assert_string_equal(w->dtype, "bf16");
        assert_string_equal(w->dtype_src, "input");
        mm++;
    }
    assert_int_equal(mm, 2);
    assert_int_equal(find(&r, "aten::native_layer_norm")->calls, 2);
    assert_int_equal(r.graph_activities, 6);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

static void test_fuzz_replay(void **state)
{
    (void)state;
    assert_true(
        cr_test_replay_dir("tests/fuzz/corpus/roofline_names", LLVMFuzzerTestOneInput, 4096) >= 18);
    assert_true(cr_test_replay_dir("tests/fuzz/corpus/roofline_trace", fuzz_roofline_trace_input,
                                   65536) >= 20);
}

/* A row's time is the GPU's: its faster/slower-than-baseline verdict holds
 * it to the baseline's device time, not to a baseline that counts the
 * host's launch cost (cr_op_eval's baseline_launch_s), which no trace's
 * device time holds. impossible_past_top.json: five elementwise calls of
 * 2^24 bf16 in 20 us each, between the baseline's kernel and the baseline
 * with its launch; a gemm of 90 us below its 138.968 us bound. */
static void test_verdict_device_baseline(void **state)
{
    (void)state;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    const cr_op_def *def = NULL;
    assert_int_equal(cr_op_find("elementwise", &def, &d), CR_OK);
    cr_op_params p;
    memset(&p, 0, sizeof p);
    cr_op_params_defaults(def, &p);
    assert_int_equal(cr_op_param_set(def, &p, "elems", "16777216", &d), CR_OK);
    assert_int_equal(cr_op_param_set(def, &p, "reads", "1", &d), CR_OK);
    assert_int_equal(cr_op_param_set(def, &p, "writes", "1", &d), CR_OK);
    assert_int_equal(cr_op_param_set(def, &p, "flops_per", "1", &d), CR_OK);
    assert_int_equal(cr_op_param_set(def, &p, "dtype", "bf16", &d), CR_OK);
    cr_op_result res;
    assert_int_equal(cr_op_eval(t, def, &p, &res, &d), CR_OK);
    assert_true(res.baseline_launch_s > 0);

    cr_roofline_opts o = {0};
    const char *paths[] = {"tests/fixtures/roofline/impossible_past_top.json"};
    cr_roofline r;
    if (cr_roofline_read(t, paths, 1, &o, &r, &d) != CR_OK)
        fail_msg("%s: %s", paths[0], d.msg);
    assert_int_equal(r.n, 3);
    const cr_rf_row *w = &r.rows[0]; /* by total: 5 x 20 us */
    assert_string_equal(w->op, "cr:elementwise");
    assert_int_equal(w->calls, 5);
    assert_close(w->median_s, 20e-6, 1e-9, 0);
    assert_close(w->bound_s, res.bound_s, 1e-12, 0);
    /* 20 us: above the baseline's kernel (18.49 us), below the baseline
     * with PyTorch's launch (23.49 us), which the trace's time leaves out */
    assert_true(w->median_s > res.baseline_s - res.baseline_launch_s);
    assert_true(w->median_s < res.baseline_s);
    assert_string_equal(w->verdict, "slower-than-baseline");
    w = &r.rows[1];
    assert_string_equal(w->op, "cr:gemm");
    assert_string_equal(w->verdict, "impossible");
    assert_close(w->bound_s, 2.0 * 4096 * 4096 * 4096 / 989.5e12, 1e-9, 0);
    w = &r.rows[2]; /* name=small: 10 us, between warm and cold */
    assert_string_equal(w->verdict, "cache-resident");
    assert_int_equal(r.violations, 1);
    cr_roofline_release(&r);
    cr_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_names),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_counts_beyond_exact),
        cmocka_unit_test(test_kernel_dtype_and_short_names),
        cmocka_unit_test(test_matmul_batch),
        cmocka_unit_test(test_attention_packed),
        cmocka_unit_test(test_same_tensor_once),
        cmocka_unit_test(test_inputs_resolved_apart),
        cmocka_unit_test(test_expanded_source),
        cmocka_unit_test(test_bmm_broadcast),
        cmocka_unit_test(test_gather_rows),
        cmocka_unit_test(test_mixed_types),
        cmocka_unit_test(test_training_ops),
        cmocka_unit_test(test_foreach),
        cmocka_unit_test(test_expanded_kv_heads),
        cmocka_unit_test(test_unchecked),
        cmocka_unit_test(test_fixture_table),
        cmocka_unit_test(test_input_dtype),
        cmocka_unit_test(test_calls_and_pairing),
        cmocka_unit_test(test_cr_range_owns_nccl),
        cmocka_unit_test(test_cr_op_iters),
        cmocka_unit_test(test_by_start),
        cmocka_unit_test(test_by_launch),
        cmocka_unit_test(test_by_graph_node),
        cmocka_unit_test(test_by_graph_node_inputs),
        cmocka_unit_test(test_verdict_device_baseline),
        cmocka_unit_test(test_fuzz_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
