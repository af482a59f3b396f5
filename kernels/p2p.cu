/* SPDX-License-Identifier: MIT */
/*
 * Point-to-point transfers between two local GPUs by mechanism: the copy
 * engine (cudaMemcpyPeerAsync), TMA bulk copies and 16-byte loads/stores
 * from SMs (the kernels of mech.cu, given a peer pointer), across message
 * sizes and SM counts. mode=pull runs the kernel on the receiving GPU and
 * reads the peer's memory; mode=push runs it on the sender and writes the
 * peer's memory. One process drives both GPUs (peer access enabled).
 *
 * Declared work: rd_bytes = wr_bytes = bytes, and `bytes` crosses the link
 * once. With fewer than two GPUs (or no peer access) the family reports
 * itself skipped.
 */
#include <algorithm>

#include "crbench.h"

int cr_run_p2p(const struct cr_opts *o)
{
    int ndev = 2;
    if (!o->list) {
        CK(cudaGetDeviceCount(&ndev));
        int can = 0;
        if (ndev >= 2)
            CK(cudaDeviceCanAccessPeer(&can, 0, 1));
        if (ndev < 2 || !can) {
            printf("# p2p: SKIPPED: needs two GPUs with peer access (found %d GPU%s%s)\n", ndev,
                   ndev == 1 ? "" : "s", ndev >= 2 ? ", no peer access" : "");
            g_skipped++;
            return 0;
        }
    }
    const int src = 0, dst = 1;
    size_t max_bytes = o->max_bytes > 0 ? (size_t)o->max_bytes : (size_t)1 << 30;
    if (o->quick && !o->max_bytes)
        max_bytes = (size_t)64 << 20;
    size_t min_bytes = std::max<size_t>(4096, (size_t)o->min_bytes);
    min_bytes = (min_bytes + 15) / 16 * 16;
    char *S = NULL, *D = NULL;
    cudaStream_t ss = 0, sd = 0;
    int nsm = 132;
    if (!o->list) {
        CK(cudaSetDevice(src));
        cudaError_t e = cudaDeviceEnablePeerAccess(dst, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
            CK(e);
        (void)cudaGetLastError();
        cr_mech_setup();
        CK(cudaMalloc(&S, max_bytes));
        CK(cudaStreamCreateWithFlags(&ss, cudaStreamNonBlocking));
        CK(cudaSetDevice(dst));
        e = cudaDeviceEnablePeerAccess(src, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
            CK(e);
        (void)cudaGetLastError();
        cr_mech_setup();
        CK(cudaMalloc(&D, max_bytes));
        CK(cudaStreamCreateWithFlags(&sd, cudaStreamNonBlocking));
        nsm = cr_props()->multiProcessorCount;
    }
    int counts[] = {1, 2, 4, 8, 16, 32, 64, nsm};
    int rc = 0;
    static const char *mechs[] = {"ce", "tma", "ldst"};
    for (size_t bytes = min_bytes; bytes <= max_bytes; bytes *= (o->quick ? 16 : 4)) {
        for (int m = 0; m < 3; m++) {
            for (int mode = 0; mode < (m == 0 ? 1 : 2); mode++) {
                for (int ci = 0; ci < (m == 0 ? 1 : 8); ci++) {
                    int sms = m == 0 ? 0 : counts[ci];
                    const char *mode_name = m == 0 ? "ce" : mode == 0 ? "pull" : "push";
                    int dev = m == 0 || mode == 0 ? dst : src;
                    cudaStream_t s = dev == dst ? sd : ss;
                    double bw = m == 0 ? 3e11 : std::min(3e11, 2e10 * sms);
                    int iters = cr_iters(o, (double)bytes / bw + 8e-6, 3, 100);
                    uint64_t seed = 0;
                    if (!o->list) {
                        seed = cr_next_seed();
                        CK(cudaSetDevice(src));
                        cr_fill_words(S, bytes, seed, ss);
                        CK(cudaStreamSynchronize(ss));
                        CK(cudaSetDevice(dst));
                        cr_poison(D, bytes, sd);
                        CK(cudaStreamSynchronize(sd));
                        CK(cudaSetDevice(dev));
                    }
                    if (!cr_case_begin(o,
                                       "cr:p2p mech=%s mode=%s src=%d dst=%d bytes=%zu sms=%d "
                                       "iters=%d rd_bytes=%zu wr_bytes=%zu flops=0",
                                       mechs[m], mode_name, src, dst, bytes, sms, iters, bytes,
                                       bytes))
                        continue;
                    struct cr_timer t;
                    cr_timer_init(&t, iters);
                    cr_timer_mark(&t, s);
                    for (int it = 0; it < iters; it++) {
                        if (m == 0)
                            CK(cudaMemcpyPeerAsync(D, dst, S, src, bytes, s));
                        else if (m == 1)
                            cr_copy_tma(D, S, bytes, sms, s);
                        else
                            cr_copy_ldst(D, S, bytes, sms, s);
                        cr_timer_mark(&t, s);
                    }
                    cr_case_end();
                    double med = cr_timer_median_us(&t);
                    cr_timer_free(&t);
                    CK(cudaSetDevice(dst));
                    unsigned long long nbad = cr_count_word_mismatch(D, bytes, seed, sd);
                    char label[96], why[64] = "";
                    snprintf(label, sizeof label, "%s %s sms=%d %zu B", mechs[m], mode_name, sms,
                             bytes);
                    if (nbad)
                        snprintf(why, sizeof why, "%llu wrong words", nbad);
                    cr_report("p2p", label, med, (double)bytes / (med * 1e-6) / 1e9, "GB/s",
                              nbad == 0, why);
                    if (nbad)
                        rc = 1;
                }
            }
        }
    }
    if (!o->list) {
        CK(cudaSetDevice(src));
        CK(cudaFree(S));
        CK(cudaStreamDestroy(ss));
        CK(cudaSetDevice(dst));
        CK(cudaFree(D));
        CK(cudaStreamDestroy(sd));
        CK(cudaSetDevice(o->device));
    }
    return rc;
}
