/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by `commroof op`, `commroof check` and `commroof suite`:
 * operator parameters from the command line, and a result as JSON.
 */
#ifndef CR_CLI_OP_H
#define CR_CLI_OP_H

#include <jansson.h>
#include <stdio.h>

#include "ops.h"
#include "opts.h"
#include "topo.h"

/* If argv[*i] is a parameter of op ("--m 1024", "--m=1024" or "m=1024"),
 * stores it, advances *i past it and returns 1; returns 0 when argv[*i] is
 * not a parameter form; prints a usage error and returns -1 when the value
 * is bad, the parameter unknown to op, or given before (p->set, and
 * *order_given for "order", which the caller starts false). */
int cli_op_param_arg(const char *cmd, const cr_op_def *op, cr_op_params *p, bool *order_given,
                     int argc, char **argv, int *i);

/* The usage error (2, printed) for argument arg of op or check that is
 * neither an option of opts nor a parameter of op: "did you mean" the
 * nearest of both where one is near (cli_opts_nearest), as every other
 * command's parser says it. */
int cli_op_unknown_arg(const char *cmd, const cr_op_def *op, const cli_opt *opts, const char *arg);

/* "dtype=bf16 m=1024 ..." for every parameter op takes. */
void cli_op_params_text(const cr_op_def *op, const cr_op_params *p, char *buf, size_t size);

/* Prints op's parameters with their defaults and help lines. */
void cli_op_params_help(FILE *f, const cr_op_def *op);

/* The full result as a JSON object (new reference). */
json_t *cli_op_result_json(const cr_topo *t, const cr_op_def *op, const cr_op_params *p,
                           const cr_op_result *r);

/* Prints a JSON document on stdout and releases it; returns the exit code. */
int cli_op_print_json(const char *cmd, json_t *root);

#endif
