/* SPDX-License-Identifier: MIT */
/*
 * Trace reader and summary (traces/reader/): committed fixtures, a real
 * H200 trace (complete and killed), other tools' Chrome traces, files cut at
 * every byte, and bad inputs with their exact messages.
 *
 * Expected numbers come from the fixtures' own text (hand-written, the sums
 * are spelled out below) or from kernels/trace_demo/trace_demo.cu, the
 * program that produced the H200 traces (counts and byte sizes derived from
 * its source next to each assertion).
 */
#include "cr_test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "traces/reader/trace_reader.h"
#include "traces/reader/trace_summary.h"

#include "tests/fuzz/fuzz_trace_reader.c"

#define FIX "tests/fixtures/traces/"

/* Reads every event of a reader; returns the final status; counts by cat. */
static cr_status drain(cr_trace_reader *r, unsigned long counts[6], cr_diag *d)
{
    const cr_trace_event *e;
    cr_status st;
    if (counts)
        memset(counts, 0, 6 * sizeof counts[0]);
    while ((st = cr_trace_reader_next(r, &e, d)) == CR_OK && e)
        if (counts)
            counts[e->cat]++;
    return st;
}

/* The message of reading text (which must fail) with status want. */
static const char *error_of(const char *text, cr_status want)
{
    static cr_diag d;
    memset(&d, 0, sizeof d);
    cr_trace_reader *r = NULL;
    assert_int_equal(cr_trace_reader_open_mem(text, strlen(text), "t.json", &r), CR_OK);
    cr_status st = drain(r, NULL, &d);
    cr_trace_reader_free(r);
    if (st != want)
        fail_msg("status %d (%s), expected %d; message: %s", st, cr_strerror(st), want, d.msg);
    return d.msg;
}

static void test_minimal_fixture(void **state)
{
    (void)state;
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open(FIX "minimal.json", &r, &d), CR_OK);
    const cr_trace_event *e;
    int n = 0;
    bool saw_kernel = false, saw_p2p = false, saw_nvtx = false, saw_memset = false;
    while (cr_trace_reader_next(r, &e, &d) == CR_OK && e) {
        n++;
        if (e->cat == CR_TRACE_KERNEL && !saw_kernel) {
            saw_kernel = true; /* the first gemm line */
            assert_string_equal(e->name, "gemm");
            assert_int_equal(e->ph, 'X');
            assert_int_equal(e->pid, 4200);
            assert_int_equal(e->tid, 7);
            assert_close(e->ts_s, 10e-6, 1e-12, 0);
            assert_close(e->dur_s, 2.5e-6, 1e-12, 0);
            assert_int_equal(e->device, 0);
            assert_int_equal(e->stream, 7);
            assert_int_equal(e->grid[0], 132);
            assert_int_equal(e->grid[1], 1);
            assert_int_equal(e->block[0], 256);
            assert_int_equal(e->registers, 96);
            assert_close(e->smem_static_bytes, 1024, 0, 0);
            assert_close(e->smem_dynamic_bytes, 49152, 0, 0);
        }
        if (e->cat == CR_TRACE_MEMCPY && e->copy_kind == CR_COPY_P2P) {
            saw_p2p = true;
            assert_int_equal(e->src_device, 1);
            assert_int_equal(e->dst_device, 0);
            assert_close(e->bytes, 4e6, 0, 0);
            assert_string_equal(e->src_mem, "device");
        }
        if (e->cat == CR_TRACE_MEMSET) {
            saw_memset = true;
            assert_string_equal(e->dst_mem, "device");
            assert_close(e->bytes, 4096, 0, 0);
        }
        if (e->cat == CR_TRACE_NVTX && e->ph == 'X') {
            saw_nvtx = true;
            assert_string_equal(e->name, "ncclAllReduce");
            assert_non_null(e->domain);
            assert_string_equal(e->domain, "NCCL");
            assert_true(e->has_payload);
            assert_close(e->payload, 1048576, 0, 0);
            assert_int_equal(e->device, -1);
        }
        if (e->cat == CR_TRACE_KERNEL && e->tid == 8)
            assert_string_equal(e->name, "add \"quoted\" \xc3\xa9"); /* JSON escapes decoded */
    }
    assert_true(saw_kernel && saw_p2p && saw_nvtx && saw_memset);
    assert_int_equal(n, 13); /* 13 event lines in the fixture */
    cr_trace_info info;
    cr_trace_reader_info(r, &info);
    assert_true(info.complete);
    assert_true(info.has_metadata);
    assert_int_equal(info.events, 13);
    /* metadata says 3; the last commroof_stats line (2) is older */
    assert_true(info.dropped_known);
    assert_int_equal(info.dropped_records, 3);
    assert_int_equal(info.format_version, 1);
    assert_int_equal(info.ts_base_ns, 1000000000000LL);
    /* metadata.devices (2) replaces the one commroof_device event */
    assert_int_equal(json_array_size(cr_trace_reader_devices(r)), 2);
    assert_non_null(cr_trace_reader_metadata(r));
    cr_trace_reader_free(r);
}

static void test_minimal_summary(void **state)
{
    (void)state;
    cr_trace_summary *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_summarize(FIX "minimal.json", &s, &d), CR_OK);
    assert_int_equal(s->kernels, 3);
    assert_int_equal(s->copies, 2);
    assert_int_equal(s->memsets, 1);
    assert_int_equal(s->syncs, 1);
    assert_int_equal(s->nvtx, 2);
    /* kernels: gemm 2.5 + 1.5 = 4.0 us, add 0.25 us */
    assert_close(s->kernel_s, 4.25e-6, 1e-12, 0);
    assert_int_equal(s->n_kernel_stats, 2);
    assert_string_equal(s->kernel_stats[0].name, "gemm");
    assert_int_equal(s->kernel_stats[0].calls, 2);
    assert_close(s->kernel_stats[0].total_s, 4e-6, 1e-12, 0);
    assert_close(s->kernel_stats[0].min_s, 1.5e-6, 1e-12, 0);
    assert_close(s->kernel_stats[0].max_s, 2.5e-6, 1e-12, 0);
    /* copies by bytes: p2p 4e6 B, then h2d 1 MiB, then the 4 KiB memset */
    assert_int_equal(s->n_copy_stats, 3);
    assert_int_equal(s->copy_stats[0].kind, CR_COPY_P2P);
    assert_int_equal(s->copy_stats[1].kind, CR_COPY_H2D);
    assert_int_equal(s->copy_stats[1].src_device, -1);
    assert_string_equal(s->copy_stats[1].src_mem, "pinned");
    assert_true(s->copy_stats[2].memset);
    /* span: earliest start 0 (the h2d copy) to latest end 305 us (the nvtx
     * range 5 + 300); the instant mark and metadata do not count */
    assert_close(s->span_s, 305e-6, 1e-9, 0);
    assert_int_equal(s->n_devices, 2);
    cr_trace_summary_free(s);
}

/* The CUDA C demo traced on the H200 (2026-11-29). Counts and sizes follow
 * from kernels/trace_demo/trace_demo.cu: n = 1024 (matrices of n*n floats,
 * 4 MiB), vectors of 16 Mi floats (64 MiB). */
