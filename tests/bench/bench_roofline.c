/* SPDX-License-Identifier: MIT */
/*
 * Program roofline benchmark (make bench): writes a synthetic trace of
 * training steps shaped like PyTorch's emit_nvtx(record_shapes=True) ranges
 * (traces/h200-1/train-2026-12-04: GEMMs, pointwise and backward ops with
 * input_op_ids, and AdamW's foreach calls over three lists of P parameter
 * tensors, each range owning one kernel) to $TMPDIR, then runs
 * `commroof roofline` on it (cr_roofline_read, h200-1) on one core,
 * printing wall time and peak RSS. COMMROOF_BENCH_ROOFLINE_STEPS steps
 * (default 2000: 100,000 ranges, 22,000 of them foreach calls listing 300
 * or 900 tensors); target: under 30 s and 1 GB. The file is deleted
 * afterwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_clock.h"
#include "topo_xml.h"
#include "validate/roofline.h"

enum { PARAMS = 300, OPS_PER_STEP = 50 };

/* One range (3 ms) and its kernel (2 ms: longer than any of the bounds,
 * so that the rows are not impossible) at *ts_ns. */
static int range_and_kernel(FILE *f, long *ts_ns, const char *name, const char *kernel)
{
    long t = *ts_ns;
    int a = fprintf(f,
                    "{\"ph\":\"X\",\"cat\":\"nvtx\",\"pid\":100099,\"tid\":7,\"ts\":%ld.%03ld,"
                    "\"dur\":3000.000,\"name\":\"%s\",\"args\":{\"device\":-1,\"thread\":7}},\n",
                    t / 1000, t % 1000, name);
    int b = fprintf(f,
                    "{\"ph\":\"X\",\"cat\":\"kernel\",\"pid\":100000,\"tid\":7,\"ts\":%ld.%03ld,"
                    "\"dur\":2000.000,\"name\":\"%s\",\"args\":{\"device\":0,\"stream\":7,"
                    "\"context\":1,\"correlation\":0,\"grid\":[132,1,1],\"block\":[128,1,1]}},\n",
                    (t + 1000) / 1000, (t + 1000) % 1000, kernel);
    *ts_ns += 4000000;
    return a < 0 || b < 0 ? -1 : 0;
}

/* A foreach call over n lists of the PARAMS tensors (ids: list l's tensor
 * i is op base + l * PARAMS + i). */
static int foreach_call(FILE *f, long *ts_ns, char *buf, size_t size, const char *op, int lists,
                        long op_id, long base)
{
    int o = snprintf(buf, size, "%s, op_id = %ld, sizes = [", op, op_id);
    for (int l = 0; l < lists; l++)
        for (int i = 0; i < PARAMS; i++)
            o += snprintf(buf + o, size - (size_t)o, "%s[%d, 1024]", l || i ? ", " : "",
                          1 + i % 7 * 512);
    o += snprintf(buf + o, size - (size_t)o, ", []], input_op_ids = [");
    for (int l = 0; l < lists; l++)
        for (int i = 0; i < PARAMS; i++)
            o += snprintf(buf + o, size - (size_t)o, "%s(%ld,0)", l || i ? ", " : "",
                          base + (long)l * PARAMS + i);
    snprintf(buf + o, size - (size_t)o, ", (0,-1)]");
    return range_and_kernel(
        f, ts_ns, buf,
        "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<c10::BFloat16>()");
}

