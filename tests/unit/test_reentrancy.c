/* SPDX-License-Identifier: MIT */
/*
 * The library's promise of no mutable global state (CONVENTIONS.md): a
 * harness may call it from several threads at once, one per topology or
 * per problem, and each gets what a lone call gives, bit for bit. Eight
 * threads run the same work (shipped topologies loaded and saved, every
 * collective at several sizes, every catalog operator, the shipped suites,
 * a flow-simulator scenario, nccl-tests logs read and validated, a
 * harness's measured JSON checked, NCCL topology dumps imported), each
 * starting at a different job so that different and equal inputs meet;
 * every job's digest (doubles as their bits, "%a") must equal the one a
 * single thread wrote first. make tsan runs this program under
 * ThreadSanitizer, which sees the races no digest shows.
 *
 * The process's locale is state the host program owns: one that calls
 * setlocale(LC_ALL, "") under de_DE (decimal comma) had every shipped
 * topology refused ("3.35TB/s" has an unknown unit ".35TB/s") and saved
 * "1,5GB/s" (QA audit of re-entrancy). The library reads and writes its
 * numbers in the C locale whatever the host set; test_locale_comma holds it
 * to that under a decimal-comma locale, built with localedef when none is
 * installed.
 *
 * test_shared_context_roots: threads evaluating on one context, which
 * keeps a memo of each root's latency search; test_shared_topology:
 * threads building their contexts and operators on one loaded topology.
 */
#include "cr_test.h"
#include "cr_test_locale.h"

#include <locale.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "coll.h"
#include "harness.h"
#include "json_items.h"
#include "nccl_import.h"
#include "ops.h"
#include "sbuf.h"
#include "scenario.h"
#include "suite.h"
#include "topo.h"
#include "topo_xml.h"
#include "units.h"
#include "validate/validate.h"

#define N_THREADS 8

/* A double as its bits: digests compare exactly. */
static void add_num(cr_sbuf *b, double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    cr_sbuf_add(b, " %016llx", (unsigned long long)u);
}

static void add_diag(cr_sbuf *b, cr_status st, const cr_diag *d)
{
    cr_sbuf_add(b, "\nst %d %s\n", (int)st, st ? d->msg : "");
}

/* Every collective at four sizes (bound and NCCL's choice) and every
 * catalog operator with its defaults, on a loaded topology. */
static void eval_on_topo(cr_sbuf *b, const cr_topo *t)
{
    cr_diag d = {{0}};
    cr_coll_ctx *ctx = NULL;
    cr_status st = cr_coll_ctx_new(t, NULL, &ctx, &d);
    add_diag(b, st, &d);
    static const double sizes[] = {8, 65536, 16777216, 1073741824};
    for (int c = 0; ctx && c < CR_COLL__COUNT; c++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            cr_coll_req rq = cr_coll_req_default((cr_coll)c, sizes[s]);
            cr_coll_result r;
            memset(&d, 0, sizeof d);
            st = cr_coll_eval(ctx, &rq, &r, &d);
            add_diag(b, st, &d);
            if (st)
                continue;
            add_num(b, r.bound.bound_s);
            add_num(b, r.bound.attainable_s);
            add_num(b, r.pred.pred_s);
            add_num(b, r.pred.wire_Bps);
            cr_sbuf_add(b, " %s %s %d %d %d %s", r.bound.binding, r.bound.binding_where,
                        (int)r.pred.algo, (int)r.pred.proto, r.pred.nchannels, r.pred.why);
        }
    cr_coll_ctx_free(ctx);
    const cr_op_def *op;
    for (int i = 0; (op = cr_op_at(i)); i++) {
        cr_op_params p;
        cr_op_result r;
        cr_op_params_defaults(op, &p);
        memset(&d, 0, sizeof d);
        st = cr_op_eval(t, op, &p, &r, &d);
        cr_sbuf_add(b, "\nop %s", cr_op_name(op));
        add_diag(b, st, &d);
        if (st)
            continue;
        add_num(b, r.bound_s);
        add_num(b, r.bound_cold_s);
        add_num(b, r.pred_s);
        cr_sbuf_add(b, " %s %s", r.binding, r.binding_cold);
    }
}

