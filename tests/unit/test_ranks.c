/* SPDX-License-Identifier: MIT */
/*
 * validate: combining the traces of a one-process-per-GPU run
 * (cr_validate_merge_ranks, ranks.c). Synthetic two-rank traces whose clocks differ
 * by a known offset; every expected time is derived by hand below.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cr_test.h"
#include "cr_test_trace.h"
#include "validate/validate.h"

/* The end of a file with metadata: rank, world size, clock base (ns). */
#define END_MD(rank, base)                                                                         \
    "{\"ph\":\"M\",\"pid\":199,\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}\n],"               \
    "\"metadata\":{\"format\":\"commroof-trace\",\"format_version\":1,\"hostname\":\"h\","         \
    "\"rank\":" #rank ",\"world_size\":2,\"ts_base_ns\":" #base "}}\n"
/* The same without rank and world size (the rank then comes from the name). */
#define END_BASE(base)                                                                             \
    "{\"ph\":\"M\",\"pid\":199,\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}\n],"               \
    "\"metadata\":{\"format\":\"commroof-trace\",\"format_version\":1,\"hostname\":\"h\","         \
    "\"ts_base_ns\":" #base "}}\n"
/* An allreduce of 3 iterations, one kernel per iteration and rank. Rank 1's
 * clock base is 50 us later than rank 0's: its absolute times are its own
 * plus 50 us.
 *   rank 0 (absolute): [100, 130] [200, 215] [300, 340]
 *   rank 1 (own):      [ 70,  82] [140, 168] [255, 290]
 *   rank 1 (absolute): [120, 132] [190, 218] [305, 340]
 * Merged, last end - last start per iteration:
 *   132 - 120 = 12, 218 - 200 = 18, 340 - 305 = 35: median 18 us;
 * the alternative, last end - first start:
 *   132 - 100 = 32, 218 - 190 = 28, 340 - 300 = 40: median 32 us.
 * Alone: rank 0 30, 15, 40 -> 30 us; rank 1 12, 28, 35 -> 28 us.
 * Without the clock offset the merge would give 130 - 100 = 30,
 * 215 - 200 = 15, 340 - 300 = 40 -> 30 us (rank 0's own): the offset
 * matters. Rank 0 also has an allgather (2 iterations, [500, 510],
 * [520, 524]: 10 and 4 -> median 7 us) that rank 1 lacks: it stays per
 * rank, with a note. */
#define AR0 "cr:nccl coll=allreduce bytes=4096 nranks=2 rank=0 iters=3"
#define AR1 "cr:nccl coll=allreduce bytes=4096 nranks=2 rank=1 iters=3"
static const char rank0[] = HDR R(AR0, 90, 300) K(0, 100, 30) K(0, 200, 15) K(0, 300, 40)
    R("cr:nccl coll=allgather bytes=4096 nranks=2 rank=0 iters=2", 490, 50) K(0, 500, 10)
        K(0, 520, 4) END_MD(0, 1000000000000000000);
static const char rank1[] =
    HDR R(AR1, 60, 250) K(0, 70, 12) K(0, 140, 28) K(0, 255, 35) END_MD(1, 1000000000000050000);

static void read_all(char **paths, int n, cr_vmeas_list *l)
{
    for (int i = 0; i < n; i++) {
        cr_diag d = {{0}};
        int skipped = -1;
        assert_int_equal(cr_validate_read_trace(paths[i], l, &skipped, NULL, 0, &d), CR_OK);
        assert_int_equal(skipped, 0);
    }
}