static void test_h200_cuda_demo(void **state)
{
    (void)state;
    cr_trace_summary *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_summarize(FIX "h200_cuda_demo.json", &s, &d), CR_OK);
    assert_true(s->info.complete);
    assert_true(s->info.dropped_known);
    assert_int_equal(s->info.dropped_records, 0);
    assert_int_equal(s->kernels, 12); /* 4 matmul_tiled + 8 axpy */
    assert_int_equal(s->n_kernel_stats, 2);
    assert_int_equal(s->copies, 4); /* h2d pinned, h2d pageable, d2d, d2h */
    assert_int_equal(s->memsets, 2);
    double h2d = 0, d2h = 0, d2d = 0, set = 0;
    for (size_t i = 0; i < s->n_copy_stats; i++) {
        const cr_trace_copy_stat *c = &s->copy_stats[i];
        if (c->memset)
            set += c->bytes;
        else if (c->kind == CR_COPY_H2D)
            h2d += c->bytes;
        else if (c->kind == CR_COPY_D2H)
            d2h += c->bytes;
        else if (c->kind == CR_COPY_D2D)
            d2d += c->bytes;
    }
    assert_close(h2d, 2.0 * 4194304, 0, 0);  /* A (pinned) and B (pageable), 4 MiB each */
    assert_close(d2h, 4194304, 0, 0);        /* C back */
    assert_close(d2d, 67108864, 0, 0);       /* Y -> Y2, 64 MiB */
    assert_close(set, 2.0 * 67108864, 0, 0); /* X and Y zeroed */
    /* One device: the H200, 132 SMs (nvidia-smi and CUPTI on that machine). */
    const json_t *devs = NULL;
    cr_trace_reader *r = NULL;
    assert_int_equal(cr_trace_reader_open(FIX "h200_cuda_demo.json", &r, &d), CR_OK);
    unsigned long counts[6];
    assert_int_equal(drain(r, counts, &d), CR_OK);
    devs = cr_trace_reader_devices(r);
    assert_int_equal(json_array_size(devs), 1);
    const json_t *dev0 = json_array_get(devs, 0);
    assert_string_equal(json_string_value(json_object_get(dev0, "name")), "NVIDIA H200");
    assert_int_equal(json_integer_value(json_object_get(dev0, "sm_count")), 132);
    /* NVTX: 6 ranges (before_cuda_init, trace_demo, h2d_inputs, matmul x4,
     * axpy x8, d2d_and_d2h) and the "checkpoint" mark */
    assert_int_equal(counts[CR_TRACE_NVTX], 7);
    cr_trace_reader_free(r);
    cr_trace_summary_free(s);
}

/* NVTX payloads as trace_demo.cu sets them. */
static void test_h200_nvtx_payloads(void **state)
{
    (void)state;
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open(FIX "h200_cuda_demo.json", &r, &d), CR_OK);
    const cr_trace_event *e;
    int found = 0;
    while (cr_trace_reader_next(r, &e, &d) == CR_OK && e) {
        if (e->cat != CR_TRACE_NVTX)
            continue;
        if (strcmp(e->name, "h2d_inputs") == 0) {
            assert_true(e->has_payload);
            assert_close(e->payload, 2.0 * 4194304, 0, 0); /* 2 * mat_bytes */
            found++;
        } else if (strcmp(e->name, "matmul x4") == 0) {
            assert_true(e->has_payload);
            assert_close(e->payload, 4.0 * 2.0 * 1024.0 * 1024.0 * 1024.0, 0, 0);
            assert_string_equal(e->domain, "commroof");
            found++;
        } else if (strcmp(e->name, "axpy x8") == 0) {
            assert_close(e->payload, 8.0 * 3.0 * 67108864.0, 0, 0);
            found++;
        } else if (strcmp(e->name, "d2d_and_d2h") == 0) {
            assert_close(e->payload, 67108864.0 + 4194304.0, 0, 0);
            found++;
        } else if (strcmp(e->name, "trace_demo") == 0) {
            assert_false(e->has_payload);
            assert_null(e->domain);
            found++;
        }
    }
    assert_int_equal(found, 5);
    cr_trace_reader_free(r);
}

/* NVTX extended payloads decoded by the tracer's own path on a CPU machine
 * (cpu_nvtx_payload.json: tests/trace/nvtx_payload_demo.c run with
 * NVTX_INJECTION64_PATH=libcommroof_trace.so, no GPU). The demo's values:
 * ncclAllReduce 1048576 B Sum and 4096 B Max, ncclSend 65536 B to peer 3,
 * ncclCommInitRank (payload at the pop) 8 ranks, rank 2, device 2; the
 * communicator 0xabcdef0123456789 = 12379813738877118345 (> 2^53, so a
 * string); five payloads it makes undecodable; a scalar payload 777. */