/* A shipped topology: its saved XML, then eval_on_topo. */
static void job_topo(cr_sbuf *b, const char *name)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    char *xml = NULL;
    size_t len = 0;
    cr_status st = cr_topo_open(name, &t, &d);
    add_diag(b, st, &d);
    if (st)
        return;
    st = cr_topo_xml_save_memory(t, &xml, &len, &d);
    add_diag(b, st, &d);
    if (xml)
        cr_sbuf_add(b, "%s", xml);
    free(xml);
    eval_on_topo(b, t);
    cr_topo_free(t);
}

/* Every shipped suite on one topology (cr_op_eval_suite). */
static void job_suites(cr_sbuf *b, const char *topo)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    cr_status st = cr_topo_open(topo, &t, &d);
    add_diag(b, st, &d);
    const char *name;
    for (int i = 0; t && (name = cr_suite_shipped_name(i)); i++) {
        cr_suite *s = NULL;
        cr_op_row *rows = NULL;
        int n = 0;
        memset(&d, 0, sizeof d);
        st = cr_suite_open(name, &s, &d);
        if (st == CR_OK)
            st = cr_op_eval_suite(t, s, &rows, &n, &d);
        cr_sbuf_add(b, "\nsuite %s", name);
        add_diag(b, st, &d);
        for (int r = 0; r < n; r++) {
            cr_sbuf_add(b, "\n%s %d %s %s", rows[r].name, (int)rows[r].status, rows[r].error,
                        rows[r].binding);
            add_num(b, rows[r].bound_us);
            add_num(b, rows[r].pred_us);
            add_num(b, rows[r].baseline_us);
        }
        free(rows);
        cr_suite_free(s);
    }
    cr_topo_free(t);
}

/* A scenario through the flow simulator on a loaded topology; job_sim on
 * four H100 nodes. */
static void sim_on_topo(cr_sbuf *b, const cr_topo *t, const char *path)
{
    cr_diag d = {{0}};
    cr_sim *s = NULL;
    cr_status st = cr_scenario_load_file(path, t, &s, &d);
    if (st == CR_OK)
        st = cr_sim_run(s, &d);
    add_diag(b, st, &d);
    if (st == CR_OK) {
        add_num(b, cr_sim_makespan_s(s));
        for (int i = 0; i < cr_sim_n_ops(s); i++) {
            cr_sim_op_result o = cr_sim_op_get(s, i);
            cr_sbuf_add(b, " %s", o.name);
            add_num(b, o.start_s);
            add_num(b, o.end_s);
        }
    }
    cr_sim_free(s);
}

static void job_sim(cr_sbuf *b, const char *path)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    cr_status st = cr_topo_open("h100-ib-4n", &t, &d);
    add_diag(b, st, &d);
    if (st == CR_OK)
        sim_on_topo(b, t, path);
    cr_topo_free(t);
}

/* An nccl-tests log read and every row validated on hgx-h100-8. */
static void job_nccl_tests(cr_sbuf *b, const char *path)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    cr_vmeas_list l;
    cr_nccl_log_opts o;
    memset(&l, 0, sizeof l);
    memset(&o, 0, sizeof o);
    cr_status st = cr_topo_open("hgx-h100-8", &t, &d);
    if (st == CR_OK)
        st = cr_validate_read_nccl_tests(path, &o, &l, &d);
    add_diag(b, st, &d);
    for (size_t i = 0; st == CR_OK && i < l.n; i++) {
        cr_validate_opts vo = {NULL, NULL};
        cr_vresult r;
        memset(&d, 0, sizeof d);
        cr_status e = cr_validate_eval(t, &l.v[i], &vo, &r, &d);
        cr_sbuf_add(b, "\n%s %s", l.v[i].label, l.v[i].source);
        add_num(b, l.v[i].measured_s);
        add_diag(b, e, &d);
        if (e == CR_OK) {
            add_num(b, r.bound_s);
            add_num(b, r.pred_s);
            add_num(b, r.error_pct);
            cr_sbuf_add(b, " %s %s %s", r.binding, r.impl, r.note);
        }
    }
    cr_vmeas_list_release(&l);
    cr_topo_free(t);
}

