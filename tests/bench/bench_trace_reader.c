/* SPDX-License-Identifier: MIT */
/*
 * Trace reader benchmark (make bench): writes a synthetic trace of
 * COMMROOF_BENCH_TRACE_MB megabytes (default 1024, i.e. 1 GB; events shaped
 * like the tracer's: kernels with full launch args, copies, NVTX ranges) to
 * $TMPDIR, then streams it through the reader and the summary on one core,
 * printing wall time and peak RSS. Target (issue 6): a 1 GB trace read in
 * under 2 GB of memory. The file is deleted afterwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "traces/reader/trace_reader.h"
#include "traces/reader/trace_summary.h"
#include "bench_clock.h"

/* Writes about target bytes of trace; returns the events written, 0 on error. */
static unsigned long write_trace(const char *path, double target)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    fputs("{\"traceEvents\":[\n", f);
    fputs("{\"ph\":\"M\",\"pid\":1234500,\"tid\":0,\"name\":\"commroof_device\",\"args\":{"
          "\"device\":0,\"name\":\"NVIDIA H200\",\"sm_count\":132}},\n",
          f);
    unsigned long n = 0;
    long written = 0;
    long ts_ns = 0;
    static const char *const names[] = {
        "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8>"
        "(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8::Params)",
        "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
        "spin_ns(unsigned long long, int*)"};
    while ((double)written < target) {
        int len;
        long dur = 1000 + (long)(n % 9000);
        if (n % 10 == 7)
            len = fprintf(
                f,
                "{\"ph\":\"X\",\"cat\":\"memcpy\",\"pid\":1234500,\"tid\":7,\"ts\":%ld.%03ld,"
                "\"dur\":%ld.%03ld,\"name\":\"memcpy h2d\",\"args\":{\"device\":0,"
                "\"stream\":7,\"context\":1,\"correlation\":%lu,\"kind\":\"h2d\","
                "\"bytes\":%lu,\"src_device\":-1,\"dst_device\":0,\"src_mem\":"
                "\"pinned\",\"dst_mem\":\"device\"}},\n",
                ts_ns / 1000, ts_ns % 1000, dur / 1000, dur % 1000, n, 4096 + n % 65536);
        else if (n % 10 == 9)
            len = fprintf(f,
                          "{\"ph\":\"X\",\"cat\":\"nvtx\",\"pid\":1234599,\"tid\":4242,\"ts\":%ld.%"
                          "03ld,\"dur\":%ld.%03ld,\"name\":\"ncclAllReduce\",\"args\":{\"device\":"
                          "-1,\"thread\":4242,\"domain\":\"NCCL\",\"payload\":%lu,"
                          "\"payload_kind\":\"u64\"}},\n",
                          ts_ns / 1000, ts_ns % 1000, dur / 1000, dur % 1000, 1048576 + n);
        else
            len = fprintf(f,
                          "{\"ph\":\"X\",\"cat\":\"kernel\",\"pid\":1234500,\"tid\":7,\"ts\":%ld.%"
                          "03ld,\"dur\":%ld.%03ld,\"name\":\"%s\",\"args\":{\"device\":0,"
                          "\"stream\":7,\"context\":1,\"correlation\":%lu,\"grid\":[132,1,1],"
                          "\"block\":[128,1,1],\"cluster\":[0,0,0],\"registers\":16,"
                          "\"smem_static_bytes\":0,\"smem_dynamic_bytes\":0,"
                          "\"local_bytes_per_thread\":0}},\n",
                          ts_ns / 1000, ts_ns % 1000, dur / 1000, dur % 1000, names[n % 4], n);
        if (len < 0) {
            fclose(f);
            return 0;
        }
        written += len;
        ts_ns += dur + 500;
        n++;
    }
    fputs("{\"ph\":\"M\",\"pid\":1234599,\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}\n],\n"
          "\"displayTimeUnit\":\"ns\",\n\"metadata\":{\"format\":\"commroof-trace\","
          "\"format_version\":1,\"dropped_records\":0}}\n",
          f);
    if (fclose(f) != 0)
        return 0;
    return n + 2;
}

int main(void)
{
    const char *mb_env = getenv("COMMROOF_BENCH_TRACE_MB");
    const double full_mb = bench_smoke() ? 4.0 : 1024.0;
    double mb = mb_env ? atof(mb_env) : full_mb;
    if (!(mb > 0))
        mb = full_mb;
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/commroof-bench-trace.%d.json", tmp && *tmp ? tmp : "/tmp",
             (int)getpid());
    double t0 = bench_wall_s();
    unsigned long written = write_trace(path, mb * 1e6);
    double t_write = bench_wall_s() - t0;
    if (!written) {
        fprintf(stderr, "bench_trace_reader: cannot write %s\n", path);
        remove(path);
        return 1;
    }
    double rss_before = bench_peak_rss_mib();
    t0 = bench_wall_s();
    cr_trace_summary *s = NULL;
    cr_diag d = {{0}};
    cr_status st = cr_trace_summarize(path, &s, &d);
    double t_read = bench_wall_s() - t0;
    remove(path);
    if (st != CR_OK) {
        fprintf(stderr, "bench_trace_reader: %s\n", d.msg);
        return 1;
    }
    int ok = s->info.events == written && s->info.complete && s->info.dropped_known;
    printf("# bench_trace_reader: synthetic trace, %lu events, streamed on one core\n", written);
    printf("# %-30s %10s %10s %12s %12s\n", "what", "size_MB", "wall_s", "MB_per_s", "peak_RSS_MB");
    printf("  %-30s %10.0f %10.2f %12.1f %12s\n", "write synthetic trace", mb, t_write,
           mb / t_write, "-");
    printf("  %-30s %10.0f %10.2f %12.1f %12.1f\n", "read + summarise", mb, t_read, mb / t_read,
           bench_peak_rss_mib());
    printf("# peak RSS before reading %.1f MB; target: 1 GB read in under 2048 MB: %s\n",
           rss_before, ok && bench_peak_rss_mib() < 2048.0 ? "OK" : "FAILED");
    cr_trace_summary_free(s);
    return ok ? bench_exit(bench_peak_rss_mib() < 2048.0) : 1;
}