static void test_nvtx_ext_payloads(void **state)
{
    (void)state;
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open(FIX "cpu_nvtx_payload.json", &r, &d), CR_OK);
    const cr_trace_event *e;
    int ar = 0, undecoded = 0, found = 0;
    while (cr_trace_reader_next(r, &e, &d) == CR_OK && e) {
        if (e->cat != CR_TRACE_NVTX)
            continue;
        const json_t *pl = json_object_get(e->args, "payload");
        if (strcmp(e->name, "ncclAllReduce") == 0 && json_is_object(pl)) {
            const double want[2] = {1048576, 4096};
            const char *op[2] = {"Sum", "Max"};
            assert_true(ar < 2);
            assert_true(e->has_payload);
            assert_close(e->payload, want[ar], 0, 0);
            assert_close(e->bytes, want[ar], 0, 0);
            assert_string_equal(e->domain, "NCCL");
            assert_string_equal(json_string_value(json_object_get(pl, "Reduction operation")),
                                op[ar]);
            assert_string_equal(json_string_value(json_object_get(pl, "NCCL communicator ID")),
                                "12379813738877118345");
            ar++;
        } else if (strcmp(e->name, "ncclAllReduce") == 0) {
            assert_false(e->has_payload);
            assert_true(json_is_true(json_object_get(e->args, "payload_undecoded")));
            undecoded++;
        } else if (strcmp(e->name, "ncclSend") == 0) {
            assert_close(e->payload, 65536, 0, 0);
            assert_int_equal(json_integer_value(json_object_get(pl, "Peer rank")), 3);
            found++;
        } else if (strcmp(e->name, "ncclCommInitRank") == 0) {
            assert_false(e->has_payload); /* no message size in this schema */
            assert_int_equal(json_integer_value(json_object_get(pl, "No. of ranks")), 8);
            assert_int_equal(json_integer_value(json_object_get(pl, "Rank")), 2);
            assert_int_equal(json_integer_value(json_object_get(pl, "CUDA device")), 2);
            found++;
        } else if (strcmp(e->name, "scalar") == 0) {
            assert_close(e->payload, 777, 0, 0);
            found++;
        }
    }
    assert_int_equal(ar, 2);
    assert_int_equal(undecoded, 5);
    assert_int_equal(found, 3);
    const json_t *m = cr_trace_reader_metadata(r);
    assert_int_equal(json_integer_value(json_object_get(m, "nvtx_payloads_decoded")), 5);
    assert_int_equal(json_integer_value(json_object_get(m, "nvtx_payloads_undecoded")), 5);
    assert_string_equal(json_string_value(json_object_get(m, "nvtx_recorder")), "own");
    cr_trace_reader_free(r);

    /* the summary groups the sized ranges by name, then size: the demo's
     * allreduce_started (1 MiB), ncclAllReduce 4096 and 1048576, ncclSend */
    cr_trace_summary *sum = NULL;
    assert_int_equal(cr_trace_summarize(FIX "cpu_nvtx_payload.json", &sum, &d), CR_OK);
    assert_int_equal(sum->n_nvtx_sizes, 4);
    assert_int_equal(sum->nvtx_sized, 4);
    assert_string_equal(sum->nvtx_sizes[1].name, "ncclAllReduce");
    assert_close(sum->nvtx_sizes[1].bytes, 4096, 0, 0);
    assert_close(sum->nvtx_sizes[2].bytes, 1048576, 0, 0);
    assert_int_equal(sum->nvtx_sizes[2].calls, 1);
    assert_string_equal(sum->nvtx_sizes[3].name, "ncclSend");
    cr_trace_summary_free(sum);

    /* a payload object without a usable size: no payload, the event still reads */
    const char *t = "{\"traceEvents\":[\n"
                    "{\"ph\":\"X\",\"cat\":\"nvtx\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
                    "\"ts\":1,\"dur\":1,\"args\":{\"payload\":{\"Rank\":2}}},\n"
                    "{\"ph\":\"X\",\"cat\":\"nvtx\",\"name\":\"b\",\"pid\":1,\"tid\":1,"
                    "\"ts\":1,\"dur\":1,\"args\":{\"payload\":{\"Message size [bytes]\":"
                    "\"18446744073709551615\"}}},\n"
                    /* a scalar payload beyond 2^53, as the tracer writes it (a
                     * string: as a number the whole trace was refused) */
                    "{\"ph\":\"X\",\"cat\":\"nvtx\",\"name\":\"c\",\"pid\":1,\"tid\":1,"
                    "\"ts\":1,\"dur\":1,\"args\":{\"payload\":\"14695981039346656037\","
                    "\"payload_kind\":\"u64\"}}\n]}";
    assert_int_equal(cr_trace_reader_open_mem(t, strlen(t), "t", &r), CR_OK);
    int n = 0;
    while (cr_trace_reader_next(r, &e, &d) == CR_OK && e) {
        assert_false(e->has_payload);
        n++;
    }
    assert_int_equal(n, 3);
    cr_trace_reader_free(r);
}

/* The same program SIGKILLed after its work (trace_demo --kill-after-ms
 * 1500): no closing brackets, no metadata, but every flushed event, four
 * more axpy kernels than the complete run, and the dropped count from the
 * last commroof_stats line. */
static void test_h200_killed(void **state)
{
    (void)state;
    cr_trace_summary *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_summarize(FIX "h200_cuda_demo_killed.json", &s, &d), CR_OK);
    assert_false(s->info.complete);
    assert_false(s->info.has_metadata);
    assert_true(s->info.dropped_known);
    assert_int_equal(s->info.dropped_records, 0);
    assert_int_equal(s->kernels, 16);             /* 12 + the 4 axpy of the killed phase */
    assert_int_equal(s->info.discarded_bytes, 0); /* the file ends after a complete line */
    cr_trace_summary_free(s);
}

/* The same CUDA C demo traced again on the H200 after the driver snapshot
 * (traces/h200-1/cuda_demo_pci.json, 2026-12-01): a 0.46 s program whose
 * device record arrives at exit now carries the PCI ids. Expected values:
 * the bus id nvidia-smi printed on that machine (00000000:00:06.0,
 * h200-1/verify_run.log) in the driver's 4-digit-domain form, and the
 * H200's PCI device id 0x2335 with NVIDIA's vendor id 0x10de. Its NVTX
 * ranges without a payload (before_cuda_init, trace_demo in trace_demo.cu)
 * have none in the trace (CUPTI's "u64 0" for no payload is masked). */
static void test_h200_cuda_demo_pci(void **state)
{
    (void)state;
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open("traces/h200-1/cuda_demo_pci.json", &r, &d), CR_OK);
    const cr_trace_event *e;
    int ranges = 0, with_payload = 0;
    while (cr_trace_reader_next(r, &e, &d) == CR_OK && e) {
        if (e->cat != CR_TRACE_NVTX || e->ph != 'X')
            continue;
        ranges++;
        with_payload += e->has_payload;
        if (strcmp(e->name, "before_cuda_init") == 0 || strcmp(e->name, "trace_demo") == 0)
            assert_false(e->has_payload);
    }
    assert_int_equal(ranges, 6);
    assert_int_equal(with_payload, 4); /* h2d_inputs, matmul x4, axpy x8, d2d_and_d2h */
    const json_t *dev0 = json_array_get(cr_trace_reader_devices(r), 0);
    assert_non_null(dev0);
    assert_string_equal(json_string_value(json_object_get(dev0, "pci")), "0000:00:06.0");
    assert_string_equal(json_string_value(json_object_get(dev0, "pci_device_id")), "0x233510de");
    assert_string_equal(json_string_value(json_object_get(dev0, "source")), "cupti+driver");
    const json_t *errs = json_object_get(cr_trace_reader_metadata(r), "errors");
    assert_int_equal(json_array_size(errs), 0);
    cr_trace_reader_free(r);
}

/* PyTorch with a one-rank NCCL all-reduce, NVTX in guard mode
 * (COMMROOF_TRACE_NVTX_WRAP=0, traces/h200-1/torch_demo_wrap0.json): the
 * program exited 0, NCCL's ranges are there (3 ncclAllReduce in
 * kernels/trace_demo/torch_demo.py, the communicator's init, finalize and
 * destroy), closed, and carry no payload (none decoded; CUPTI's "u64 0"
 * masked). */
static void test_h200_torch_guard_mode(void **state)
{
    (void)state;
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open("traces/h200-1/torch_demo_wrap0.json", &r, &d), CR_OK);
    const cr_trace_event *e;
    int nccl = 0, allreduce = 0;
    while (cr_trace_reader_next(r, &e, &d) == CR_OK && e) {
        if (e->cat != CR_TRACE_NVTX || !e->domain || strcmp(e->domain, "NCCL") != 0)
            continue;
        nccl++;
        allreduce += strcmp(e->name, "ncclAllReduce") == 0;
        assert_false(e->has_payload);
        assert_null(json_object_get(e->args, "unclosed"));
    }
    assert_int_equal(nccl, 6);
    assert_int_equal(allreduce, 3);
    const json_t *md = cr_trace_reader_metadata(r);
    assert_string_equal(json_string_value(json_object_get(md, "nvtx_recorder")), "cupti");
    assert_int_equal(json_integer_value(json_object_get(md, "nvtx_payloads_decoded")), 0);
    assert_int_equal(json_integer_value(json_object_get(md, "dropped_records")), 0);
    cr_trace_reader_free(r);
}

