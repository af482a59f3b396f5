/* SPDX-License-Identifier: MIT */
/*
 * Collectives: the process layout (cr_coll_req.ranks_per_process). One host
 * thread driving several GPUs launches their kernels in turn, so an NCCL
 * collective ends one launch gap (param coll.launch_gap) later per extra
 * GPU; the bound and custom kernels do not change. The absolute figures
 * are checked against both launch modes of the same 2-H200 NCCL sweep.
 */
#include "cr_test.h"
#include "cr_test_topo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "params.h"
#include "topo.h"
#include "topo_xml.h"

/* cr_coll_eval that fails the test on an error. */
static cr_coll_result eval_req(const cr_coll_ctx *c, const cr_coll_req *rq)
{
    cr_coll_result r;
    cr_diag d = {{0}};
    if (cr_coll_eval(c, rq, &r, &d) != CR_OK)
        fail_msg("eval: %s", d.msg);
    return r;
}

static cr_coll_result eval_rpp(const cr_coll_ctx *c, cr_coll coll, double bytes, cr_mech m, int rpp)
{
    cr_coll_req rq = cr_coll_req_default(coll, bytes);
    rq.mech = m;
    rq.in_place = false;
    rq.ranks_per_process = rpp;
    return eval_req(c, &rq);
}

static double launch_gap_s(void)
{
    cr_params p;
    cr_params_default(CR_GEN_HOPPER, &p);
    double g = 0;
    cr_diag d = {{0}};
    if (cr_params_get(&p, "coll.launch_gap", &g, &d) != CR_OK)
        fail_msg("coll.launch_gap: %s", d.msg);
    return g;
}

/* Each extra GPU one thread drives adds exactly one gap; 0 and 1 both mean
 * one process per GPU; the bound and the algorithm NCCL picks stay. */
static void test_gap_per_extra_gpu(void **state)
{
    (void)state;
    double gap = launch_gap_s();
    /* traces/nvidia-h200-x2/kernels-nccl-{Ring,Tree,auto}-{LL,LL128,
     * Simple}.json.gz, one thread driving both GPUs: the second GPU's
     * kernel starts a median 5.50 us after the first's (351 cases of 8 B -
     * 1 MiB, quartiles 5.18-7.23; tools/fit_n2_lat.py) */
    assert_close(gap, 5.50e-6, 0.01, 0);
    cr_topo *t = cr_test_open_topo("hgx-h200-8");
    const char *sets[] = {"0,1", NULL};
    for (int s = 0; s < 2; s++) {
        cr_coll_ctx *c = cr_test_coll_ctx(t, sets[s]);
        int n = cr_coll_ctx_nranks(c);
        for (int k = 0; k < CR_COLL__COUNT; k++) {
            for (double b = 1024; b <= 1073741824.0; b *= 1024) {
                cr_coll_result r0 = eval_rpp(c, (cr_coll)k, b, CR_MECH_NONE, 0);
                cr_coll_result r1 = eval_rpp(c, (cr_coll)k, b, CR_MECH_NONE, 1);
                cr_coll_result rn = eval_rpp(c, (cr_coll)k, b, CR_MECH_NONE, n);
                assert_close(r0.pred.pred_s, r1.pred.pred_s, 1e-12, 0);
                assert_close(rn.pred.pred_s - r1.pred.pred_s, (n - 1) * gap, 1e-9, 1e-15);
                assert_close(rn.pred.launch_s - r1.pred.launch_s, (n - 1) * gap, 1e-9, 1e-15);
                assert_int_equal(rn.pred.algo, r1.pred.algo);
                assert_int_equal(rn.pred.proto, r1.pred.proto);
                assert_close(rn.bound.bound_s, r1.bound.bound_s, 1e-12, 0);
            }
        }
        /* a custom kernel is launched by the user's own code: unchanged */
        cr_coll_result m1 = eval_rpp(c, CR_COLL_ALLREDUCE, 1 << 20, CR_MECH_LDST, 1);
        cr_coll_result mn = eval_rpp(c, CR_COLL_ALLREDUCE, 1 << 20, CR_MECH_LDST, n);
        assert_close(mn.pred.pred_s, m1.pred.pred_s, 1e-12, 0);
        cr_coll_ctx_free(c);
    }
    cr_topo_free(t);
}