static void test_merge_two_ranks(void **state)
{
    (void)state;
    char *p[2] = {cr_test_write_tmp(rank0, ".json"), cr_test_write_tmp(rank1, ".json")};
    cr_vmeas_list l = {0};
    read_all(p, 2, &l);
    assert_int_equal(l.n, 3);
    /* Before merging, each rank's own figure. */
    assert_int_equal(l.v[0].rank, 0);
    assert_int_equal(l.v[0].world_size, 2);
    assert_close(l.v[0].measured_s, 30e-6, 1e-9, 0);
    assert_close(l.v[1].measured_s, 7e-6, 1e-9, 0);
    assert_int_equal(l.v[2].rank, 1);
    assert_close(l.v[2].measured_s, 28e-6, 1e-9, 0);

    cr_vmerge_info mi;
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_merge_ranks(&l, &mi, &d), CR_OK);
    assert_int_equal(mi.merged, 1);
    assert_int_equal(mi.ranks_max, 2);
    assert_int_equal(mi.rank_alone, 1);
    assert_int_equal(l.n, 2);
    const cr_vmeas *ar = &l.v[0], *ag = &l.v[1];
    assert_int_equal(ar->ranks_merged, 2);
    assert_int_equal(ar->rank, -1);
    assert_int_equal(ar->samples, 3);
    assert_int_equal(ar->activities, 6);
    assert_close(ar->measured_s, 18e-6, 1e-9, 0);
    assert_close(ar->first_start_s, 32e-6, 1e-9, 0);
    assert_string_equal(ar->note, "");
    assert_non_null(strchr(ar->source, '+'));
    /* The allgather of rank 0 alone keeps its figure and says why. */
    assert_int_equal(ag->rank, 0);
    assert_close(ag->measured_s, 7e-6, 1e-9, 0);
    assert_non_null(strstr(ag->note, "rank 0 of a 2-rank job alone"));

    /* One file alone: nothing merged, every case noted. */
    cr_vmeas_list one = {0};
    read_all(p, 1, &one);
    assert_int_equal(cr_validate_merge_ranks(&one, &mi, &d), CR_OK);
    assert_int_equal(mi.merged, 0);
    assert_int_equal(mi.rank_alone, 2);
    assert_int_equal(one.n, 2);
    assert_close(one.v[0].measured_s, 30e-6, 1e-9, 0);
    assert_non_null(strstr(one.v[0].note, "alone"));

    /* The same rank twice (the same file given twice) is not merged with
     * itself: the two copies are the first and second run of each case. */
    cr_vmeas_list twice = {0};
    char *pp[2] = {p[0], p[0]};
    read_all(pp, 2, &twice);
    assert_int_equal(cr_validate_merge_ranks(&twice, &mi, &d), CR_OK);
    assert_int_equal(mi.merged, 0);
    assert_int_equal(twice.n, 4);

    cr_vmeas_list_release(&l);
    cr_vmeas_list_release(&one);
    cr_vmeas_list_release(&twice);
    for (int i = 0; i < 2; i++) {
        unlink(p[i]);
        free(p[i]);
    }
}

/* Shares that cannot be one collective: rank 0 of one run (clock base
 * 1e18 ns, iterations [100, 130] [200, 215] [300, 340] us) and rank 1 of a
 * run an hour later (base 1e18 + 3.6e12 ns, its own [70, 82] [140, 168]
 * [255, 290]). On the aligned clock rank 0's iterations end at 340 us and
 * rank 1's start at 3.6e9 + 70 us: no overlap. Merged, last end - last
 * start would be rank 1's own spans (12, 28, 35 -> 28 us), labelled as the
 * combined case; the merge refuses instead. So does a rank 1 whose trace
 * has no ts_base_ns (0: its times land 1e9 s before rank 0's). */
static void test_merge_not_one_run(void **state)
{
    (void)state;
    static const char late1[] =
        HDR R(AR1, 60, 250) K(0, 70, 12) K(0, 140, 28) K(0, 255, 35) END_MD(1, 1000003600000000000);
    static const char nobase1[] = HDR R(AR1, 60, 250) K(0, 70, 12) K(0, 140, 28)
        K(0, 255,
          35) "{\"ph\":\"M\",\"pid\":199,\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}\n],"
              "\"metadata\":{\"format\":\"commroof-trace\",\"format_version\":1,\"hostname\":\"h\","
              "\"rank\":1,\"world_size\":2}}\n";
    const char *other[2] = {late1, nobase1};
    const char *want[2] = {"different runs", "no metadata.ts_base_ns"};
    for (int v = 0; v < 2; v++) {
        char *p[2] = {cr_test_write_tmp(rank0, ".json"), cr_test_write_tmp(other[v], ".json")};
        cr_vmeas_list l = {0};
        read_all(p, 2, &l);
        cr_vmerge_info mi = {0};
        cr_diag d = {{0}};
        assert_int_equal(cr_validate_merge_ranks(&l, &mi, &d), CR_EINVAL);
        assert_non_null(strstr(d.msg, "not one collective"));
        assert_non_null(strstr(d.msg, want[v]));
        cr_vmeas_list_release(&l);
        for (int i = 0; i < 2; i++) {
            unlink(p[i]);
            free(p[i]);
        }
    }
}