/* A torchrun worker under `commroof trace`, stopped by `timeout` on the H200
 * (traces/h200-1/torch_demo_torchrun_killed.json): what the periodic flush
 * wrote is read, the file is reported incomplete. Expected numbers from the
 * file's text: 38 lines end in "}," (every event line, the last one
 * included: the kill came between flushes), 9 of them "cat":"kernel", 6
 * "cat":"memcpy"; the last commroof_stats says dropped_records 0; one
 * commroof_device line. */
static void test_h200_torchrun_killed(void **state)
{
    (void)state;
    cr_trace_summary *s = NULL;
    cr_diag d = {{0}};
    if (cr_trace_summarize("traces/h200-1/torch_demo_torchrun_killed.json", &s, &d) != CR_OK)
        fail_msg("%s", d.msg);
    assert_false(s->info.complete);
    assert_false(s->info.has_metadata);
    assert_int_equal(s->info.events, 38);
    assert_int_equal(s->info.discarded_bytes, 0);
    assert_true(s->info.dropped_known);
    assert_int_equal(s->info.dropped_records, 0);
    assert_int_equal(s->kernels, 9);
    assert_int_equal(s->copies, 6);
    assert_int_equal(s->n_devices, 1);
    cr_trace_summary_free(s);
}

/* Cutting the complete H200 trace at every byte never fails and never
 * returns more events than the whole file; the count never decreases as the
 * cut moves right. */
static void test_truncated_everywhere(void **state)
{
    (void)state;
    FILE *f = fopen(FIX "h200_cuda_demo.json", "rb");
    assert_non_null(f);
    char *buf = malloc(1 << 16);
    assert_non_null(buf);
    size_t n = fread(buf, 1, 1 << 16, f);
    fclose(f);
    assert_true(n > 1000 && n < (1 << 16));
    uint64_t prev = 0, full = 0;
    for (size_t cut = 1; cut <= n; cut++) {
        cr_trace_reader *r = NULL;
        cr_diag d = {{0}};
        assert_int_equal(cr_trace_reader_open_mem(buf, cut, "cut", &r), CR_OK);
        cr_status st = drain(r, NULL, &d);
        if (st != CR_OK)
            fail_msg("cut at %zu: %s", cut, d.msg);
        cr_trace_info info;
        cr_trace_reader_info(r, &info);
        assert_true(info.events >= prev);
        prev = info.events;
        if (cut == n) {
            assert_true(info.complete);
            full = info.events;
        } else if (cut < n - 2) { /* only the final "}\n" can go and leave it complete */
            assert_false(info.complete);
        }
        cr_trace_reader_free(r);
    }
    assert_int_equal(full, 42); /* the event lines of the file */
    free(buf);
}

static void test_other_tools(void **state)
{
    (void)state;
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open(FIX "pytorch_profiler.json", &r, &d), CR_OK);
    const cr_trace_event *e;
    int n = 0;
    while (cr_trace_reader_next(r, &e, &d) == CR_OK && e) {
        n++;
        if (strcmp(e->cat_str, "gpu_memcpy") == 0) {
            assert_int_equal(e->cat, CR_TRACE_MEMCPY);
            assert_int_equal(e->copy_kind, CR_COPY_H2D); /* from "Memcpy HtoD" */
            assert_close(e->bytes, 4194304, 0, 0);
            assert_int_equal(e->tid, -1);        /* a string tid */
            assert_int_equal(e->src_device, -1); /* host to args.device 0 */
            assert_int_equal(e->dst_device, 0);
        }
        if (strcmp(e->cat_str, "cpu_op") == 0) {
            assert_int_equal(e->cat, CR_TRACE_OTHER);
            assert_int_equal(e->device, -1); /* args.device "cpu" is not read for others */
        }
        if (e->ph == 's')
            assert_close(e->dur_s, 0, 0, 0);
    }
    assert_int_equal(n, 6);
    cr_trace_info info;
    cr_trace_reader_info(r, &info);
    assert_true(info.complete);
    assert_false(info.has_metadata);
    assert_false(info.dropped_known);
    cr_trace_reader_free(r);

    unsigned long counts[6];
    assert_int_equal(cr_trace_reader_open(FIX "bare_array.json", &r, &d), CR_OK);
    assert_int_equal(drain(r, counts, &d), CR_OK);
    assert_int_equal(counts[CR_TRACE_KERNEL], 2);
    cr_trace_reader_info(r, &info);
    assert_true(info.complete);
    cr_trace_reader_free(r);
}

static void test_lenient_forms(void **state)
{
    (void)state;
    static const char *const ok[] = {
        /* trailing comma before ']' */
        "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1},]}",
        /* BOM, key order, extra keys, nested values skipped */
        "\xef\xbb\xbf {\"displayTimeUnit\":\"ns\",\"x\":{\"a\":[1,{\"b\":\"]}\"}]},"
        "\"traceEvents\":[]}",
        /* braces and escapes inside strings do not confuse the scanner */
        "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"a}]\\\"{[\"}]}",
        /* empty object: no events */
        "{\"traceEvents\":[]}",
        "[]",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cr_trace_reader *r = NULL;
        cr_diag d = {{0}};
        assert_int_equal(cr_trace_reader_open_mem(ok[i], strlen(ok[i]), "t", &r), CR_OK);
        cr_status st = drain(r, NULL, &d);
        if (st != CR_OK)
            fail_msg("case %zu: %s", i, d.msg);
        cr_trace_info info;
        cr_trace_reader_info(r, &info);
        assert_true(info.complete);
        cr_trace_reader_free(r);
    }
}

/* What the reader learns from an empty trace whose metadata object has md
 * after its "format" member. */
static cr_trace_info info_of_metadata(const char *md)
{
    char text[256];
    snprintf(text, sizeof text,
             "{\"traceEvents\":[],\"metadata\":{\"format\":\"commroof-trace\"%s}}", md);
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open_mem(text, strlen(text), "t", &r), CR_OK);
    if (drain(r, NULL, &d) != CR_OK)
        fail_msg("metadata %s: %s", md, d.msg);
    cr_trace_info info;
    cr_trace_reader_info(r, &info);
    cr_trace_reader_free(r);
    return info;
}

/* metadata.recorded: the device activities the writer recorded
 * (COMMROOF_TRACE_RECORD). A trace that does not say (an older one,
 * another tool's, a field of another shape) reads as every kind recorded,
 * with recorded_known false; a word this reader does not know is left
 * out. */