/* More GPUs per process than ranks, or a negative count: an error. */
static void test_bad_rpp(void **state)
{
    (void)state;
    cr_topo *t = cr_test_open_topo("hgx-h200-8");
    cr_coll_ctx *c = cr_test_coll_ctx(t, "0,1");
    cr_coll_req rq = cr_coll_req_default(CR_COLL_ALLREDUCE, 1024);
    cr_coll_result r;
    cr_diag d = {{0}};
    rq.ranks_per_process = 3;
    assert_int_equal(cr_coll_eval(c, &rq, &r, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "ranks per process"));
    rq.ranks_per_process = -1;
    assert_int_equal(cr_coll_eval(c, &rq, &r, &d), CR_EINVAL);
    cr_coll_ctx_free(c);
    cr_topo_free(t);
}

/* Both launch modes of the same sweep on 2 H200s (auto algorithm, out of
 * place), measured: allreduce of 1 KiB takes 4.736 us with one process per
 * GPU (traces/nvidia-h200-x2/torchrun-nccl-rank{0,1}.json.gz, ranks
 * merged) and 9.240 us with one thread driving both, from the first GPU's
 * start (traces/nvidia-h200-x2/kernels-nccl.json.gz, validate --json's
 * measured_first_start_us). allgather of 1 KiB: 4.016 and 8.544 us. The
 * model (ring LL, coll.n2.lat_scale fitted to both modes timed from the last
 * GPU's start, plus one coll.launch_gap for the second) within 20% of each;
 * before the layout was modelled, the torchrun figure was predicted at
 * 9.8 us (+107%). */
static void test_two_launch_modes(void **state)
{
    (void)state;
    cr_topo *t = cr_test_open_topo("hgx-h200-8");
    cr_coll_ctx *c = cr_test_coll_ctx(t, "0,1");
    struct {
        cr_coll coll;
        double pp_s, one_s;
    } m[] = {{CR_COLL_ALLREDUCE, 4.736e-6, 9.240e-6}, {CR_COLL_ALLGATHER, 4.016e-6, 8.544e-6}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        cr_coll_result pp = eval_rpp(c, m[i].coll, 1024, CR_MECH_NONE, 1);
        cr_coll_result one = eval_rpp(c, m[i].coll, 1024, CR_MECH_NONE, 2);
        assert_close(pp.pred.pred_s, m[i].pp_s, 0.20, 0);
        assert_close(one.pred.pred_s, m[i].one_s, 0.20, 0);
    }
    cr_coll_ctx_free(c);
    cr_topo_free(t);
}

static cr_coll_result eval_last(const cr_coll_ctx *c, cr_coll coll, int root, bool from_last)
{
    cr_coll_req rq = cr_coll_req_default(coll, 8);
    rq.in_place = false;
    rq.root = root;
    rq.algo = CR_ALGO_RING;
    rq.proto = CR_PROTO_LL;
    rq.ranks_per_process = 2;
    rq.from_last_start = from_last;
    return eval_req(c, &rq);
}

/* Timed from the last GPU's start with one thread driving both, rank 0 is
 * the last to start (NCCL's group launch order): a reduce rooted there
 * finds its peer's data already in its FIFO, so NCCL's one chain hop
 * (tuning.cc: baseLat + hwLat) is not in the time: 8 B ring LL reduce =
 * baseLat 6.6 us x coll.n2.lat_scale 0.520 = 3.432 us, measured 3.15 us
 * (traces/nvidia-h200-x2/kernels-nccl-Ring-LL.json.gz, +9%; +28% with the
 * hop). Rooted at rank 1, or a broadcast from rank 0, the data crosses after
 * the last start: the hop stays. No launch gap either way, and the bound
 * does not move. */
static void test_last_start_window(void **state)
{
    (void)state;
    cr_topo *t = cr_test_open_topo("hgx-h200-8");
    cr_coll_ctx *c = cr_test_coll_ctx(t, "0,1");
    cr_coll_result red0 = eval_last(c, CR_COLL_REDUCE, 0, true);
    cr_coll_result red1 = eval_last(c, CR_COLL_REDUCE, 1, true);
    cr_coll_result bc0 = eval_last(c, CR_COLL_BROADCAST, 0, true);
    cr_coll_result bc1 = eval_last(c, CR_COLL_BROADCAST, 1, true);
    cr_coll_result first = eval_last(c, CR_COLL_REDUCE, 0, false);
    assert_close(red0.pred.pred_s, 6.6e-6 * 0.520, 0.01, 0);
    assert_close(red0.pred.pred_s, 3.15e-6, 0.10, 0);
    assert_close(bc1.pred.pred_s, red0.pred.pred_s, 1e-9, 0);
    /* the hop: at least NCCL's NVLink ring LL hwLat 0.6 us x 0.520 */
    assert_true(red1.pred.pred_s - red0.pred.pred_s >= 0.6e-6 * 0.520 * 0.999);
    assert_close(bc0.pred.pred_s, red1.pred.pred_s, 1e-9, 0);
    /* from the first start: the hop and one launch gap (5.50 us) */
    assert_close(first.pred.pred_s - red1.pred.pred_s, launch_gap_s(), 1e-9, 1e-15);
    assert_close(red0.bound.bound_s, red1.bound.bound_s, 1e-12, 0);
    assert_close(red0.bound.bound_s, first.bound.bound_s, 1e-12, 0);
    cr_coll_ctx_free(c);
    cr_topo_free(t);
}