/* A harness's measured results, as check reads them. */
static void job_check(cr_sbuf *b, const char *path)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    cr_json_items *r = NULL;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    cr_status st = cr_topo_open("hgx-h100-8", &t, &d);
    if (st == CR_OK)
        st = cr_json_items_open(f, path, "results", &r);
    add_diag(b, st, &d);
    json_t *e = NULL;
    while (st == CR_OK && (st = cr_json_items_next(r, &e, &d)) == CR_OK && e) {
        size_t idx = cr_json_items_count(r) - 1;
        cr_harness_result hr;
        const cr_op_def *op = NULL;
        cr_op_params p;
        cr_op_result res;
        cr_diag ed = {{0}};
        cr_status es = cr_harness_result_read(e, idx, CR_HARNESS_NEED_OP, &hr, &ed);
        if (es == CR_OK)
            es = cr_harness_result_op(&hr, idx, &op, &p, &ed);
        if (es == CR_OK)
            es = cr_op_eval(t, op, &p, &res, &ed);
        add_diag(b, es, &ed);
        if (es == CR_OK) {
            add_num(b, hr.measured_s);
            add_num(b, res.bound_s);
            add_num(b, res.pred_s);
        }
        json_decref(e);
    }
    add_diag(b, st, &d);
    cr_json_items_free(r);
    fclose(f);
    cr_topo_free(t);
}

/* An NCCL topology dump imported and saved. */
static void job_import(cr_sbuf *b, const char *path)
{
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    char *xml = NULL;
    size_t len = 0;
    cr_status st = cr_nccl_import_file(path, &t, &d);
    if (st == CR_OK)
        st = cr_topo_xml_save_memory(t, &xml, &len, &d);
    add_diag(b, st, &d);
    if (xml)
        cr_sbuf_add(b, "%s", xml);
    free(xml);
    cr_topo_free(t);
}

typedef struct {
    void (*fn)(cr_sbuf *b, const char *arg);
    const char *arg;
} job;

static const job jobs[] = {
    {job_topo, "hgx-h100-8"},
    {job_topo, "dgx-a100-8"},
    {job_topo, "mi300x-8"},
    {job_topo, "l40s-pcie-8"},
    {job_topo, "h100-ib-4n"},
    {job_topo, "gb200-nvl72"},
    {job_suites, "hgx-h100-8"},
    {job_sim, "tests/fixtures/scenarios/tp-dp-overlap.xml"},
    {job_sim, "tests/fixtures/scenarios/moe-hot.xml"},
    {job_sim, "tests/fixtures/scenarios/chain-after.xml"},
    {job_nccl_tests, "tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log"},
    {job_nccl_tests, "tests/fixtures/nccl-tests/h100-8-1proc-all_gather_perf.log"},
    {job_nccl_tests, "tests/fixtures/nccl-tests/dgxc-h100-8-all_reduce.json"},
    {job_check, "tests/fixtures/check/bulk_ok.json"},
    {job_check, "tests/fixtures/check/bulk_error.json"},
    {job_import, "tests/fixtures/nccl/hgx-h200-baremetal.xml"},
    {job_import, "tests/fixtures/nccl/real-rccl-mi300x-8.xml"},
    {job_import, "tests/fixtures/nccl/gb200-2tray-mnnvl.xml"},
};
#define N_JOBS ((int)(sizeof jobs / sizeof jobs[0]))

static char *run_job(int j)
{
    cr_sbuf b = {0};
    jobs[j].fn(&b, jobs[j].arg);
    assert_false(b.oom);
    return b.p;
}

static char *reference[N_JOBS];

typedef struct {
    int first; /* the job this thread starts with */
    pthread_barrier_t *start;
    char *got[N_JOBS];
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    pthread_barrier_wait(w->start);
    for (int k = 0; k < N_JOBS; k++) {
        int j = (w->first + k) % N_JOBS;
        cr_sbuf b = {0};
        jobs[j].fn(&b, jobs[j].arg);
        w->got[j] = b.p;
    }
    return NULL;
}

/* Eight threads at once; thread i starts at job 2i, so some run the same
 * job together and others different ones. */