static void test_recorded_kinds(void **state)
{
    (void)state;
    static const struct {
        const char *md; /* the metadata object's members after "format" */
        bool known;
        unsigned bits;
    } cases[] = {
        {"", false, CR_TRACE_REC_DEVICE},
        {",\"recorded\":[\"kernel\",\"memcpy\",\"memset\"]", true,
         CR_TRACE_REC(CR_TRACE_KERNEL) | CR_TRACE_REC(CR_TRACE_MEMCPY) |
             CR_TRACE_REC(CR_TRACE_MEMSET)},
        {",\"recorded\":[\"kernel\"]", true, CR_TRACE_REC(CR_TRACE_KERNEL)},
        {",\"recorded\":[]", true, 0},
        {",\"recorded\":[\"sync\",\"memset\",\"gpu-counters\"]", true,
         CR_TRACE_REC(CR_TRACE_SYNC) | CR_TRACE_REC(CR_TRACE_MEMSET)},
        {",\"recorded\":\"kernel\"", false, CR_TRACE_REC_DEVICE},
        {",\"recorded\":[\"kernel\",3]", false, CR_TRACE_REC_DEVICE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_trace_info info = info_of_metadata(cases[i].md);
        if (info.recorded_known != cases[i].known || info.recorded != cases[i].bits)
            fail_msg("case %zu (%s): known %d bits %#x, expected %d %#x", i, cases[i].md,
                     info.recorded_known, info.recorded, cases[i].known, cases[i].bits);
    }
}

/* metadata.launch_blocking: true or false as written; anything else, or
 * none, is "not said" (-1) */
static void test_launch_blocking(void **state)
{
    (void)state;
    static const struct {
        const char *md;
        int want;
    } cases[] = {
        {"", -1},
        {",\"launch_blocking\":true", 1},
        {",\"launch_blocking\":false", 0},
        {",\"launch_blocking\":1", -1},
        {",\"launch_blocking\":\"1\"", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_trace_info info = info_of_metadata(cases[i].md);
        if (info.launch_blocking != cases[i].want)
            fail_msg("case %zu (%s): %d, expected %d", i, cases[i].md, info.launch_blocking,
                     cases[i].want);
    }
}

static void test_bad_inputs(void **state)
{
    (void)state;
    assert_string_equal(error_of("", CR_EPARSE),
                        "t.json:1: empty file: a trace starts with {\"traceEvents\":[ "
                        "(traces/README.md)");
    assert_string_equal(error_of("  \n\n", CR_EPARSE),
                        "t.json:3: empty file: a trace starts with {\"traceEvents\":[ "
                        "(traces/README.md)");
    assert_string_equal(error_of("hello", CR_EPARSE),
                        "t.json:1: not a trace: expected '{' (\"traceEvents\" object) or '[' "
                        "(event array), found 'h'");
    assert_string_equal(error_of("{\"traceEvents\":[\n{\"ts\":1}]}", CR_EPARSE),
                        "t.json:2: event has no \"ph\" (phase) string, e.g. \"ph\":\"X\" for a "
                        "complete event");
    assert_string_equal(error_of("{\"traceEvents\":[\n\n{\"ph\":\"X\",\"name\":\"k\",\"ts\":1,"
                                 "\"dur\":-2}]}",
                                 CR_ERANGE),
                        "t.json:3: event \"k\" has a negative duration (\"dur\":-2)");
    assert_string_equal(
        error_of("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"k\",\"ts\":1}]}", CR_EPARSE),
        "t.json:1: complete event (\"ph\":\"X\") \"k\" needs numbers \"ts\" and "
        "\"dur\" (microseconds)");
    assert_string_equal(
        error_of("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":\"1\",\"dur\":1}]}", CR_EPARSE),
        "t.json:1: \"ts\" must be a number, e.g. \"ts\":0");
    assert_string_equal(error_of("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,"
                                 "\"dur\":1,\"args\":{\"bytes\":\"4MB\"}}]}",
                                 CR_EPARSE),
                        "t.json:1: args.\"bytes\" must be a number, e.g. \"bytes\":0");
    assert_string_equal(error_of("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,"
                                 "\"dur\":1,\"args\":{\"grid\":[1,2]}}]}",
                                 CR_EPARSE),
                        "t.json:1: args.\"grid\" must be an array of 3 integers, e.g. [128,1,1]");
    assert_string_equal(error_of("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,"
                                 "\"dur\":1,\"args\":{\"device\":1.5}}]}",
                                 CR_ERANGE),
                        "t.json:1: args.\"device\" = 1.5 is not an integer in [-1, 1048576]");
    assert_string_equal(error_of("{\"traceEvents\":[1]}", CR_EPARSE),
                        "t.json:1: a trace event must be a JSON object {\"ph\":...}");
    assert_string_equal(error_of("{\"traceEvents\":[{\"ph\":\"X\" \"ts\":1}]}", CR_EPARSE),
                        "t.json:1: '}' expected near '\"ts\"'");
    assert_string_equal(error_of("{\"traceEvents\":[]} x", CR_EPARSE),
                        "t.json:1: unexpected content after the end of the trace");
    assert_string_equal(error_of("{\"traceEvents\":{}}", CR_EPARSE),
                        "t.json:1: \"traceEvents\" must be an array [...]");
    assert_string_equal(error_of("{\"metadata\":{}}", CR_EPARSE),
                        "t.json:1: no \"traceEvents\" array in this JSON object");
    /* an nccl-tests -J file given as a trace: said, with where it goes */
    assert_string_equal(
        error_of("{\"version\":3,\"config\":{\"ngpus\":1},\"results\":[]}", CR_EPARSE),
        "t.json:1: no \"traceEvents\" array: an nccl-tests JSON file (-J), not a "
        "trace; give it to validate or calibrate with --nccl-tests");
    assert_string_equal(
        error_of("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1} {}]}", CR_EPARSE),
        "t.json:1: expected ',' or ']' after an event");
    assert_string_equal(
        error_of("{\"traceEvents\":[],\"metadata\":{\"format\":\"commroof-trace\","
                 "\"format_version\":2}}",
                 CR_EUNSUPPORTED),
        "t.json:1: trace format version 2; this reader reads version 1 (update commroof)");
    assert_string_equal(error_of("{\"traceEvents\":[],\"metadata\":[]}", CR_EPARSE),
                        "t.json:1: \"metadata\" must be an object");
    assert_string_equal(error_of("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,"
                                 "\"args\":[]}]}",
                                 CR_EPARSE),
                        "t.json:1: event \"(unnamed)\": \"args\" must be an object");
}

static void test_event_too_big(void **state)
{
    (void)state;
    size_t big = CR_TRACE_MAX_EVENT_BYTES + 100;
    char *t = malloc(big + 64);
    assert_non_null(t);
    int k = snprintf(t, 64, "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"");
    memset(t + k, 'a', big);
    strcpy(t + k + big, "\"}]}");
    assert_string_equal(error_of(t, CR_ERANGE), "t.json:1: event larger than 1048576 bytes (the "
                                                "limit)");
    free(t);
}

static void test_missing_file(void **state)
{
    (void)state;
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open(FIX "no-such-file.json", &r, &d), CR_EIO);
    assert_null(r);
    assert_string_equal(d.msg, FIX "no-such-file.json: cannot open: No such file or directory");
    cr_trace_reader_free(NULL); /* a no-op */
    cr_trace_summary_free(NULL);
}

static void test_error_is_sticky(void **state)
{
    (void)state;
    const char *t = "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1},{\"ts\":1}]}";
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open_mem(t, strlen(t), "t", &r), CR_OK);
    const cr_trace_event *e;
    assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
    assert_non_null(e);
    assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_EPARSE);
    assert_null(e);
    cr_diag d2 = {{0}};
    assert_int_equal(cr_trace_reader_next(r, &e, &d2), CR_EPARSE);
    assert_string_equal(d.msg, d2.msg);
    cr_trace_reader_free(r);
}