/* An operation of nccl-tests' -g 8 timed loop (cr_coll_req host_loop):
 * one thread enqueues the 8 GPUs' kernels, out of place. */
static cr_coll_req host_loop_req(cr_coll coll, double bytes)
{
    cr_coll_req rq = cr_coll_req_default(coll, bytes);
    rq.in_place = false;
    rq.ranks_per_process = 8;
    rq.host_loop = true;
    return rq;
}

/* hgx-h100-8 with a slow host (20 us a GPU, 0.5 us a work), so that the
 * host binds where the tests look. */
static cr_topo *slow_host_topo(void)
{
    cr_topo *t = cr_test_open_topo("hgx-h100-8");
    assert_int_equal(cr_topo_set_param(t, "coll.host_op", 20e-6, "test"), CR_OK);
    assert_int_equal(cr_topo_set_param(t, "coll.host_op.ch", 0.5e-6, "test"), CR_OK);
    return t;
}

/* nccl-tests -g G (cr_coll_req host_loop): one thread enqueues G kernels
 * per operation in its timed loop, so an operation takes at least G x
 * (coll.host_op + channels x coll.host_op.ch) (NVIDIA/nccl-tests#123: 4.2
 * us x GPUs at 8 B, one channel); where the
 * GPUs take longer (8 GPUs at 8 B: just so, and 1 GiB) the host hides behind them and the
 * prediction is that of one process per GPU. The launch gap of a single launch is not added on top,
 * and the bound does not move. */
static void test_host_loop(void **state)
{
    (void)state;
    cr_topo *t = cr_test_open_topo("hgx-h100-8");
    cr_coll_ctx *c = cr_test_coll_ctx(t, NULL);
    cr_params p;
    cr_params_default(CR_GEN_HOPPER, &p);
    double h = 0, hch = 0;
    cr_diag d = {{0}};
    assert_int_equal(cr_params_get(&p, "coll.host_op", &h, &d), CR_OK);
    assert_int_equal(cr_params_get(&p, "coll.host_op.ch", &hch, &d), CR_OK);
    assert_true(h > 0 && hch > 0);
    for (int k = 0; k < 2; k++) {
        double S = k ? 1073741824.0 : 8;
        cr_coll_result one = eval_rpp(c, CR_COLL_ALLREDUCE, S, CR_MECH_NONE, 0);
        cr_coll_req rq = host_loop_req(CR_COLL_ALLREDUCE, S);
        cr_coll_result r = eval_req(c, &rq);
        assert_close(r.bound.bound_s, one.bound.bound_s, 1e-12, 0);
        assert_true(r.pred.nchannels >= 1);
        assert_close(r.pred.pred_s, fmax(one.pred.pred_s, 8 * (h + r.pred.nchannels * hch)), 1e-9,
                     0);
    }
    cr_coll_ctx_free(c);
    /* a slower host (6 us a GPU) binds at 8 B: 48 us */
    assert_int_equal(cr_topo_set_param(t, "coll.host_op", 6e-6, "test"), CR_OK);
    c = cr_test_coll_ctx(t, NULL);
    cr_coll_result one = eval_rpp(c, CR_COLL_ALLREDUCE, 8, CR_MECH_NONE, 0);
    assert_true(one.pred.pred_s < 48e-6);
    cr_coll_req rq = host_loop_req(CR_COLL_ALLREDUCE, 8);
    assert_int_equal(cr_topo_set_param(t, "coll.host_op.ch", 0, "test"), CR_OK);
    cr_coll_ctx_free(c);
    c = cr_test_coll_ctx(t, NULL);
    assert_close(eval_req(c, &rq).pred.pred_s, 48e-6, 1e-9, 0);
    cr_coll_ctx_free(c);
    cr_topo_free(t);
}