static void test_threads_agree(void **state)
{
    (void)state;
    for (int j = 0; j < N_JOBS; j++) {
        reference[j] = run_job(j);
        assert_non_null(reference[j]);
    }
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, N_THREADS), 0);
    pthread_t th[N_THREADS];
    worker *w = calloc(N_THREADS, sizeof *w);
    assert_non_null(w);
    for (int i = 0; i < N_THREADS; i++) {
        w[i].first = (2 * i) % N_JOBS;
        w[i].start = &start;
        assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < N_THREADS; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    pthread_barrier_destroy(&start);
    int bad = 0;
    for (int i = 0; i < N_THREADS; i++)
        for (int j = 0; j < N_JOBS; j++) {
            if (!w[i].got[j] || strcmp(w[i].got[j], reference[j]) != 0) {
                print_error("thread %d, job %d (%s): differs from the single-threaded run\n", i, j,
                            jobs[j].arg);
                bad++;
            }
            free(w[i].got[j]);
        }
    free(w);
    assert_int_equal(bad, 0);
}

/* One context, many threads (coll.h: threads may evaluate on one context
 * at once): every rooted collective from every root of h100-ib-4n, each
 * thread walking the roots in its own order, so that the first evaluation
 * from a root, which searches its latencies and keeps them in the cuts'
 * memo (bound.c root_eccentricity_s), meets others reading or writing the
 * same entry. Each thread's bounds must equal a lone evaluation's on a
 * fresh context; make tsan sees any unsynchronised access. */
typedef struct {
    const cr_coll_ctx *ctx;
    int n, first;
    pthread_barrier_t *start;
    double *bound_s; /* [coll][root] flattened: 4 rooted collectives x n */
} root_worker;

static const cr_coll rooted_colls[] = {CR_COLL_BROADCAST, CR_COLL_REDUCE, CR_COLL_GATHER,
                                       CR_COLL_SCATTER};
#define N_ROOTED ((int)(sizeof rooted_colls / sizeof rooted_colls[0]))

static void eval_roots(const cr_coll_ctx *ctx, int n, int first, double *bound_s)
{
    for (int k = 0; k < n; k++) {
        int root = (first + k * 7) % n; /* 7 is prime to 32: every root once */
        for (int c = 0; c < N_ROOTED; c++) {
            cr_coll_req rq = cr_coll_req_default(rooted_colls[c], 8);
            rq.root = root;
            cr_coll_result r;
            cr_diag d = {{0}};
            bound_s[c * n + root] = cr_coll_eval(ctx, &rq, &r, &d) == CR_OK ? r.bound.bound_s : -1;
        }
    }
}

static void *work_roots(void *arg)
{
    root_worker *w = arg;
    pthread_barrier_wait(w->start);
    eval_roots(w->ctx, w->n, w->first, w->bound_s);
    return NULL;
}

static void test_shared_context_roots(void **state)
{
    (void)state;
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    assert_int_equal(cr_topo_open("h100-ib-4n", &t, &d), CR_OK);
    int n = t->n_gpus;
    assert_int_equal(n % 7 != 0, 1);
    cr_coll_ctx *lone = NULL, *shared = NULL;
    assert_int_equal(cr_coll_ctx_new(t, NULL, &lone, &d), CR_OK);
    assert_int_equal(cr_coll_ctx_new(t, NULL, &shared, &d), CR_OK);
    double *want = malloc((size_t)(N_ROOTED * n) * sizeof *want);
    assert_non_null(want);
    eval_roots(lone, n, 0, want);
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, N_THREADS), 0);
    pthread_t th[N_THREADS];
    root_worker w[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        w[i] = (root_worker){shared, n, (3 * i) % n, &start, NULL};
        w[i].bound_s = malloc((size_t)(N_ROOTED * n) * sizeof *w[i].bound_s);
        assert_non_null(w[i].bound_s);
        assert_int_equal(pthread_create(&th[i], NULL, work_roots, &w[i]), 0);
    }
    for (int i = 0; i < N_THREADS; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    pthread_barrier_destroy(&start);
    int bad = 0;
    for (int i = 0; i < N_THREADS; i++) {
        for (int k = 0; k < N_ROOTED * n; k++)
            if (!(want[k] > 0) || memcmp(&w[i].bound_s[k], &want[k], sizeof want[k]) != 0) {
                print_error("thread %d, %s from root %d: %a, alone %a\n", i,
                            cr_coll_name(rooted_colls[k / n]), k % n, w[i].bound_s[k], want[k]);
                bad++;
            }
        free(w[i].bound_s);
    }
    free(want);
    cr_coll_ctx_free(shared);
    cr_coll_ctx_free(lone);
    cr_topo_free(t);
    assert_int_equal(bad, 0);
}