/* Ranks from the file names (no rank in the metadata; the case's nranks
 * gives the job size), equal clock bases, 4 iterations:
 *   rank 0: [10, 20] [30, 36] [50, 60] [70, 71]
 *   rank 1: [12, 21] [29, 40] [55, 58] [80, 90]
 * last end - last start: 21 - 12 = 9, 40 - 30 = 10, 60 - 55 = 5,
 * 90 - 80 = 10: median (9 + 10) / 2 = 9.5 us. */
static void test_merge_rank_from_name(void **state)
{
    (void)state;
    const char *t0 = HDR R("cr:p2p mech=ce bytes=4096 nranks=2 iters=4", 0, 100) K(0, 10, 10)
        K(0, 30, 6) K(0, 50, 10) K(0, 70, 1) END_BASE(5000);
    const char *t1 = HDR R("cr:p2p mech=ce bytes=4096 nranks=2 iters=4", 0, 100) K(0, 12, 9)
        K(0, 29, 11) K(0, 55, 3) K(0, 80, 10) END_BASE(5000);
    char *a = cr_test_write_tmp(t0, ".rank0.json"), *b = cr_test_write_tmp(t1, "-rank1.json");
    char *p[2] = {b, a};
    cr_vmeas_list l = {0};
    read_all(p, 2, &l);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.v[0].rank, 1);
    assert_int_equal(l.v[1].rank, 0);
    cr_vmerge_info mi;
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_merge_ranks(&l, &mi, &d), CR_OK);
    assert_int_equal(mi.merged, 1);
    assert_int_equal(l.n, 1);
    assert_close(l.v[0].measured_s, 9.5e-6, 1e-9, 0);
    cr_vmeas_list_release(&l);
    unlink(a);
    unlink(b);
    free(a);
    free(b);
}

/* One process driving two GPUs (rank -1, two devices) is neither merged
 * nor noted: it is timed as merged ranks are, from the last GPU's start to
 * the last end (the first start kept in first_start_s). */
static void test_single_process_untouched(void **state)
{
    (void)state;
    const char *t = HDR R("cr:nccl coll=allreduce bytes=4096 nranks=2 rank=-1 iters=2", 0, 100)
        K(0, 10, 5) K(1, 11, 6) K(0, 30, 5) K(1, 32, 5) END_BASE(0);
    char *p[1] = {cr_test_write_tmp(t, ".json")};
    cr_vmeas_list l = {0};
    read_all(p, 1, &l);
    cr_vmerge_info mi;
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_merge_ranks(&l, &mi, &d), CR_OK);
    assert_int_equal(mi.merged + mi.rank_alone, 0);
    assert_int_equal(l.n, 1);
    /* last start: 17 - max(10, 11) = 6, 37 - max(30, 32) = 5, median 5.5;
     * first start: 17 - 10 = 7, 37 - 30 = 7 */
    assert_close(l.v[0].measured_s, 5.5e-6, 1e-9, 0);
    assert_close(l.v[0].first_start_s, 7e-6, 1e-9, 0);
    assert_string_equal(l.v[0].note, "");
    cr_vmeas_list_release(&l);
    unlink(p[0]);
    free(p[0]);
}

/* The two ranks above as .json.gz (validate reads them directly): the same
 * merged 18 us; a truncated .gz is an error that names the file. */
static char *write_gz(const char *text, const char *suffix)
{
    char *path = cr_test_write_tmp("", suffix);
    gzFile g = gzopen(path, "wb");
    assert_non_null(g);
    assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
    assert_int_equal(gzclose(g), Z_OK);
    return path;
}

