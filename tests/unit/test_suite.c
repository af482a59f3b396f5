/* SPDX-License-Identifier: MIT */
/*
 * Suite XML: the shipped suites load, validate against suites/suite.dtd and
 * cover every ParallelKernelBench category; a custom suite's parameters
 * arrive as written; every bad input fixture (tests/fixtures/suites) gets
 * its exact file:line message; size limits hold.
 */
#include "cr_test.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/valid.h>

#include "ops.h"
#include "suite.h"
#include "topo_xml.h"

/* The fuzz target itself: the corpus replay below calls it. */
#include "tests/fuzz/fuzz_suite.c"

#define FIX "tests/fixtures/suites/"

static void test_shipped_load(void **state)
{
    (void)state;
    int found = 0;
    for (int i = 0; cr_suite_shipped_name(i); i++) {
        cr_suite *s = NULL;
        cr_diag d = {{0}};
        if (cr_suite_open(cr_suite_shipped_name(i), &s, &d) != CR_OK)
            fail_msg("%s", d.msg);
        assert_string_equal(s->name, cr_suite_shipped_name(i));
        assert_true(s->n_problems >= 1);
        /* the two the issue names, each a real suite */
        if (strcmp(s->name, "pkb") == 0 || strcmp(s->name, "llm") == 0) {
            assert_true(s->n_problems >= 20);
            found++;
        }
        cr_suite_free(s);
    }
    assert_int_equal(found, 2);
}

/* pkb covers every category of shared/reference/pkb-taxonomy.md at the
 * benchmark's defaults. */
static void test_pkb_categories(void **state)
{
    (void)state;
    static const char *const cats[] = {"collective", "tp",    "dp", "ep",
                                       "cp",         "vocab", "pp", "other"};
    cr_suite *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_suite_open("pkb", &s, &d), CR_OK);
    for (size_t c = 0; c < sizeof cats / sizeof cats[0]; c++) {
        int found = 0;
        for (int i = 0; i < s->n_problems; i++)
            found += strcmp(s->problems[i].category, cats[c]) == 0;
        if (!found)
            fail_msg("pkb has no %s problem", cats[c]);
    }
    /* The benchmark's defaults (utils/input_output_tensors.py of
     * togethercomputer/ParallelKernelBench at 3cc0f9b, base shape M = N =
     * 1024): each rank's GEMM is 1024 x 1024 x 512 except gemm_rs's (PKB 16:
     * A_local 1024 x 64, B_local 64 x 1024, lines 380-387) and the decode
     * GEMV (PKB 46: 1 token x hidden 1024 x 1024 vocabulary rows a rank,
     * lines 881-896). In global m n k: ag_gemm (PKB 11, 12: each rank's own
     * B 512 x 1024, C 1024 x 1024) has n = tp x 1024; gemm_ar (PKB 13: each
     * rank 1024 x 512 x 1024) has k = tp x 512; gemm_rs k = 512; gemv_ar
     * m = 1, n = 1024, k = tp x 1024. Every problem in bf16, every
     * multi-GPU problem on 8 ranks. */
    for (int i = 0; i < s->n_problems; i++) {
        const cr_suite_problem *p = &s->problems[i];
        const char *op = cr_op_name(p->op);
        const double *v = p->params.v;
        double want[3] = {0, 0, 0}, tp = v[CR_OPP_TP];
        if (strcmp(op, "gemm") == 0 || strcmp(op, "gemm_rs") == 0)
            want[0] = 1024, want[1] = 1024, want[2] = 512;
        else if (strcmp(op, "ag_gemm") == 0)
            want[0] = 1024, want[1] = tp * 1024, want[2] = 512;
        else if (strcmp(op, "gemm_ar") == 0)
            want[0] = 1024, want[1] = 1024, want[2] = tp * 512;
        else if (strcmp(op, "gemv_ar") == 0)
            want[0] = 1, want[1] = 1024, want[2] = tp * 1024;
        if (want[0] != 0 &&
            (v[CR_OPP_M] != want[0] || v[CR_OPP_N] != want[1] || v[CR_OPP_K] != want[2]))
            fail_msg("pkb %s: m n k = %g %g %g, not PKB's %g %g %g", p->name, v[CR_OPP_M],
                     v[CR_OPP_N], v[CR_OPP_K], want[0], want[1], want[2]);
        /* PKB 1-8: every rank holds one 1024 x 1024 bf16 tensor (2 MiB;
         * input_output_tensors.py lines 299-314), so in nccl-tests sizes the
         * allreduce, broadcast and reduce are 2 MiB and the collectives whose
         * size counts all ranks' parts (allgather, gather, scatter,
         * reducescatter, alltoall: one rank's 8 x 2 MiB) 16 MiB; until this
         * test the suite gave them all 2 MiB. */
        if (strcmp(op, "coll") == 0) {
            static const char *const whole[] = {"allgather", "gather", "scatter", "reducescatter",
                                                "alltoall"};
            static const char *const one[] = {"allreduce", "broadcast", "reduce"};
            for (size_t j = 0; j < sizeof whole / sizeof whole[0]; j++)
                if (strcmp(p->name, whole[j]) == 0 && v[CR_OPP_BYTES] != 16 * 1048576.0)
                    fail_msg("pkb %s: %g bytes, not 8 ranks x 2 MiB", p->name, v[CR_OPP_BYTES]);
            for (size_t j = 0; j < sizeof one / sizeof one[0]; j++)
                if (strcmp(p->name, one[j]) == 0 && v[CR_OPP_BYTES] != 2 * 1048576.0)
                    fail_msg("pkb %s: %g bytes, not 2 MiB", p->name, v[CR_OPP_BYTES]);
        }
        if (cr_op_uses(p->op, CR_OPP_DTYPE) && (int)v[CR_OPP_DTYPE] != CR_DT_BF16)
            fail_msg("pkb %s: dtype is not bf16", p->name);
        if (strcmp(p->category, "single") != 0 && cr_op_uses(p->op, CR_OPP_TP)) {
            double gpus = v[CR_OPP_TP] * v[CR_OPP_CP] * v[CR_OPP_EP] * v[CR_OPP_DP] * v[CR_OPP_PP];
            if (gpus != 8)
                fail_msg("pkb %s: %g ranks, not PKB's 8", p->name, gpus);
        }
    }
    /* and every operator of the catalog appears */
    for (int k = 0; cr_op_at(k); k++) {
        int found = 0;
        for (int i = 0; i < s->n_problems; i++)
            found += s->problems[i].op == cr_op_at(k);
        if (!found)
            fail_msg("pkb has no %s problem", cr_op_name(cr_op_at(k)));
    }
    cr_suite_free(s);
}

