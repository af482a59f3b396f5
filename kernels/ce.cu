/* SPDX-License-Identifier: MIT */
/*
 * Copy-engine transfers through cudaMemcpyAsync: device to device, host to
 * device and device to host, from pinned (cudaHostAlloc) and pageable
 * (malloc) host memory, 4 KiB to 4 GiB.
 *
 * Declared work per iteration: rd_bytes = wr_bytes = bytes (one read at the
 * source, one write at the destination); for host copies the link (PCIe)
 * carries `bytes` once. Device-side buffers below 512 MiB rotate over
 * disjoint sets so that d2d copies start out of the L2.
 */
#include <algorithm>
#include <string.h>

#include "crbench.h"

enum { DIR_D2D, DIR_H2D, DIR_D2H };
static const char *dir_name[] = {"d2d", "h2d", "d2h"};

int cr_run_ce(const struct cr_opts *o)
{
    size_t max_bytes = o->max_bytes > 0 ? (size_t)o->max_bytes : (size_t)4 << 30;
    if (max_bytes > ((size_t)4 << 30))
        max_bytes = (size_t)4 << 30;
    if (o->quick && !o->max_bytes)
        max_bytes = (size_t)256 << 20;
    const size_t KiB = 1024;
    size_t pool = std::max(max_bytes, (size_t)(512 + 1) << 20);
    char *D1 = NULL, *D2 = NULL, *Hp = NULL, *Hu = NULL;
    cudaStream_t s = 0;
    if (!o->list) {
        CK(cudaMalloc(&D1, pool));
        CK(cudaMalloc(&D2, pool));
        CK(cudaHostAlloc(&Hp, max_bytes, cudaHostAllocDefault));
        Hu = (char *)malloc(max_bytes);
        if (!Hu) {
            fprintf(stderr, "crbench ce: cannot allocate %zu bytes of pageable memory\n",
                    max_bytes);
            return 1;
        }
        memset(Hu, 0, max_bytes); /* fault the pages in once */
        CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    }
    int rc = 0;
    for (int dir = DIR_D2D; dir <= DIR_D2H; dir++) {
        for (int pinned = 1; pinned >= 0; pinned--) {
            if (dir == DIR_D2D && !pinned)
                continue;
            const char *host = dir == DIR_D2D ? "none" : pinned ? "pinned" : "pageable";
            char *H = pinned ? Hp : Hu;
            for (size_t bytes = 4 * KiB; bytes <= max_bytes; bytes *= 4) {
                int sets = dir == DIR_D2D ? cr_rotation(2 * bytes, 4096) : 1;
                if ((size_t)sets * bytes > pool)
                    sets = (int)(pool / bytes);
                /* d2d: HBM about 2 TB/s each way; host: PCIe about 50 GB/s,
                 * pageable slower. */
                double bw = dir == DIR_D2D ? 1.5e12 : pinned ? 4e10 : 1e10;
                int iters = cr_iters(o, (double)bytes / bw + 8e-6, 3, 100);
                uint64_t seed = o->list ? 0 : cr_next_seed();
                if (!o->list) {
                    if (dir == DIR_H2D) {
                        cr_host_fill_words(H, bytes, seed);
                        cr_poison(D1, bytes, s);
                    } else {
                        cr_fill_words(D1, (size_t)sets * bytes, seed, s);
                        if (dir == DIR_D2D)
                            cr_poison(D2, (size_t)sets * bytes, s);
                        if (dir == DIR_D2H)
                            memset(H, 0xFF, bytes);
                    }
                    /* Warm-up copy (out of the range). */
                    if (dir == DIR_D2D)
                        CK(cudaMemcpyAsync(D2, D1, bytes, cudaMemcpyDeviceToDevice, s));
                    CK(cudaStreamSynchronize(s));
                    if (dir == DIR_D2D)
                        cr_poison(D2, bytes, s);
                }
                if (!cr_case_begin(o,
                                   "cr:ce dir=%s host=%s bytes=%zu iters=%d sets=%d rd_bytes=%zu "
                                   "wr_bytes=%zu flops=0",
                                   dir_name[dir], host, bytes, iters, sets, bytes, bytes))
                    continue;
                struct cr_timer t;
                cr_timer_init(&t, iters);
                cr_timer_mark(&t, s);
                for (int it = 0; it < iters; it++) {
                    size_t off = (size_t)(it % sets) * bytes;
                    if (dir == DIR_D2D)
                        CK(cudaMemcpyAsync(D2 + off, D1 + off, bytes, cudaMemcpyDeviceToDevice, s));
                    else if (dir == DIR_H2D)
                        CK(cudaMemcpyAsync(D1, H, bytes, cudaMemcpyHostToDevice, s));
                    else
                        CK(cudaMemcpyAsync(H, D1, bytes, cudaMemcpyDeviceToHost, s));
                    cr_timer_mark(&t, s);
                }
                cr_case_end();
                double med = cr_timer_median_us(&t);
                cr_timer_free(&t);
                unsigned long long nbad = 0;
                if (dir == DIR_D2D) {
                    nbad =
                        cr_count_word_mismatch(D2, (size_t)std::min(sets, iters) * bytes, seed, s);
                } else if (dir == DIR_H2D) {
                    nbad = cr_count_word_mismatch(D1, bytes, seed, s);
                } else {
                    nbad = cr_host_count_word_mismatch(H, bytes, seed);
                }
                char label[96], why[64] = "";
                snprintf(label, sizeof label, "%s %s %zu B", dir_name[dir], host, bytes);
                if (nbad)
                    snprintf(why, sizeof why, "%llu wrong words", nbad);
                cr_report("ce", label, med, (double)bytes / (med * 1e-6) / 1e9, "GB/s", nbad == 0,
                          why);
                if (nbad)
                    rc = 1;
            }
        }
    }
    if (!o->list) {
        CK(cudaStreamDestroy(s));
        CK(cudaFree(D1));
        CK(cudaFree(D2));
        CK(cudaFreeHost(Hp));
        free(Hu);
    }
    return rc;
}