static void test_merge_gz(void **state)
{
    (void)state;
    char *p[2] = {write_gz(rank0, ".json.gz"), write_gz(rank1, ".json.gz")};
    cr_vmeas_list l = {0};
    read_all(p, 2, &l);
    cr_vmerge_info mi;
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_merge_ranks(&l, &mi, &d), CR_OK);
    assert_int_equal(mi.merged, 1);
    assert_close(l.v[0].measured_s, 18e-6, 1e-9, 0);
    cr_vmeas_list_release(&l);
    /* cut the first file's compressed stream in half */
    FILE *f = fopen(p[0], "rb");
    assert_non_null(f);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    f = fopen(p[0], "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n / 2, f), n / 2);
    fclose(f);
    cr_vmeas_list bad = {0};
    assert_int_equal(cr_validate_read_trace(p[0], &bad, NULL, NULL, 0, &d), CR_EIO);
    assert_non_null(strstr(d.msg, p[0]));
    assert_non_null(strstr(d.msg, "not a valid gzip file"));
    cr_vmeas_list_release(&bad);
    for (int i = 0; i < 2; i++) {
        unlink(p[i]);
        free(p[i]);
    }
}

/* Appends a one-iteration share of case name (rank from the case when it
 * has rank=, else -1) on host, timed [start, end] us on one clock. */
static void push_share(cr_vmeas_list *l, const char *name, const char *host, double start,
                       double end)
{
    l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
    l->iter_s = realloc(l->iter_s, (l->iter_n + 2) * sizeof *l->iter_s);
    assert_non_null(l->v);
    assert_non_null(l->iter_s);
    l->cap = l->n + 1;
    l->iter_cap = l->iter_n + 2;
    cr_vmeas *m = &l->v[l->n++];
    memset(m, 0, sizeof *m);
    cr_diag d = {{0}};
    assert_int_equal(cr_vcase_parse(name, &m->c, &d), CR_OK);
    double rk = -1;
    cr_vcase_num(&m->c, "rank", &rk, NULL);
    m->rank = (int)rk;
    m->world_size = 2;
    m->devices = 1;
    m->activities = 1;
    m->n_iter = 1;
    m->samples = 1;
    m->iter_off = l->iter_n;
    l->iter_s[l->iter_n++] = start * 1e-6;
    l->iter_s[l->iter_n++] = end * 1e-6;
    m->measured_s = (end - start) * 1e-6;
    snprintf(m->host, sizeof m->host, "%s", host);
    snprintf(m->source, sizeof m->source, "m%zu", l->n - 1);
}

/* Which shares merge, with the cases interleaved: the k-th run of a case on
 * one rank pairs with the k-th on the other, whatever lies between; another
 * host, a lone rank and a row without a rank stay apart. The pairing
 * (0 with 3, 2 with 5) is by the rule of validate.h, the times by hand:
 *   0 + 3: [10, 20] and [12, 25]: last start 12, last end 25: 13 us,
 *          from the first start 10: 15 us;
 *   2 + 5: [100, 104] and [101, 110]: 9 us, 10 us.
 * Pairing by list order instead (0 with 5) would give 110 - 101 = 9 for
 * the first. */
static void test_merge_interleaved(void **state)
{
    (void)state;
    const char *a0 = "cr:nccl coll=allreduce bytes=64 nranks=2 rank=0 iters=1";
    const char *a1 = "cr:nccl coll=allreduce bytes=64 nranks=2 rank=1 iters=1";
    const char *b0 = "cr:nccl coll=allgather bytes=64 nranks=2 rank=0 iters=1";
    const char *b1 = "cr:nccl coll=allgather bytes=64 nranks=2 rank=1 iters=1";
    cr_vmeas_list l = {0};
    push_share(&l, a0, "h", 10, 20);   /* 0: A, rank 0, first run */
    push_share(&l, b0, "h", 30, 31);   /* 1: B, rank 0 */
    push_share(&l, a0, "h", 100, 104); /* 2: A, rank 0, second run */
    push_share(&l, a1, "h", 12, 25);   /* 3: A, rank 1, first run */
    push_share(&l, b1, "g", 40, 42);   /* 4: B, rank 1, another host */
    push_share(&l, a1, "h", 101, 110); /* 5: A, rank 1, second run */
    push_share(&l, "cr:nccl coll=allreduce bytes=64 nranks=2 iters=1", "h", 0, 7); /* 6 */
    cr_vmerge_info mi;
    cr_diag d = {{0}};
    assert_int_equal(cr_validate_merge_ranks(&l, &mi, &d), CR_OK);
    assert_int_equal(mi.merged, 2);
    assert_int_equal(mi.ranks_max, 2);
    assert_int_equal(mi.rank_alone, 2);
    assert_int_equal(l.n, 5);
    /* list order kept, the merged-in shares dropped */
    assert_string_equal(l.v[0].source, "m0+m3");
    assert_close(l.v[0].measured_s, 13e-6, 1e-9, 0);
    assert_close(l.v[0].first_start_s, 15e-6, 1e-9, 0);
    assert_int_equal(l.v[0].ranks_merged, 2);
    assert_int_equal(l.v[0].rank, -1);
    assert_string_equal(l.v[1].source, "m1");
    assert_non_null(strstr(l.v[1].note, "rank 0 of a 2-rank job alone"));
    assert_string_equal(l.v[2].source, "m2+m5");
    assert_close(l.v[2].measured_s, 9e-6, 1e-9, 0);
    assert_close(l.v[2].first_start_s, 10e-6, 1e-9, 0);
    assert_string_equal(l.v[3].source, "m4");
    assert_non_null(strstr(l.v[3].note, "rank 1 of a 2-rank job alone"));
    assert_string_equal(l.v[4].source, "m6");
    assert_string_equal(l.v[4].note, "");
    assert_close(l.v[4].measured_s, 7e-6, 1e-9, 0);
    cr_vmeas_list_release(&l);
}