/* llm covers what the issue names: Llama-3-70B layers at TP 8 (width 8192,
 * 64 heads, 8 KV heads of 128, FFN 28672, vocabulary 128256), context
 * parallel at 8k to 128k tokens, expert parallel over 8 to 64 ranks with
 * Mixtral (8 experts, top-2) and DeepSeek-V3 style (256 experts, top-8)
 * layers, data parallel over 1,024 nodes of 8 GPUs. */
/* Every pkb problem whose note names a PKB id carries it as pkb="N" (the
 * map check --pkb-logs uses), and the ids the header lists as not
 * expressible map to nothing. */
static void test_pkb_ids(void **state)
{
    (void)state;
    cr_suite *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_suite_open("pkb", &s, &d), CR_OK);
    int with_id = 0;
    for (int i = 0; i < s->n_problems; i++) {
        const cr_suite_problem *p = &s->problems[i];
        int note_id = 0;
        if (p->note && sscanf(p->note, "PKB %d", &note_id) == 1) {
            assert_int_equal(p->n_pkb, 1);
            assert_int_equal(p->pkb[0], note_id);
            assert_ptr_equal(cr_suite_find_pkb(s, note_id), p);
            with_id++;
        } else {
            assert_int_equal(p->n_pkb, 0);
        }
    }
    /* 35 problems name a PKB id in suites/pkb.xml (1-8, 10-13, 16, 27-29,
     * 31, 33-42, 46, 47, 49, 51, 54, 65, 67, 87) */
    assert_int_equal(with_id, 35);
    assert_string_equal(cr_suite_find_pkb(s, 13)->name, "tp_gemm_allreduce");
    static const int unexpressed[] = {9, 14, 15, 17, 18, 30, 43, 44, 45, 48, 50, 73, 86, 88};
    for (size_t i = 0; i < sizeof unexpressed / sizeof unexpressed[0]; i++)
        assert_null(cr_suite_find_pkb(s, unexpressed[i]));
    assert_null(cr_suite_find_pkb(NULL, 1));
    cr_suite_free(s);
}