/* The host's part per channel (coll.host_op.ch: NCCL plans one work batch
 * per channel): with the GPUs' time below the host's, a size NCCL runs on
 * more channels costs the host more, by exactly G x the added channels x
 * the figure. */
static void test_host_loop_channels(void **state)
{
    (void)state;
    cr_topo *t = slow_host_topo(); /* it binds at both sizes */
    cr_coll_ctx *c = cr_test_coll_ctx(t, NULL);
    cr_coll_req rq = host_loop_req(CR_COLL_ALLGATHER, 8192);
    rq.algo = CR_ALGO_RING;
    rq.proto = CR_PROTO_LL;
    cr_coll_result small = eval_req(c, &rq);
    rq.bytes = 1048576;
    cr_coll_result big = eval_req(c, &rq);
    assert_true(big.pred.nchannels > small.pred.nchannels);
    assert_close(small.pred.pred_s, 8 * (20e-6 + small.pred.nchannels * 0.5e-6), 1e-9, 0);
    assert_close(big.pred.pred_s - small.pred.pred_s,
                 8 * 0.5e-6 * (big.pred.nchannels - small.pred.nchannels), 1e-9, 0);
    cr_coll_ctx_free(c);
    cr_topo_free(t);
}

/* A point-to-point operation's works are its messages' (peer, channel)
 * pairs: at 8 KiB every message takes one channel (a part is at least 64
 * KiB on NVLink), so per GPU a sendrecv plans 2 works, an all-to-all of 8
 * ranks 14, a gather 2 x 7 / 8 = 1.75; and its calls (ncclSend, ncclRecv:
 * coll.host_op.p2p, 0.3 us here) are as many, one message each. */
static void test_host_loop_p2p_works(void **state)
{
    (void)state;
    cr_topo *t = slow_host_topo();
    assert_int_equal(cr_topo_set_param(t, "coll.host_op.p2p", 0.3e-6, "test"), CR_OK);
    cr_coll_ctx *c = cr_test_coll_ctx(t, NULL);
    const cr_coll colls[] = {CR_COLL_SENDRECV, CR_COLL_ALLTOALL, CR_COLL_GATHER};
    const double works[] = {2, 14, 1.75};
    for (int i = 0; i < 3; i++) {
        cr_coll_req rq = host_loop_req(colls[i], 8192);
        assert_close(eval_req(c, &rq).pred.pred_s, 8 * (20e-6 + works[i] * (0.5e-6 + 0.3e-6)), 1e-9,
                     0);
    }
    cr_coll_ctx_free(c);
    cr_topo_free(t);
}

/* One process driving every GPU and NCCL before 2.23: a point-to-point
 * message over NVLink is written straight into the receiver's buffer
 * (coll.p2p.nvl_ch.direct, 33.2 GB/s a channel on Hopper) where one
 * process per GPU, or NCCL 2.23 and later without registered buffers,
 * go through the FIFO (coll.p2p.nvl_ch, 19.3); so do processes of 2 GPUs
 * each (-g 2 under MPI: rank 1's peer 2 is in another process). A
 * sendrecv of 64 MiB between 8 H100s of an NVSwitch board runs on 4
 * channels. */
static void test_direct_write_p2p(void **state)
{
    (void)state;
    cr_topo *t = cr_test_open_topo("hgx-h100-8");
    cr_coll_ctx *c = cr_test_coll_ctx(t, NULL);
    const struct {
        int rpp, version;
        double ch_Bps;
    } cases[] = {{8, 22203, 33.2e9},
                 {8, 22304, 19.3e9},
                 {1, 22203, 19.3e9},
                 {0, 21805, 19.3e9},
                 {2, 22203, 19.3e9}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_coll_req rq = cr_coll_req_default(CR_COLL_SENDRECV, 67108864.0);
        rq.in_place = false;
        rq.ranks_per_process = cases[i].rpp;
        rq.nccl_version = cases[i].version;
        cr_coll_result r = eval_req(c, &rq);
        assert_close(r.pred.wire_Bps, 4 * cases[i].ch_Bps, 1e-9, 0);
    }
    cr_coll_ctx_free(c);
    cr_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gap_per_extra_gpu),   cmocka_unit_test(test_bad_rpp),
        cmocka_unit_test(test_two_launch_modes),    cmocka_unit_test(test_last_start_window),
        cmocka_unit_test(test_host_loop),           cmocka_unit_test(test_host_loop_channels),
        cmocka_unit_test(test_host_loop_p2p_works), cmocka_unit_test(test_direct_write_p2p),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