static void test_rank_from_name(void **state)
{
    (void)state;
    assert_int_equal(cr_validate_rank_from_name("d/commroof-trace.vm.12.rank3.json"), 3);
    assert_int_equal(cr_validate_rank_from_name("torchrun-nccl-rank12.json.gz"), 12);
    assert_int_equal(cr_validate_rank_from_name("x_rank0"), 0);
    assert_int_equal(cr_validate_rank_from_name("frank1.json"), -1);
    assert_int_equal(cr_validate_rank_from_name("a.rank.json"), -1);
    assert_int_equal(cr_validate_rank_from_name("a.rank2x.json"), -1);
    assert_int_equal(cr_validate_rank_from_name("rank4/trace.json"), -1);
    assert_int_equal(cr_validate_rank_from_name("trace.json"), -1);
}

/* Rank 0's trace in two files (rank0 above, twice): before, each was
 * "rank 0 of a 2-rank job alone"; now the duplicate rank is an error
 * naming both files. A rank beyond the job (rank 5 of 2) was merged with
 * rank 0 silently; now an error naming the file and the job's ranks. */
static void test_merge_bad_ranks(void **state)
{
    (void)state;
    static const char rank5[] =
        HDR R("cr:nccl coll=allreduce bytes=4096 nranks=2 rank=5 iters=3", 60, 250) K(0, 70, 12)
            K(0, 140, 28) K(0, 255, 35) END_MD(5, 1000000000000050000);
    char *p[3] = {cr_test_write_tmp(rank0, ".json"), cr_test_write_tmp(rank0, ".json"),
                  cr_test_write_tmp(rank5, ".json")};
    cr_vmeas_list l = {0};
    cr_diag d = {{0}};
    read_all(p, 2, &l);
    assert_int_equal(cr_validate_merge_ranks(&l, NULL, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "are both rank 0 of a 2-rank job"));
    const char *b0 = strrchr(p[0], '/'), *b1 = strrchr(p[1], '/');
    assert_non_null(strstr(d.msg, b0 + 1));
    assert_non_null(strstr(d.msg, b1 + 1));
    cr_vmeas_list_release(&l);
    char *q[2] = {p[0], p[2]};
    memset(&d, 0, sizeof d);
    read_all(q, 2, &l);
    assert_int_equal(cr_validate_merge_ranks(&l, NULL, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "rank 5 of a 2-rank job"));
    assert_non_null(strstr(d.msg, "its ranks are 0 to 1"));
    cr_vmeas_list_release(&l);
    for (int i = 0; i < 3; i++) {
        unlink(p[i]);
        free(p[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_two_ranks),
        cmocka_unit_test(test_merge_not_one_run),
        cmocka_unit_test(test_merge_bad_ranks),
        cmocka_unit_test(test_merge_rank_from_name),
        cmocka_unit_test(test_single_process_untouched),
        cmocka_unit_test(test_merge_gz),
        cmocka_unit_test(test_merge_interleaved),
        cmocka_unit_test(test_rank_from_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