static void test_llm_coverage(void **state)
{
    (void)state;
    cr_suite *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_suite_open("llm", &s, &d), CR_OK);
    double seq_min = 1e30, seq_max = 0, ep_min = 1e30, ep_max = 0;
    int tp8 = 0, mixtral = 0, deepseek = 0, dp1024 = 0;
    for (int i = 0; i < s->n_problems; i++) {
        const cr_suite_problem *p = &s->problems[i];
        const double *v = p->params.v;
        const char *op = cr_op_name(p->op);
        if (strcmp(p->category, "tp") == 0 && v[CR_OPP_TP] == 8)
            tp8++;
        if (strcmp(op, "ring_attn") == 0 || strcmp(op, "ulysses") == 0) {
            seq_min = fmin(seq_min, v[CR_OPP_SEQ]), seq_max = fmax(seq_max, v[CR_OPP_SEQ]);
            assert_int_equal((int)v[CR_OPP_HEADS], 64);
            assert_int_equal((int)v[CR_OPP_KV_HEADS], 8);
            assert_int_equal((int)v[CR_OPP_HEAD_DIM], 128);
        }
        if (strcmp(op, "moe") == 0) {
            ep_min = fmin(ep_min, v[CR_OPP_EP]), ep_max = fmax(ep_max, v[CR_OPP_EP]);
            mixtral += v[CR_OPP_EXPERTS] == 8 && v[CR_OPP_TOPK] == 2 && v[CR_OPP_HIDDEN] == 4096;
            deepseek += v[CR_OPP_EXPERTS] == 256 && v[CR_OPP_TOPK] == 8 && v[CR_OPP_HIDDEN] == 7168;
        }
        if (strcmp(p->category, "dp") == 0 && v[CR_OPP_DP] == 1024 && v[CR_OPP_TP] == 8)
            dp1024++;
    }
    assert_true(tp8 >= 6);
    assert_int_equal((int)seq_min, 8192);
    assert_int_equal((int)seq_max, 131072);
    assert_int_equal((int)ep_min, 8);
    assert_int_equal((int)ep_max, 64);
    assert_true(mixtral >= 1 && deepseek >= 1);
    assert_true(dp1024 >= 3); /* DDP, ZeRO, FSDP */
    /* all of it runs on the 1,024-node cluster, none skipped */
    cr_topo *t = NULL;
    assert_int_equal(cr_topo_open("h100-ib-1024n", &t, &d), CR_OK);
    cr_op_row *rows = NULL;
    int n = 0;
    assert_int_equal(cr_op_eval_suite(t, s, &rows, &n, &d), CR_OK);
    for (int i = 0; i < n; i++)
        if (rows[i].status != CR_OK)
            fail_msg("llm %s on h100-ib-1024n: %s", rows[i].name, rows[i].error);
    free(rows);
    cr_topo_free(t);
    cr_suite_free(s);
}

/* The shipped files follow the DTD (the loader checks more than a DTD). */
static void test_shipped_dtd(void **state)
{
    (void)state;
    xmlDtdPtr dtd = xmlParseDTD(NULL, (const xmlChar *)"suites/suite.dtd");
    assert_non_null(dtd);
    /* every shipped suite (h200x2.xml was left out) */
    static const char *const files[] = {"suites/pkb.xml", "suites/llm.xml", "suites/h200x2.xml",
                                        FIX "good.xml"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        xmlDocPtr doc = xmlReadFile(files[i], NULL, XML_PARSE_NONET);
        assert_non_null(doc);
        xmlValidCtxtPtr vc = xmlNewValidCtxt();
        vc->error = NULL;
        vc->warning = NULL;
        if (xmlValidateDtd(vc, doc, dtd) != 1)
            fail_msg("%s does not follow suites/suite.dtd", files[i]);
        xmlFreeValidCtxt(vc);
        xmlFreeDoc(doc);
    }
    /* every operator parameter is an attribute the DTD declares: the
     * loader took backward="yes" (attention) while the DTD had no
     * "backward", so a suite using it failed validation in an editor */
    for (int k = 0; k < CR_OPP__COUNT; k++) {
        const char *name = cr_opp_name((cr_opp)k);
        assert_non_null(name);
        if (!xmlGetDtdAttrDesc(dtd, (const xmlChar *)"problem", (const xmlChar *)name))
            fail_msg("suites/suite.dtd: <problem> does not declare parameter \"%s\"", name);
    }
    assert_non_null(xmlGetDtdAttrDesc(dtd, (const xmlChar *)"problem", (const xmlChar *)"order"));
    xmlFreeDtd(dtd);
}