/* Every trace committed under traces/<machine>/ reads to its end without an
 * error (they are what validate and plots consume). */
/* A Chrome trace names "traceEvents" or "ph" near its start; other JSON
 * files under traces/ (e.g. nvidia-h200-x2/fused-measured.json, results for
 * commroof check --measured-json) do not. */
static bool looks_like_trace(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char buf[4097];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, "\"traceEvents\"") || strstr(buf, "\"ph\"");
}

static void test_committed_traces(void **state)
{
    (void)state;
    DIR *top = opendir("traces");
    assert_non_null(top);
    int files = 0;
    struct dirent *m;
    while ((m = readdir(top))) {
        if (m->d_name[0] == '.' || strcmp(m->d_name, "tracer") == 0 ||
            strcmp(m->d_name, "reader") == 0)
            continue;
        char dir[512];
        snprintf(dir, sizeof dir, "traces/%s", m->d_name);
        DIR *sub = opendir(dir);
        if (!sub)
            continue;
        struct dirent *f;
        while ((f = readdir(sub))) {
            size_t len = strlen(f->d_name);
            if (len < 6 || strcmp(f->d_name + len - 5, ".json") != 0)
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
            if (!looks_like_trace(path))
                continue; /* other JSON beside the traces (measured results) */
            cr_trace_summary *s = NULL;
            cr_diag d = {{0}};
            if (cr_trace_summarize(path, &s, &d) != CR_OK)
                fail_msg("%s", d.msg);
            assert_true(s->info.events > 0);
            cr_trace_summary_free(s);
            files++;
        }
        closedir(sub);
    }
    closedir(top);
    assert_true(files >= 4); /* at least our four in traces/h200-1/ */
}

/* The fuzz target's properties on its seed corpus and on the fixtures, so
 * every make test exercises them (the target aborts on a violation). */
static void test_fuzz_corpus_replay(void **state)
{
    (void)state;
    int n = cr_test_replay_dir("tests/fuzz/corpus/trace_reader", LLVMFuzzerTestOneInput, 1 << 16);
    n += cr_test_replay_dir("tests/fixtures/traces", LLVMFuzzerTestOneInput, 1 << 16);
    assert_true(n >= 8);
}

/* The fast path (traces/reader/json_subset.c) against jansson alone, on
 * events at the edges of its subset and cut at every byte: numbers jansson
 * types or rounds differently or rejects, escapes and UTF-8, repeated keys,
 * deep nesting, top-level fields of the wrong type, errors after lines the
 * fast path skipped. Each must read exactly as with jansson (same events,
 * args, status and message). */