/* One loaded topology, many threads: each thread builds its own contexts
 * on it and evaluates every collective and operator (eval_on_topo) and simulates a
 * scenario, as a harness with one thread
 * per problem does; the topology must be read only, and each thread's digest a lone run's. */
typedef struct {
    const cr_topo *t;
    pthread_barrier_t *start;
    char *got;
} topo_worker;

static void *work_topo(void *arg)
{
    topo_worker *w = arg;
    cr_sbuf b = {0};
    pthread_barrier_wait(w->start);
    eval_on_topo(&b, w->t);
    sim_on_topo(&b, w->t, "tests/fixtures/scenarios/moe-hot.xml");
    w->got = b.p;
    return NULL;
}

static void test_shared_topology(void **state)
{
    (void)state;
    cr_diag d = {{0}};
    cr_topo *t = NULL;
    assert_int_equal(cr_topo_open("h100-ib-4n", &t, &d), CR_OK);
    cr_sbuf want = {0};
    eval_on_topo(&want, t);
    sim_on_topo(&want, t, "tests/fixtures/scenarios/moe-hot.xml");
    assert_false(want.oom);
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, N_THREADS), 0);
    pthread_t th[N_THREADS];
    topo_worker w[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        w[i] = (topo_worker){t, &start, NULL};
        assert_int_equal(pthread_create(&th[i], NULL, work_topo, &w[i]), 0);
    }
    for (int i = 0; i < N_THREADS; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    pthread_barrier_destroy(&start);
    int bad = 0;
    for (int i = 0; i < N_THREADS; i++) {
        if (!w[i].got || strcmp(w[i].got, want.p) != 0) {
            print_error("thread %d on the shared topology differs from a lone run\n", i);
            bad++;
        }
        free(w[i].got);
    }
    cr_sbuf_release(&want);
    cr_topo_free(t);
    assert_int_equal(bad, 0);
}

static void test_locale_comma(void **state)
{
    (void)state;
    char dir[64] = "";
    const char *loc = cr_test_comma_locale(dir, sizeof dir);
    /* numbers in: units, topologies, nccl-tests logs */
    double v = 0;
    cr_diag d = {{0}};
    assert_int_equal(cr_units_parse("1.5GB/s", CR_UNIT_BANDWIDTH, &v, &d), CR_OK);
    assert_true(v == 1.5e9);
    /* every job as in the C locale: topologies load and save with '.',
     * logs read, the figures bit for bit */
    int bad = 0;
    for (int j = 0; j < N_JOBS; j++) {
        char *got = run_job(j);
        if (!got || !reference[j] || strcmp(got, reference[j]) != 0) {
            print_error("job %d (%s) under %s differs from the C locale's\n", j, jobs[j].arg, loc);
            const char *g = got ? got : "", *r = reference[j] ? reference[j] : "";
            size_t k = 0;
            while (g[k] && g[k] == r[k])
                k++;
            print_error("  at byte %zu: got \"%.80s\"\n  want \"%.80s\"\n", k, g + k, r + k);
            bad++;
        }
        free(got);
    }
    /* numbers out: a message and a unit formatted */
    char buf[64];
    cr_units_format(1.5e9, CR_UNIT_BANDWIDTH, buf, sizeof buf);
    assert_null(strchr(buf, ','));
    setlocale(LC_ALL, "C");
    cr_test_locale_drop(dir);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_agree), /* first: it writes the references */
        cmocka_unit_test(test_locale_comma),
        cmocka_unit_test(test_shared_context_roots),
        cmocka_unit_test(test_shared_topology),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    for (int j = 0; j < N_JOBS; j++)
        free(reference[j]);
    return rc;
}