static void test_custom_suite(void **state)
{
    (void)state;
    cr_suite *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_suite_open(FIX "good.xml", &s, &d), CR_OK);
    assert_string_equal(s->name, "mine");
    assert_string_equal(s->description, "a custom suite");
    assert_int_equal(s->n_problems, 3);
    const cr_suite_problem *p = &s->problems[1];
    assert_string_equal(p->name, "rs_dp");
    assert_string_equal(p->category, "custom");
    assert_string_equal(p->note, "TP across the DP pair");
    assert_int_equal(p->line, 5);
    assert_int_equal((int)p->params.v[CR_OPP_TP], 4);
    assert_int_equal((int)p->params.v[CR_OPP_DP], 2);
    assert_int_equal(p->params.order[0], CR_OPP_DP); /* dp innermost */
    assert_int_equal(p->params.order[1], CR_OPP_TP);
    /* the default category is the operator's */
    assert_string_equal(s->problems[0].category, "tp");
    /* group="dp" moves the default 8 ranks from tp to dp */
    p = &s->problems[2];
    assert_int_equal((int)p->params.v[CR_OPP_TP], 1);
    assert_int_equal((int)p->params.v[CR_OPP_DP], 8);
    cr_suite_free(s);
}

static void expect(const char *file, cr_status want, const char *msg)
{
    cr_suite *s = NULL;
    cr_diag d = {{0}};
    cr_status st = cr_suite_load_file(file, &s, &d);
    if (st != want)
        fail_msg("%s: status %d (%s), expected %d", file, st, d.msg, want);
    assert_null(s);
    assert_string_equal(d.msg, msg);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    /* no name at all: refused, as cr_topo_open refuses it (QA audit of
     * 2026-12-06: it crashed) */
    cr_suite *none = NULL;
    cr_diag d0 = {{0}};
    assert_int_equal(cr_suite_open(NULL, &none, &d0), CR_EINVAL);
    assert_null(none);
    expect(FIX "bad_unknown_element.xml", CR_EPARSE,
           FIX "bad_unknown_element.xml:4: unknown element <case> in <suite>: expected <problem>");
    expect(FIX "bad_unknown_param.xml", CR_ENOTFOUND,
           FIX "bad_unknown_param.xml:3: problem \"a\": operator gemm has no parameter \"heads\" "
               "(it takes: dtype, m, n, k, batch)");
    expect(
        FIX "bad_unknown_op.xml", CR_ENOTFOUND,
        FIX
        "bad_unknown_op.xml:3: unknown operator \"gemm_rx\" (operators: gemm memcpy "
        "elementwise attention coll ag_gemm gemm_rs gemm_ar sp_norm ring_attn ulysses moe ddp fsdp "
        "zero pp_sendrecv vocab_ce gemv_ar embedding halo alltoallv)");
    expect(FIX "bad_duplicate.xml", CR_EINVAL,
           FIX "bad_duplicate.xml:4: problem \"a\" is defined twice (first on line 3): give each "
               "problem a unique name");
    expect(FIX "bad_value.xml", CR_EPARSE,
           FIX "bad_value.xml:3: problem \"a\": m = \"12x\" is not a count (e.g. 4096, 128k = "
               "131072)");
    expect(FIX "bad_divisible.xml", CR_EINVAL,
           FIX "bad_divisible.xml:3: problem \"a\": k = 1001 must be a multiple of tp = 8");
    expect(FIX "bad_range.xml", CR_ERANGE,
           FIX "bad_range.xml:3: problem \"a\": skew = 12 exceeds what top-2 routing can put "
               "on one rank: give 1 (balanced) to min(ep, experts / topk) = min(8, 8 / 2) = 4 "
               "(every token sending the rank all the copies it can)");
    expect(FIX "bad_entity.xml", CR_EPARSE,
           FIX "bad_entity.xml:3: entity \"sz\" is refused: suite files may not declare entities "
               "(commroof never reads external content, and this stops expansion bombs); write "
               "the text out in full");
    expect(FIX "bad_xxe.xml", CR_EPARSE,
           FIX "bad_xxe.xml:3: external entity \"x\" is refused: suite files may not declare "
               "entities (commroof never reads external content, and this stops expansion "
               "bombs); write the text out in full");
    expect(FIX "bad_bomb.xml", CR_EPARSE,
           FIX "bad_bomb.xml:3: entity \"a\" is refused: suite files may not declare entities "
               "(commroof never reads external content, and this stops expansion bombs); write "
               "the text out in full");
    expect(FIX "bad_empty.xml", CR_EPARSE,
           FIX "bad_empty.xml:1: the file is empty: a suite file holds one <suite name=\"...\"> "
               "element (see suites/suite.dtd)");
    expect(FIX "bad_truncated.xml", CR_EPARSE,
           FIX "bad_truncated.xml:4: the file ends inside <suite> (opened on line 2): it looks "
               "truncated; close every element");
    expect(FIX "bad_root.xml", CR_EPARSE,
           FIX "bad_root.xml:2: root element is <topology>, expected <suite> (this is a topology "
               "file: pass it to --topo)");
    expect(FIX "bad_no_problems.xml", CR_EINVAL,
           FIX "bad_no_problems.xml:2: suite \"bad\" has no <problem>: add at least one");
    expect(FIX "bad_missing_op.xml", CR_EPARSE,
           FIX "bad_missing_op.xml:3: <problem name=\"a\"> needs an attribute \"op\" (an "
               "operator: commroof op --help lists them)");
    expect(FIX "bad_suite_attr.xml", CR_EPARSE,
           FIX "bad_suite_attr.xml:2: unknown attribute \"color\" on <suite>: expected one of: "
               "name, description, source, version");
    expect(FIX "bad_child.xml", CR_EPARSE,
           FIX "bad_child.xml:3: <problem> holds no elements, found <param>: parameters are "
               "attributes");
    /* a PKB id maps to one problem (check --pkb-logs): a second is refused
     * where it is written; the stem is not an id */
    expect(FIX "bad_pkb_duplicate.xml", CR_EINVAL,
           FIX "bad_pkb_duplicate.xml:4: problem \"b\": PKB 1 is already expressed by problem "
               "\"a\" (line 3): give each id to one problem");
    expect(FIX "bad_pkb_value.xml", CR_EPARSE,
           FIX "bad_pkb_value.xml:3: problem \"a\": pkb=\"1_allreduce\" is not a list of "
               "ParallelKernelBench problem ids (whole numbers from 1 to 1000000, e.g. "
               "pkb=\"13\" or pkb=\"41,42\")");
    expect(FIX "missing.xml", CR_ENOTFOUND,
           FIX "missing.xml: cannot open: No such file or directory");
}