static void test_fast_path_edges(void **state)
{
    (void)state;
    static const char *const events[] = {
        /* numbers: integers and reals the subset takes, and what it leaves */
        "{\"ph\":\"X\",\"ts\":0,\"dur\":-0,\"args\":{\"a\":0.0,\"b\":-0.0,\"c\":-0}}",
        "{\"ph\":\"X\",\"ts\":0.1,\"dur\":0.30000000000000004,\"args\":{\"a\":1."
        "7976931348623157}}",
        "{\"ph\":\"X\",\"ts\":9007199254740992.5,\"dur\":9007199254740993,\"args\":{}}",
        "{\"ph\":\"X\",\"ts\":123456789012345678,\"dur\":1234567890123456789}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":99999999999999999999}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":-99999999999999999999}",
        "{\"ph\":\"X\",\"ts\":1.0000000000000000000001,\"dur\":0."
        "00000000000000000000001}",
        "{\"ph\":\"X\",\"ts\":1e3,\"dur\":2E-3}",
        "{\"ph\":\"X\",\"ts\":1e999,\"dur\":1}",
        "{\"ph\":\"X\",\"ts\":01,\"dur\":1}",
        "{\"ph\":\"X\",\"ts\":1.,\"dur\":1}",
        "{\"ph\":\"X\",\"ts\":.5,\"dur\":1}",
        "{\"ph\":\"X\",\"ts\":-,\"dur\":1}",
        "{\"ph\":\"X\",\"ts\":1.5.3,\"dur\":1}",
        "{\"ph\":\"X\",\"ts\":12abc,\"dur\":1}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":-2.5}",
        /* pid and tid: integers, reals (truncated), strings, huge */
        "{\"ph\":\"i\",\"pid\":-3.7,\"tid\":1e30}",
        "{\"ph\":\"i\",\"pid\":\"main\",\"tid\":12.0}",
        "{\"ph\":\"i\",\"pid\":9.5e18,\"tid\":8999999999999999999}",
        /* strings: escapes, UTF-8 (good and bad), control bytes */
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"a\\\"b\\u00e9\"}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"caf\xc3\xa9\"}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"bad\xff\"}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"tab\there\"}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"nul\\u0000\"}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"del\x7f\"}",
        /* literals */
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"t\":true,\"f\":false,\"n\":null}"
        "}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"t\":tru}}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"t\":truex}}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"t\":nul}}",
        /* repeated keys: jansson keeps the last */
        "{\"ph\":\"X\",\"ph\":\"i\",\"name\":\"a\",\"name\":\"b\",\"ts\":1,\"ts\":2}",
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"device\":1},"
        "\"args\":{\"device\":2,\"device\":3}}",
        /* containers: empty, nested, trailing commas, missing colons */
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"o\":{},\"a\":[],\"x\":[[{\"y\":["
        "1,2.5]}]]}}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"a\":[1,]}}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"a\":1,}}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\" 1}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"a\" 1}}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{1:2}}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
        "[1]]]]]]]]]]"
        "]]]]]]"
        "]]]]]]]]]]]]]]]]]]]]]]]]}",
        "{}",
        "{\"ph\":\"\"}",
        "{\"ph\":1}",
        "{\"name\":\"no phase\"}",
        /* top-level fields of the wrong type */
        "{\"ph\":\"X\",\"ts\":\"1\",\"dur\":1}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":null}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":[]}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"cat\":7}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":[]}",
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":\"x\"}",
        /* the args checks of our categories, through the fast path */
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"grid\":[1,2]}"
        "}",
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"grid\":[1,2,-"
        "3]}}",
        "{\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,\"dur\":1,\"name\":\"Memcpy DtoH\","
        "\"args\":{\"device\":2,\"bytes\":4096.0}}",
        "{\"ph\":\"X\",\"cat\":\"nvtx\",\"ts\":1,\"dur\":1,\"args\":{\"payload\":{"
        "\"Message size [bytes]\":1048576},\"domain\":\"NCCL\"}}",
        "{\"ph\":\"M\",\"name\":\"commroof_device\",\"args\":{\"device\":0,\"name\":"
        "\"H200\"}}",
        "{\"ph\":\"M\",\"name\":\"commroof_stats\",\"args\":{\"dropped_records\":5}}",
        /* whitespace, with newlines inside the event, then something wrong */
        "\n{ \"ph\" :\t\"X\" ,\r\n \"ts\" : 1 ,\n \"dur\" : "
        "1\n}\n,\n{\"ph\":\"X\",\"ts\":1,\"dur\":x}",
        "{\"ph\":\"X\",\n\"ts\":1,\n\"dur\":1,\n\"args\":{\n\"a\":[\n1\n]\n}\n}\n,\n{"
        "\"ts\":1}",
        /* a key longer than the fast path's key buffer */
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{"
        "\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
        "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
        "kkkkkkkk"
        "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
        "kkkkkkkk"
        "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\":1}}",
        "1",
        "\"x\"",
        "[1,2]",
        /* args of one category refilled in place (fast_args), shapes that
         * change between events */
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"device\":0,"
        "\"grid\":[1,2,3],\"s\":\"ab\",\"r\":1.5,\"t\":true,\"n\":null,\"o\":{\"x\":[]}"
        "}},{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"device\":1,"
        "\"grid\":[4,5,6],\"s\":\"abc\",\"r\":2.5,\"t\":true,\"n\":null,\"o\":{\"x\":[]"
        "}}},{\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,\"dur\":1,\"args\":{\"device\":"
        "2,\"grid\":[7,8,9],\"s\":\"\",\"r\":-0.0,\"t\":true,\"n\":null,\"o\":{\"x\":[]"
        "}}}",
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":1}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":1.0}},{"
        "\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,\"dur\":1,\"args\":{\"a\":2}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":\"2\"}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":true}},{"
        "\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,\"dur\":1,\"args\":{\"a\":false}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":null}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":0}},{"
        "\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,\"dur\":1,\"args\":{\"a\":[]}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":{}}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":{\"b\":1}}"
        "}",
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"g\":[1,2,3]}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"g\":[1,2]}},{"
        "\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,\"dur\":1,\"args\":{\"g\":[1,2,3,4]}}"
        ",{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"g\":[]}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"g\":[1]}}",
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":1,\"b\":2}"
        "},{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"b\":2,\"a\":"
        "1}},{\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,\"dur\":1,\"args\":{\"a\":1,"
        "\"b\":2,\"c\":3}},{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,"
        "\"args\":{\"a\":1}},{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,"
        "\"args\":{}},{\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,\"dur\":1,\"args\":{"
        "\"a\":1}},{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"a\":"
        "1,\"a\":2}},{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{"
        "\"a\":3}}",
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"s\":\"x\","
        "\"v\":1}},{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"s\":"
        "\"a\\\"b\",\"v\":2}},{\"ph\":\"X\",\"cat\":\"memcpy\",\"ts\":1,\"dur\":1,"
        "\"args\":{\"s\":\"y\",\"v\":3}},{\"ph\":\"X\",\"cat\":\"kernel\","
        "\"ts\":1,\"dur\":1,\"args\":{\"s\":\"z\",\"v\":1e2}},{\"ph\":\"X\","
        "\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"s\":\"w\",\"v\":"
        "01}}",
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"v\":1}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"v\":2},\"pid\":"
        "\"p\"}",
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"v\":1}},{"
        "\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,\"args\":{\"v\":2},\"ts\":"
        "\"late\"}",
    };
    char text[8192];
    int cases = 0;
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        int n = snprintf(text, sizeof text,
                         "{\"traceEvents\":[\n{\"ph\":\"X\",\"ts\":5,\"dur\":1},%s\n],"
                         "\"metadata\":{\"format\":\"commroof-trace\",\"format_version\":1}}",
                         events[i]);
        assert_true(n > 0 && (size_t)n < sizeof text);
        for (size_t cut = 0; cut <= (size_t)n; cut++, cases++)
            if (!fuzz_fast_matches_jansson((const uint8_t *)text, cut))
                fail_msg("event %zu cut at %zu of %d bytes: the fast path differs from jansson", i,
                         cut, n);
    }
    assert_true(cases > 5000);
}

/* Every committed trace, whole, reads the same with and without the fast
 * path (test_fuzz_corpus_replay sees only their first 64 KiB). */
static void test_fast_path_committed_traces(void **state)
{
    (void)state;
    static const char *const dirs[] = {"traces/h200-1", "traces/nvidia-h200-x2",
                                       "tests/fixtures/traces"};
    int files = 0;
    for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
        DIR *dir = opendir(dirs[k]);
        assert_non_null(dir);
        struct dirent *e;
        while ((e = readdir(dir))) {
            size_t len = strlen(e->d_name);
            if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dirs[k], e->d_name);
            FILE *f = fopen(path, "rb");
            assert_non_null(f);
            assert_int_equal(fseek(f, 0, SEEK_END), 0);
            long size = ftell(f);
            assert_true(size >= 0);
            rewind(f);
            char *data = malloc((size_t)size + 1);
            assert_non_null(data);
            assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
            fclose(f);
            if (!fuzz_fast_matches_jansson((const uint8_t *)data, (size_t)size))
                fail_msg("%s: the fast path differs from jansson", path);
            free(data);
            files++;
        }
        closedir(dir);
    }
    assert_true(files >= 8);
}

/* Args the caller keeps (json_incref) stay as they were while later events
 * of the same shape are read: the fast path refills only args no one holds.
 * Expected values: the event text below. */
static void test_kept_args_unchanged(void **state)
{
    (void)state;
    const char *t = "{\"traceEvents\":["
                    "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":1,\"dur\":1,"
                    "\"args\":{\"device\":0,\"grid\":[1,1,1],\"s\":\"one\"}},"
                    "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":2,\"dur\":1,"
                    "\"args\":{\"device\":1,\"grid\":[2,2,2],\"s\":\"two\"}},"
                    "{\"ph\":\"X\",\"cat\":\"kernel\",\"ts\":3,\"dur\":1,"
                    "\"args\":{\"device\":2,\"grid\":[3,3,3],\"s\":\"three\"}}]}";
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open_mem(t, strlen(t), "t", &r), CR_OK);
    const cr_trace_event *e;
    assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
    json_t *kept1 = json_incref((json_t *)(uintptr_t)e->args); /* all of event 1's args */
    assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
    assert_int_equal(e->device, 1);
    assert_int_equal(e->grid[0], 2);
    json_t *grid2 = json_incref(json_object_get(e->args, "grid")); /* a part of event 2's */
    assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
    assert_int_equal(e->device, 2);
    assert_int_equal(e->grid[2], 3);
    assert_string_equal(json_string_value(json_object_get(e->args, "s")), "three");
    assert_int_equal(json_integer_value(json_object_get(kept1, "device")), 0);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(kept1, "grid"), 0)), 1);
    assert_string_equal(json_string_value(json_object_get(kept1, "s")), "one");
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(json_integer_value(json_array_get(grid2, i)), 2);
    assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
    assert_null(e);
    json_decref(kept1);
    json_decref(grid2);
    cr_trace_reader_free(r);
}

