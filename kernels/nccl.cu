/* SPDX-License-Identifier: MIT */
/*
 * NCCL collectives sweep, nccl-tests style: allreduce, allgather,
 * reducescatter, alltoall, broadcast, reduce and sendrecv (a ring shift),
 * fp32 sum, out of place, sizes from --min-bytes to --max-bytes by 4x.
 *
 * Process models (nccl-tests' and the launchers users already run):
 *   - one process driving every local GPU (default: ncclCommInitAll);
 *   - one process per GPU started by torchrun (RANK, WORLD_SIZE, LOCAL_RANK)
 *     or mpirun (OMPI_COMM_WORLD_*, PMI_*): rank 0 writes the NCCL unique id
 *     to CR_NCCL_ID_FILE (default /tmp/crbench-nccl-<MASTER_PORT>.id) and the
 *     others read it, or every rank derives it from NCCL_COMM_ID.
 * NCCL is loaded with dlopen (libnccl.so.2 on the library path, or
 * CR_NCCL_LIB), so crbench builds and runs where NCCL is absent; the family
 * then reports itself skipped.
 *
 * `bytes` follows nccl-tests' size: allreduce, broadcast, reduce, sendrecv:
 * the buffer; allgather: the whole gathered output (n x the send buffer);
 * reducescatter: the whole input (n x the output); alltoall: the whole
 * per-rank buffer. Declared work: rd_bytes and wr_bytes are the bytes each
 * rank reads from and writes to its own memory at least once (input read,
 * output written); the link bytes follow from the collective and n.
 *
 * Check: inputs are small random integers (exact in fp32 sums), outputs are
 * poisoned, and every element of every rank's output is compared with the
 * exact expected value.
 */
#include <algorithm>
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>
#include <vector>

#include "crbench.h"

/* NCCL's ABI (nccl.h, stable since 2.0): declared here so that crbench needs
 * no NCCL headers at build time. */
typedef struct {
    char internal[128];
} nccl_id;
typedef struct nccl_comm *nccl_comm_t;
typedef int nccl_result;
enum { NCCL_FLOAT32 = 7 };
enum { NCCL_SUM = 0 };

static struct {
    void *h;
    const char *(*GetErrorString)(nccl_result);
    nccl_result (*GetVersion)(int *);
    nccl_result (*GetUniqueId)(nccl_id *);
    nccl_result (*CommInitRank)(nccl_comm_t *, int, nccl_id, int);
    nccl_result (*CommInitAll)(nccl_comm_t *, int, const int *);
    nccl_result (*CommDestroy)(nccl_comm_t);
    nccl_result (*AllReduce)(const void *, void *, size_t, int, int, nccl_comm_t, cudaStream_t);
    nccl_result (*AllGather)(const void *, void *, size_t, int, nccl_comm_t, cudaStream_t);
    nccl_result (*ReduceScatter)(const void *, void *, size_t, int, int, nccl_comm_t, cudaStream_t);
    nccl_result (*Broadcast)(const void *, void *, size_t, int, int, nccl_comm_t, cudaStream_t);
    nccl_result (*Reduce)(const void *, void *, size_t, int, int, int, nccl_comm_t, cudaStream_t);
    nccl_result (*Send)(const void *, size_t, int, int, nccl_comm_t, cudaStream_t);
    nccl_result (*Recv)(void *, size_t, int, int, nccl_comm_t, cudaStream_t);
    nccl_result (*GroupStart)(void);
    nccl_result (*GroupEnd)(void);
} N;