static long write_trace(const char *path, int steps)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    static char io[1 << 20];
    setvbuf(f, io, _IOFBF, sizeof io);
    static char name[64 * 1024];
    fputs("{\"traceEvents\":[\n", f);
    long ts = 0, id = 1, ranges = 0;
    int err = 0;
    for (int s = 0; s < steps && !err; s++) {
        for (int k = 0; k < OPS_PER_STEP - 11 && !err; k++, id += 3) {
            const char *kernel = "void at::native::vectorized_elementwise_kernel<4, "
                                 "at::native::AddFunctor<c10::BFloat16>>()";
            switch (k % 4) {
            case 0:
                snprintf(name, sizeof name,
                         "aten::mm, seq = %ld, op_id = %ld, sizes = [[4096, 1024], [1024, "
                         "4096]], input_op_ids = [(%ld,0), (%ld,0)]",
                         id, id, id - 1, id - 2);
                kernel = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT";
                break;
            case 1:
                snprintf(name, sizeof name,
                         "aten::add, seq = %ld, op_id = %ld, sizes = [[4, 1024, 1024], [4, 1024, "
                         "1024], []], input_op_ids = [(%ld,0), (%ld,0), (0,-1)]",
                         id, id, id - 1, id - 3);
                break;
            case 2:
                snprintf(name, sizeof name,
                         "aten::gelu_backward, op_id = %ld, sizes = [[4, 1024, 4096], [4, 1024, "
                         "4096], []], input_op_ids = [(%ld,0), (%ld,0), (0,-1)]",
                         id, id - 1, id - 2);
                break;
            default:
                snprintf(name, sizeof name,
                         "aten::native_layer_norm_backward, op_id = %ld, sizes = [[4, 1024, "
                         "1024], [4, 1024, 1024], [], [4, 1024, 1], [4, 1024, 1], [1024], "
                         "[1024], []], input_op_ids = [(%ld,0), (%ld,0), (0,-1), (%ld,1), "
                         "(%ld,2), (0,-1), (0,-1), (0,-1)]",
                         id, id - 1, id - 2, id - 2, id - 2);
                kernel = "void at::native::(anonymous "
                         "namespace)::layer_norm_grad_input_kernel_vectorized<c10::BFloat16>()";
            }
            err = range_and_kernel(f, &ts, name, kernel);
            ranges++;
        }
        /* AdamW (foreach): 11 calls over 1 to 3 lists */
        static const struct {
            const char *op;
            int lists;
        } adam[] = {{"aten::_foreach_mul_", 1},    {"aten::_foreach_lerp_", 2},
                    {"aten::_foreach_mul_", 1},    {"aten::_foreach_addcmul_", 3},
                    {"aten::_foreach_sqrt", 1},    {"aten::_foreach_div_", 1},
                    {"aten::_foreach_add_", 1},    {"aten::_foreach_addcdiv_", 3},
                    {"aten::_foreach_zero_", 1},   {"aten::_foreach_copy_", 2},
                    {"aten::_foreach_maximum_", 2}};
        for (size_t a = 0; a < sizeof adam / sizeof adam[0] && !err; a++, id++) {
            err = foreach_call(f, &ts, name, sizeof name, adam[a].op, adam[a].lists, id,
                               1000000000L + (long)a % 3 * PARAMS);
            ranges++;
        }
    }
    fputs("{\"ph\":\"M\",\"pid\":100099,\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}\n],\n"
          "\"displayTimeUnit\":\"ns\",\n\"metadata\":{\"format\":\"commroof-trace\","
          "\"format_version\":1,\"ts_base_ns\":0,\"dropped_records\":0}}\n",
          f);
    if (fclose(f) != 0 || err)
        return -1;
    return ranges;
}

int main(void)
{
    const char *env = getenv("COMMROOF_BENCH_ROOFLINE_STEPS");
    int steps = env ? atoi(env) : bench_smoke() ? 20 : 2000;
    if (steps < 1)
        steps = 2000;
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/commroof-bench-roofline.%d.json", tmp && *tmp ? tmp : "/tmp",
             (int)getpid());
    double t0 = bench_wall_s();
    long ranges = write_trace(path, steps);
    double t_write = bench_wall_s() - t0;
    if (ranges < 0) {
        fprintf(stderr, "bench_roofline: cannot write %s\n", path);
        remove(path);
        return 1;
    }
    struct stat sb;
    double mb = stat(path, &sb) == 0 ? (double)sb.st_size / 1e6 : 0;
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    if (cr_topo_open("h200-1", &t, &d) != CR_OK) {
        fprintf(stderr, "bench_roofline: %s\n", d.msg);
        remove(path);
        return 1;
    }
    const char *paths[] = {path};
    cr_roofline_opts o = {.has_dtype = true, .dtype = CR_DT_BF16};
    cr_roofline r = {0};
    double rss_before = bench_peak_rss_mib();
    t0 = bench_wall_s();
    cr_status st = cr_roofline_read(t, paths, 1, &o, &r, &d);
    double t_read = bench_wall_s() - t0;
    remove(path);
    cr_topo_free(t);
    if (st != CR_OK) {
        fprintf(stderr, "bench_roofline: %s\n", d.msg);
        return 1;
    }
    /* every range owns its kernel and every row has a bound */
    int ok = r.calls_unowned == 0 && r.covered_s > 0.999 * r.total_s && r.violations == 0;
    double peak = bench_peak_rss_mib();
    printf("# bench_roofline: synthetic training steps (emit_nvtx ranges, AdamW foreach over "
           "%d tensors), one core\n",
           PARAMS);
    printf("# %-28s %8s %10s %9s %6s %10s %12s\n", "what", "steps", "ranges", "trace_MB", "rows",
           "wall_s", "peak_RSS_MB");
    printf("  %-28s %8d %10ld %9.0f %6s %10.2f %12s\n", "write synthetic trace", steps, ranges, mb,
           "-", t_write, "-");
    printf("  %-28s %8d %10ld %9.0f %6zu %10.2f %12.1f\n", "roofline (read + rows)", steps, ranges,
           mb, r.n, t_read, peak);
    int met = t_read < 30 && peak < 1024;
    printf("# peak RSS before reading %.1f MB; every range bounded: %s; target (2000 steps in "
           "under 30 s and 1024 MB): %s\n",
           rss_before, ok ? "yes" : "NO", met ? "OK" : "FAILED");
    cr_roofline_release(&r);
    return ok ? bench_exit(met) : 1;
}