/* An event name with C0 control characters (JSON escapes: newline, CR,
 * ESC) reads as one line, each one a blank; the rest of the name (DEL
 * included), and a name without them, as written. */
static void test_control_chars_in_names(void **state)
{
    (void)state;
    static const char text[] =
        "{\"traceEvents\":["
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"cat\":\"kernel\","
        "\"name\":\"my\\r\\n# total\\u001b[31m\\u007fz\"},"
        "{\"ph\":\"X\",\"ts\":2,\"dur\":1,\"cat\":\"kernel\",\"name\":\"plain_kernel\"}]}";
    cr_trace_reader *r = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_trace_reader_open_mem(text, strlen(text), "t.json", &r), CR_OK);
    const cr_trace_event *e = NULL;
    assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
    assert_non_null(e);
    assert_string_equal(e->name, "my  # total [31m\x7fz");
    assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
    assert_non_null(e);
    assert_string_equal(e->name, "plain_kernel");
    cr_trace_reader_free(r);
}

/* A complete event without a name (or with "") reads as CR_TRACE_NO_NAME
 * on both paths, so that no table shows a blank where a kernel's or a
 * range's name goes; a metadata event keeps "". */
static void test_unnamed_events(void **state)
{
    (void)state;
    static const char text[] = "{\"traceEvents\":["
                               "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"cat\":\"kernel\"},"
                               "{\"ph\":\"X\",\"ts\":2,\"dur\":1,\"cat\":\"nvtx\",\"name\":\"\"},"
                               "{\"ph\":\"M\",\"pid\":1,\"tid\":0}]}";
    for (int fast = 0; fast < 2; fast++) {
        cr_trace_reader *r = NULL;
        cr_diag d = {{0}};
        assert_int_equal(cr_trace_reader_open_mem(text, strlen(text), "t.json", &r), CR_OK);
        cr_trace_reader_set_fast_path(r, fast);
        const cr_trace_event *e = NULL;
        for (int i = 0; i < 2; i++) {
            assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
            assert_non_null(e);
            assert_string_equal(e->name, CR_TRACE_NO_NAME);
        }
        assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
        assert_non_null(e);
        assert_int_equal(e->ph, 'M');
        assert_string_equal(e->name, "");
        cr_trace_reader_free(r);
    }
}

/* A CUDA call ("cat":"cuda_api") and the correlation ids that tie
 * activities to calls: read as written, -1 where absent; a graph's
 * activity's node (args.graph_node), 0 where absent, exactly beyond 2^53 */
static void test_cuda_calls(void **state)
{
    (void)state;
    static const char text[] =
        "{\"traceEvents\":["
        "{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"cat\":\"cuda_api\",\"name\":\"cudaLaunchKernel\","
        "\"pid\":9,\"tid\":7,\"args\":{\"correlation\":42}},"
        "{\"ph\":\"X\",\"ts\":2,\"dur\":1,\"cat\":\"kernel\",\"name\":\"k\","
        "\"args\":{\"device\":0,\"correlation\":42}},"
        "{\"ph\":\"X\",\"ts\":3,\"dur\":1,\"cat\":\"memset\",\"name\":\"memset\","
        "\"args\":{\"device\":0,\"bytes\":4}},"
        "{\"ph\":\"X\",\"ts\":4,\"dur\":1,\"cat\":\"kernel\",\"name\":\"g\","
        "\"args\":{\"device\":0,\"correlation\":43,\"graph\":2,\"graph_node\":9000000000}},"
        "{\"ph\":\"X\",\"ts\":5,\"dur\":1,\"cat\":\"kernel\",\"name\":\"g\","
        "\"args\":{\"device\":0,\"correlation\":44,\"graph_node\":9007199254740993}},"
        "{\"ph\":\"X\",\"ts\":6,\"dur\":1,\"cat\":\"memcpy\",\"name\":\"memcpy\","
        "\"args\":{\"device\":0,\"correlation\":45,\"graph_node\":9223372036854775807,"
        "\"kind\":\"d2d\",\"bytes\":4}}]}";
    static const struct {
        cr_trace_cat cat;
        long long corr, node;
    } want[] = {{CR_TRACE_API, 42, 0},
                {CR_TRACE_KERNEL, 42, 0},
                {CR_TRACE_MEMSET, -1, 0},
                {CR_TRACE_KERNEL, 43, 9000000000LL},
                /* as written, not through a double: 2^53 + 1, 2^63 - 1 */
                {CR_TRACE_KERNEL, 44, 9007199254740993LL},
                {CR_TRACE_MEMCPY, 45, 9223372036854775807LL}};
    for (int fast = 0; fast < 2; fast++) {
        cr_trace_reader *r = NULL;
        cr_diag d = {{0}};
        assert_int_equal(cr_trace_reader_open_mem(text, strlen(text), "t.json", &r), CR_OK);
        cr_trace_reader_set_fast_path(r, fast);
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            const cr_trace_event *e = NULL;
            assert_int_equal(cr_trace_reader_next(r, &e, &d), CR_OK);
            assert_non_null(e);
            assert_int_equal(e->cat, want[i].cat);
            assert_int_equal(e->correlation, want[i].corr);
            assert_int_equal(e->graph_node, want[i].node);
        }
        cr_trace_reader_free(r);
    }
    assert_string_equal(cr_trace_cat_name(CR_TRACE_API), "cuda_api");
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(cr_copy_kind_name(CR_COPY_P2P), "p2p");
    assert_string_equal(cr_copy_kind_name(CR_COPY_NONE), "none");
    assert_string_equal(cr_trace_cat_name(CR_TRACE_NVTX), "nvtx");
    assert_string_equal(cr_trace_cat_name(CR_TRACE_OTHER), "other");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimal_fixture),
        cmocka_unit_test(test_minimal_summary),
        cmocka_unit_test(test_h200_cuda_demo),
        cmocka_unit_test(test_h200_nvtx_payloads),
        cmocka_unit_test(test_nvtx_ext_payloads),
        cmocka_unit_test(test_h200_killed),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_other_tools),
        cmocka_unit_test(test_lenient_forms),
        cmocka_unit_test(test_recorded_kinds),
        cmocka_unit_test(test_launch_blocking),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_event_too_big),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_error_is_sticky),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_control_chars_in_names),
        cmocka_unit_test(test_unnamed_events),
        cmocka_unit_test(test_cuda_calls),
        cmocka_unit_test(test_committed_traces),
        cmocka_unit_test(test_fuzz_corpus_replay),
        cmocka_unit_test(test_h200_torchrun_killed),
        cmocka_unit_test(test_h200_cuda_demo_pci),
        cmocka_unit_test(test_h200_torch_guard_mode),
        cmocka_unit_test(test_fast_path_edges),
        cmocka_unit_test(test_fast_path_committed_traces),
        cmocka_unit_test(test_kept_args_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