static void test_limits(void **state)
{
    (void)state;
    /* 5 MiB of whitespace inside a valid suite: over the 4 MiB cap */
    size_t n = 5u << 20;
    char *buf = malloc(n + 1);
    assert_non_null(buf);
    memset(buf, ' ', n);
    const char *head = "<suite name=\"x\"><problem name=\"a\" op=\"gemm\"/>";
    memcpy(buf, head, strlen(head));
    memcpy(buf + n - 8, "</suite>", 8);
    buf[n] = '\0';
    cr_suite *s = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_suite_load_memory(buf, n, "big.xml", &s, &d), CR_ERANGE);
    assert_string_equal(d.msg,
                        "big.xml: input is 5242880 bytes, more than the 4 MiB limit for a suite "
                        "file");
    /* a 5 KiB note: over the 4 KiB attribute cap */
    char *note = malloc(8192);
    assert_non_null(note);
    memset(note, 'x', 5000);
    note[5000] = '\0';
    snprintf(buf, n, "<suite name=\"x\">\n<problem name=\"a\" op=\"gemm\" note=\"%s\"/></suite>",
             note);
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_suite_load_memory(buf, strlen(buf), "long.xml", &s, &d), CR_ERANGE);
    assert_string_equal(d.msg, "long.xml:2: attribute \"note\" is longer than 4096 bytes");
    free(note);
    free(buf);
    /* an unknown shipped name lists the shipped ones */
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_suite_open("pkbb", &s, &d), CR_ENOTFOUND);
    assert_non_null(strstr(d.msg, "no shipped suite named \"pkbb\" (shipped: "));
    assert_non_null(strstr(d.msg, "llm, pkb"));
    assert_non_null(strstr(d.msg, "); for a file give a path (with a '/' or ending in .xml)"));
}

/* Replays the fuzz corpus (seeds, fixtures and what libFuzzer found, e.g.
 * the use-after-free of a bad version attribute) through the target. */
static void test_fuzz_replay(void **state)
{
    (void)state;
    assert_true(cr_test_replay_dir("tests/fuzz/corpus/suite", LLVMFuzzerTestOneInput, 1 << 20) >=
                10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_load), cmocka_unit_test(test_pkb_categories),
        cmocka_unit_test(test_pkb_ids),      cmocka_unit_test(test_llm_coverage),
        cmocka_unit_test(test_shipped_dtd),  cmocka_unit_test(test_custom_suite),
        cmocka_unit_test(test_bad_inputs),   cmocka_unit_test(test_limits),
        cmocka_unit_test(test_fuzz_replay),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    xmlCleanupParser();
    return rc;
}