static int nccl_load(void)
{
    const char *names[] = {getenv("CR_NCCL_LIB"), "libnccl.so.2", "libnccl.so"};
    for (int i = 0; i < 3 && !N.h; i++)
        if (names[i] && *names[i])
            N.h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
    if (!N.h)
        return -1;
#define SYM(f)                                                                                     \
    do {                                                                                           \
        *(void **)&N.f = dlsym(N.h, "nccl" #f);                                                    \
        if (!N.f)                                                                                  \
            return -1;                                                                             \
    } while (0)
    SYM(GetErrorString);
    SYM(GetVersion);
    SYM(GetUniqueId);
    SYM(CommInitRank);
    SYM(CommInitAll);
    SYM(CommDestroy);
    SYM(AllReduce);
    SYM(AllGather);
    SYM(ReduceScatter);
    SYM(Broadcast);
    SYM(Reduce);
    SYM(Send);
    SYM(Recv);
    SYM(GroupStart);
    SYM(GroupEnd);
#undef SYM
    return 0;
}

#define NCK(call)                                                                                  \
    do {                                                                                           \
        nccl_result r_ = (call);                                                                   \
        if (r_ != 0) {                                                                             \
            fprintf(stderr, "crbench: %s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,          \
                    N.GetErrorString(r_));                                                         \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

enum {
    C_ALLREDUCE,
    C_ALLGATHER,
    C_REDUCESCATTER,
    C_ALLTOALL,
    C_BROADCAST,
    C_REDUCE,
    C_SENDRECV,
    C_N
};
static const char *coll_name[] = {"allreduce", "allgather", "reducescatter", "alltoall",
                                  "broadcast", "reduce",    "sendrecv"};

/* Input element i of rank r: an integer in [-8, 8], exact in fp32 sums of up
 * to 2^20 ranks. */
__host__ __device__ static inline float in_val(uint64_t seed, int r, size_t i)
{
    return (float)((int)(cr_hash32(seed + (uint64_t)r * 0x51ED27ull, i) % 17u) - 8);
}

static __global__ void k_fill_in(float *p, size_t n, uint64_t seed, int r)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = in_val(seed, r, i);
}

/* Output element i of `rank` for collective c with n ranks and per-rank
 * element count `cnt` (the send count of allgather, the receive count of
 * reducescatter, the per-peer block of alltoall). */
__device__ static inline float expected(int c, uint64_t seed, int rank, int n, size_t cnt, size_t i)
{
    float s = 0;
    switch (c) {
    case C_ALLREDUCE:
    case C_REDUCE:
        for (int r = 0; r < n; r++)
            s += in_val(seed, r, i);
        return s;
    case C_ALLGATHER:
        return in_val(seed, (int)(i / cnt), i % cnt);
    case C_REDUCESCATTER:
        for (int r = 0; r < n; r++)
            s += in_val(seed, r, (size_t)rank * cnt + i);
        return s;
    case C_ALLTOALL:
        return in_val(seed, (int)(i / cnt), (size_t)rank * cnt + i % cnt);
    case C_BROADCAST:
        return in_val(seed, 0, i);
    default: /* sendrecv: from the previous rank of the ring */
        return in_val(seed, (rank + n - 1) % n, i);
    }
}

static __global__ void k_check(const float *out, size_t n_out, int c, uint64_t seed, int rank,
                               int n, size_t cnt, unsigned long long *bad)
{
    unsigned long long m = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n_out;
         i += (size_t)gridDim.x * blockDim.x)
        m += out[i] != expected(c, seed, rank, n, cnt, i);
    if (m)
        atomicAdd(bad, m);
}

struct rank_ctx {
    int dev, rank;
    nccl_comm_t comm;
    cudaStream_t s;
    float *in, *out;
    unsigned long long *bad;
};

/* Element counts for a case of `bytes` (nccl-tests size): input and output
 * per rank, and the per-rank unit cnt used by expected(). */
static void counts(int c, size_t bytes, int n, size_t *n_in, size_t *n_out, size_t *cnt)
{
    size_t e = bytes / 4;
    switch (c) {
    case C_ALLGATHER:
        *cnt = e / n;
        *n_in = *cnt;
        *n_out = *cnt * n;
        break;
    case C_REDUCESCATTER:
        *cnt = e / n;
        *n_in = *cnt * n;
        *n_out = *cnt;
        break;
    case C_ALLTOALL:
        *cnt = e / n;
        *n_in = *n_out = *cnt * n;
        break;
    default:
        *cnt = e;
        *n_in = *n_out = e;
    }
}

static void issue(int c, struct rank_ctx *x, int n, size_t n_in, size_t n_out, size_t cnt)
{
    switch (c) {
    case C_ALLREDUCE:
        NCK(N.AllReduce(x->in, x->out, n_in, NCCL_FLOAT32, NCCL_SUM, x->comm, x->s));
        break;
    case C_ALLGATHER:
        NCK(N.AllGather(x->in, x->out, cnt, NCCL_FLOAT32, x->comm, x->s));
        break;
    case C_REDUCESCATTER:
        NCK(N.ReduceScatter(x->in, x->out, cnt, NCCL_FLOAT32, NCCL_SUM, x->comm, x->s));
        break;
    case C_ALLTOALL:
        NCK(N.GroupStart());
        for (int p = 0; p < n; p++) {
            NCK(N.Send(x->in + (size_t)p * cnt, cnt, NCCL_FLOAT32, p, x->comm, x->s));
            NCK(N.Recv(x->out + (size_t)p * cnt, cnt, NCCL_FLOAT32, p, x->comm, x->s));
        }
        NCK(N.GroupEnd());
        break;
    case C_BROADCAST:
        NCK(N.Broadcast(x->in, x->out, n_in, NCCL_FLOAT32, 0, x->comm, x->s));
        break;
    case C_REDUCE:
        NCK(N.Reduce(x->in, x->out, n_in, NCCL_FLOAT32, NCCL_SUM, 0, x->comm, x->s));
        break;
    default:
        NCK(N.GroupStart());
        NCK(N.Send(x->in, n_in, NCCL_FLOAT32, (x->rank + 1) % n, x->comm, x->s));
        NCK(N.Recv(x->out, n_out, NCCL_FLOAT32, (x->rank + n - 1) % n, x->comm, x->s));
        NCK(N.GroupEnd());
    }
}

static int env_int(const char *const *names, int fallback)
{
    for (int i = 0; names[i]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v)
            return atoi(v);
    }
    return fallback;
}

int cr_run_nccl(const struct cr_opts *o)
{
    static const char *const rank_env[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                           "SLURM_PROCID", NULL};
    static const char *const size_env[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                           "SLURM_NTASKS", NULL};
    static const char *const local_env[] = {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                            "MPI_LOCALRANKID", "SLURM_LOCALID", NULL};
    int world = env_int(size_env, 0);
    int multi = world > 0; /* one process per GPU */
    int myrank = multi ? env_int(rank_env, 0) : 0;
    int ndev = o->list && o->gpus > 0 ? o->gpus : 1;
    if (!o->list) {
        CK(cudaGetDeviceCount(&ndev));
        if (nccl_load() != 0) {
            printf("# nccl: SKIPPED: libnccl.so.2 not found (set CR_NCCL_LIB or "
                   "LD_LIBRARY_PATH): %s\n",
                   dlerror());
            g_skipped++;
            return 0;
        }
    }
    int nlocal = multi ? 1 : ndev; /* ranks this process drives */
    int n = multi ? world : ndev;
    std::vector<struct rank_ctx> R((size_t)nlocal);
    uint64_t base_seed = o->seed;
    const char *algo = getenv("NCCL_ALGO"), *proto = getenv("NCCL_PROTO");
    size_t max_bytes = o->max_bytes > 0 ? (size_t)o->max_bytes : (size_t)1 << 30;
    if (o->quick && !o->max_bytes)
        max_bytes = (size_t)64 << 20;
    size_t min_bytes = std::max<size_t>(4 * (size_t)n, (size_t)o->min_bytes);
    if (!o->list) {
        int ver = 0;
        N.GetVersion(&ver);
        printf("# nccl %d, %d ranks (%s), NCCL_ALGO=%s NCCL_PROTO=%s\n", ver, n,
               multi ? "one process per GPU" : "one process, all local GPUs", algo ? algo : "auto",
               proto ? proto : "auto");
        if (multi) {
            int local = env_int(local_env, myrank % ndev);
            R[0].dev = local % ndev;
            R[0].rank = myrank;
            CK(cudaSetDevice(R[0].dev));
            struct {
                nccl_id id;
                uint64_t seed;
            } msg;
            nccl_id &id = msg.id;
            msg.seed = o->seed;
            const char *f = getenv("CR_NCCL_ID_FILE");
            char path[256];
            if (!f) {
                /* torchrun's run id differs between launches, so a stale
                 * file of an earlier run is never read. */
                const char *port = getenv("MASTER_PORT");
                const char *run = getenv("TORCHELASTIC_RUN_ID");
                snprintf(path, sizeof path, "/tmp/crbench-nccl-%s-%s.id", port ? port : "0",
                         run ? run : "0");
                f = path;
            }
            if (getenv("NCCL_COMM_ID") || myrank == 0) {
                NCK(N.GetUniqueId(&id));
            }
            if (!getenv("NCCL_COMM_ID")) {
                if (myrank == 0) {
                    char tmp[300];
                    snprintf(tmp, sizeof tmp, "%s.tmp%d", f, (int)getpid());
                    FILE *fp = fopen(tmp, "wb");
                    if (!fp || fwrite(&msg, sizeof msg, 1, fp) != 1 || fclose(fp) != 0 ||
                        rename(tmp, f) != 0) {
                        fprintf(stderr, "crbench: cannot write the NCCL id to %s\n", f);
                        return 1;
                    }
                } else {
                    int got = 0;
                    for (int tries = 0; tries < 6000 && !got; tries++) {
                        FILE *fp = fopen(f, "rb");
                        if (fp) {
                            got = fread(&msg, sizeof msg, 1, fp) == 1;
                            fclose(fp);
                        }
                        if (!got)
                            usleep(10000);
                    }
                    if (!got) {
                        fprintf(stderr,
                                "crbench: no NCCL id in %s after 60 s (rank 0 writes it; "
                                "set CR_NCCL_ID_FILE to a shared path)\n",
                                f);
                        return 1;
                    }
                }
            }
            /* Ranks must draw the same inputs: rank 0's seed travels with the
             * id; with NCCL_COMM_ID, CR_SEED (or 0) is the shared seed. */
            base_seed = getenv("NCCL_COMM_ID")
                            ? strtoull(getenv("CR_SEED") ? getenv("CR_SEED") : "0", NULL, 10)
                            : msg.seed;
            NCK(N.CommInitRank(&R[0].comm, world, id, myrank));
        } else {
            std::vector<nccl_comm_t> comms((size_t)n);
            NCK(N.CommInitAll(comms.data(), n, NULL));
            for (int d = 0; d < n; d++) {
                R[d].dev = d;
                R[d].rank = d;
                R[d].comm = comms[d];
            }
        }
        for (auto &x : R) {
            CK(cudaSetDevice(x.dev));
            CK(cudaStreamCreateWithFlags(&x.s, cudaStreamNonBlocking));
            CK(cudaMalloc(&x.in, max_bytes));
            CK(cudaMalloc(&x.out, max_bytes));
            CK(cudaMalloc(&x.bad, sizeof *x.bad));
        }
    }
    int rc = 0;
    bool want[C_N];
    for (int c = 0; c < C_N; c++) {
        want[c] = !o->colls;
        if (o->colls) {
            /* Whole names in a comma-separated list. */
            size_t L = strlen(coll_name[c]);
            for (const char *q = o->colls; q && *q;) {
                const char *e = strchr(q, ',');
                size_t ql = e ? (size_t)(e - q) : strlen(q);
                if (ql == L && !strncmp(q, coll_name[c], L))
                    want[c] = true;
                q = e ? e + 1 : NULL;
            }
        }
    }
    /* Sizes outermost: when --budget-s runs out, every collective has its
     * small and middle sizes and only the largest are skipped. */
    for (size_t bytes = min_bytes; bytes <= max_bytes; bytes *= (o->quick ? 16 : 4)) {
        for (int c = 0; c < C_N; c++) {
            if (!want[c])
                continue;
            if (!o->list && cr_over_budget(o)) {
                printf("#       skipped: %s %zu B (--budget-s %.0f s spent)\n", coll_name[c], bytes,
                       o->budget_s);
                g_skipped++;
                continue;
            }
            size_t n_in, n_out, cnt;
            counts(c, bytes, n, &n_in, &n_out, &cnt);
            if (cnt == 0)
                continue;
            /* Rough: 1e11 B/s and 20 us per collective, for the count only. */
            int iters = cr_iters(o, (double)bytes / 1e11 + 20e-6, 5, 100);
            uint64_t seed = 0;
            if (!o->list) {
                /* Every rank derives the same seed from the base seed. */
                seed = cr_hash32(base_seed, (uint64_t)c * 64 + (uint64_t)__builtin_ctzll(bytes)) *
                       0x100000001ull;
                for (auto &x : R) {
                    CK(cudaSetDevice(x.dev));
                    k_fill_in<<<1024, 256, 0, x.s>>>(x.in, n_in, seed, x.rank);
                    CKL();
                }
                /* Warm-up (also connects the channels this size uses). */
                NCK(N.GroupStart());
                for (auto &x : R) {
                    CK(cudaSetDevice(x.dev));
                    issue(c, &x, n, n_in, n_out, cnt);
                }
                NCK(N.GroupEnd());
                for (auto &x : R) {
                    CK(cudaSetDevice(x.dev));
                    CK(cudaStreamSynchronize(x.s));
                    cr_poison(x.out, n_out * 4, x.s);
                    CK(cudaStreamSynchronize(x.s));
                }
            }
            double rd = (double)n_in * 4, wr = (double)n_out * 4;
            if (!cr_case_begin(o,
                               "cr:nccl coll=%s bytes=%zu count=%zu dtype=fp32 op=sum nranks=%d "
                               "rank=%d algo=%s proto=%s iters=%d rd_bytes=%.0f wr_bytes=%.0f "
                               "flops=0",
                               coll_name[c], bytes,
                               c == C_ALLGATHER || c == C_REDUCESCATTER || c == C_ALLTOALL ? cnt
                                                                                           : n_in,
                               n, multi ? myrank : -1, algo ? algo : "auto", proto ? proto : "auto",
                               iters, rd, wr))
                continue;
            struct cr_timer t;
            CK(cudaSetDevice(R[0].dev));
            cr_timer_init(&t, iters);
            cr_timer_mark(&t, R[0].s);
            for (int it = 0; it < iters; it++) {
                NCK(N.GroupStart());
                for (auto &x : R) {
                    CK(cudaSetDevice(x.dev));
                    issue(c, &x, n, n_in, n_out, cnt);
                }
                NCK(N.GroupEnd());
                CK(cudaSetDevice(R[0].dev));
                cr_timer_mark(&t, R[0].s);
            }
            for (auto &x : R) {
                CK(cudaSetDevice(x.dev));
                CK(cudaStreamSynchronize(x.s));
            }
            CK(cudaSetDevice(R[0].dev));
            cr_case_end();
            double med = cr_timer_median_us(&t);
            cr_timer_free(&t);
            unsigned long long nbad = 0;
            for (auto &x : R) {
                if (c == C_REDUCE && x.rank != 0)
                    continue; /* only the root's output is defined */
                CK(cudaSetDevice(x.dev));
                unsigned long long h = 0;
                CK(cudaMemsetAsync(x.bad, 0, sizeof h, x.s));
                k_check<<<1024, 256, 0, x.s>>>(x.out, n_out, c, seed, x.rank, n, cnt, x.bad);
                CKL();
                CK(cudaMemcpyAsync(&h, x.bad, sizeof h, cudaMemcpyDeviceToHost, x.s));
                CK(cudaStreamSynchronize(x.s));
                nbad += h;
            }
            CK(cudaSetDevice(R[0].dev));
            double factor = c == C_ALLREDUCE ? 2.0 * (n - 1) / n
                            : c == C_ALLGATHER || c == C_REDUCESCATTER || c == C_ALLTOALL
                                ? (double)(n - 1) / n
                                : 1.0;
            char label[96], why[64] = "";
            snprintf(label, sizeof label, "%s n=%d %zu B", coll_name[c], n, bytes);
            if (nbad)
                snprintf(why, sizeof why, "%llu wrong elements", nbad);
            cr_report("nccl", label, med, (double)bytes / (med * 1e-6) / 1e9 * factor, "busGB/s",
                      nbad == 0, why);
            if (nbad)
                rc = 1;
        }
    }
    if (!o->list) {
        for (auto &x : R) {
            CK(cudaSetDevice(x.dev));
            CK(cudaStreamSynchronize(x.s));
            N.CommDestroy(x.comm);
            CK(cudaFree(x.in));
            CK(cudaFree(x.out));
            CK(cudaFree(x.bad));
            CK(cudaStreamDestroy(x.s));
        }
        CK(cudaSetDevice(o->device));
    }
    return rc;
}
