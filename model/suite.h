/* SPDX-License-Identifier: MIT */
/*
 * Suites: named lists of operator problems in XML (suites/NAME.xml, shipped
 * ones compiled into the library), as `commroof suite` and `commroof report`
 * run them.
 *
 *   <suite name="pkb" description="..." source="...">
 *     <problem name="gemm_rs" op="gemm_rs" category="tp" m="1024" n="1024"
 *              k="512" dtype="bf16" tp="8" note="..."/>
 *   </suite>
 *
 * A problem's attributes other than name, op, category, note and pkb are the
 * operator's parameters, as `commroof op OP --help` lists them; an attribute
 * the operator does not take is an error. Parsing never touches the
 * network, refuses entity declarations (external entities, expansion
 * bombs) and caps the input size; errors read "file:line: what is wrong,
 * what would be right". suites/suite.dtd documents the format.
 */
#ifndef CR_SUITE_H
#define CR_SUITE_H

#include <stddef.h>

#include "ops.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most ParallelKernelBench ids one problem may express. */
#define CR_SUITE_MAX_PKB 8

typedef struct {
    char *name;
    char *category; /* the problem's or, when absent, the operator's */
    char *note;     /* may be NULL */
    /* the ParallelKernelBench problem ids it expresses (attribute pkb="1" or
     * pkb="41,42"; an id on one problem of a suite at most); n_pkb 0 when
     * the problem expresses none */
    int pkb[CR_SUITE_MAX_PKB];
    int n_pkb;
    const cr_op_def *op;
    cr_op_params params;
    int line; /* where it was defined */
} cr_suite_problem;

typedef struct cr_suite {
    char *name;
    char *description; /* may be NULL */
    char *source;      /* may be NULL */
    char *origin;      /* file name used in messages */
    cr_suite_problem *problems;
    int n_problems;
} cr_suite;

/* Loads a suite from a buffer; origin names it in messages. On success *out
 * is a new suite (cr_suite_free); on failure *out is NULL and d says what
 * and where. Errors: CR_EPARSE (XML, unknown element or attribute, bad
 * value), CR_EINVAL (duplicate problem name, inconsistent parameters),
 * CR_ENOTFOUND (unknown operator), CR_ERANGE (too large), CR_ENOMEM. */
cr_status cr_suite_load_memory(const char *buf, size_t len, const char *origin, cr_suite **out,
                               cr_diag *d);

/* Same from a file (at most 4 MiB). Errors also CR_EIO, CR_ENOTFOUND. */
cr_status cr_suite_load_file(const char *path, cr_suite **out, cr_diag *d);

/* Opens a shipped suite by name ("pkb", "llm") or, when name_or_path holds
 * '/' or ends in ".xml", a file. Errors: CR_ENOTFOUND naming the shipped
 * suites when neither matches. */
cr_status cr_suite_open(const char *name_or_path, cr_suite **out, cr_diag *d);

/* Name of the i-th shipped suite, or NULL past the end (borrowed). */
const char *cr_suite_shipped_name(int i);

/* The problem of s whose pkb attribute names ParallelKernelBench problem id
 * (the leading number of its stem: 1 for "1_allreduce"), or NULL when none
 * does (borrowed from s). */
const cr_suite_problem *cr_suite_find_pkb(const cr_suite *s, int id);

/* Frees s. cr_suite_free(NULL) is a no-op. */
void cr_suite_free(cr_suite *s);

#ifdef __cplusplus
}
#endif

#endif
