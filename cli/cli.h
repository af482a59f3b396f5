/* SPDX-License-Identifier: MIT */
/*
 * Command-line front end: one file per command family (cmd_*.c), shared
 * helpers here. Commands return the process exit status: 0 ok, 1 runtime
 * failure, 2 usage error, 3 impossible measurement (check). Every command
 * declares its options in one table and parses and documents them through
 * opts.h.
 */
#ifndef CR_CLI_H
#define CR_CLI_H

#include <stdbool.h>

#include <jansson.h>

#include "coll.h"
#include "dtype.h"
#include "status.h"
#include "topo.h"
#include "validate/validate.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_IMPOSSIBLE = 3 };

/* Command entry points: argv[0] is the command name ("topo"). */
int cli_cmd_topo(int argc, char **argv);
int cli_cmd_coll(int argc, char **argv);
int cli_cmd_op(int argc, char **argv);
int cli_cmd_suite(int argc, char **argv);
int cli_cmd_check(int argc, char **argv);
int cli_cmd_plot(int argc, char **argv);
int cli_cmd_report(int argc, char **argv);
int cli_cmd_trace(int argc, char **argv);
int cli_cmd_validate(int argc, char **argv);
/* `commroof validate --corpus DIR ...` (cmd_validate_corpus.c). */
int cli_validate_corpus(int argc, char **argv);
int cli_cmd_roofline(int argc, char **argv);
int cli_cmd_calibrate(int argc, char **argv);
int cli_cmd_sim(int argc, char **argv);

/* Prints "commroof CMD: message" and a hint line to stderr; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Checks a --nccl-algo (protocols false) or --nccl-proto list as NCCL
 * reads NCCL_ALGO / NCCL_PROTO (cr_nccl_select_check); NULL passes.
 * Returns 0, or the usage error (2) it has printed. */
int cli_check_nccl_select(const char *cmd, const char *list, bool protocols);

/* Parses --ranks-per-process (GPUs one host thread drives, nccl-tests -g)
 * into *out: a count of 1 or more. Returns 0, or the usage error (2) it has
 * printed. */
int cli_parse_ranks_per_process(const char *cmd, const char *text, int *out);

/* Prints "commroof CMD: message" to stderr; returns 1. */
int cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* v's text on stdout (no newline after it) as cr_json_dumps writes it
 * (json_dump.h: never a text with a part missing): 0, or -1 where memory
 * ran out or stdout refused the text. */
int cli_json_fputs(const json_t *v, size_t flags);

/* A library call's failure st with its message msg: a usage error (exit 2)
 * for an input given twice (CR_EDUPLICATE), else a runtime failure (exit 1). */
int cli_fail_status(const char *cmd, cr_status st, const char *msg);

/* Opens --topo's value (shipped name or file; NULL means the default).
 * Prints the diagnostic and returns NULL on failure; prints the note of
 * cli_note_topo_routing on success. */
cr_topo *cli_open_topo(const char *cmd, const char *name_or_path);

/* Prints a note on stderr where the topology joins two GPUs only through a
 * third over NVLink (cr_route_nvb_pair: a DGX-1's hybrid cube-mesh) and
 * does not set route.gpu_transit: NCCL relays such a pair through that GPU,
 * the model's routes send it through host memory. `where` names the
 * topology as the user gave it. */
void cli_note_topo_routing(const char *cmd, const cr_topo *t, const char *where);

/* Parses a message size as nccl-tests' -b/-e/-i take it: a number of bytes
 * with an optional K, M, G or T suffix (powers of 1024, any case), or a
 * commroof quantity with a unit ("4MB" = 4e6, "64MiB"). Returns 0, or -1
 * when s is not a whole number of bytes from 0 to 1PB (CR_COLL_MAX_BYTES,
 * suffix applied: 1.5K is 1536 bytes, 1.5 is none). */
int cli_parse_size(const char *s, double *out);

/* nccl-tests' name of a data type ("float", "half", "bfloat16", ...), the
 * type column of coll and sim tables. */
const char *cli_nccl_type_name(cr_dtype t);

/* The most sizes one sweep of coll or sim runs. */
#define CLI_MAX_SIZES 4096

/* The size after sz in a sweep of coll or sim: + step when step > 0, else
 * x factor rounded down to whole bytes and at least one byte more (a
 * factor such as 1.001 would otherwise stall). */
double cli_next_size(double sz, double factor, double step);

/* How many sizes a sweep from min to max has (cli_next_size), or limit + 1
 * when it has more. */
int cli_count_sizes(double min, double max, double factor, double step, int limit);

/* A collective's --dtype (NULL: *dt kept): the usage error (2), printed,
 * for a name that is no element type, listing NCCL's; 0 ok. tf32 and fp4
 * parse here and are refused by cli_check_coll_opts (cr_dtype_check_nccl). */
/* Splits list (spec's copy, modified) at commas into names[0..*n), at most
 * max: an empty name, a name twice and more than max are usage errors
 * naming opt and spec. Returns 0 or the usage error (2) it has printed. */
int cli_parse_topo_list(const char *cmd, const char *opt, char *list, const char *spec,
                        const char **names, int max, int *n);

int cli_parse_nccl_dtype(const char *cmd, const char *text, cr_dtype *dt);

/* The checks coll and sim make on one collective's options: an element
 * type NCCL has (cr_dtype_check_nccl: not tf32 or fp4), --root only for a
 * rooted collective.
 * Returns 0, or the usage error (2) it has printed. */
int cli_check_coll_opts(const char *cmd, cr_coll c, cr_dtype dt, bool root_given);

/* Whether the nccl-tests log `log`, whose rows are l->v[first .. l->n),
 * names another GPU than topology t has (cr_nccl_log_gpu_differs): the
 * model then predicts another machine than the one measured, so its
 * bounds and predictions say nothing about the one measured. As for
 * traces (cli_check_trace_gpus), a mismatch is an error unless allow
 * (validate's and report's --allow-gpu-mismatch: then a note on stderr);
 * calibrate, which would write constants fitted on one GPU into another's
 * topology, always fails. Returns CLI_OK or CLI_FAIL (the error printed). */
int cli_check_log_gpu(const char *cmd, const cr_topo *t, const char *log, const cr_vmeas_list *l,
                      size_t first, bool allow);

/* cli_check_log_gpu for each of the logs paths[0..n), read here (report,
 * whose parts read them later). */
int cli_check_log_files_gpus(const char *cmd, const cr_topo *t, const char *const *paths, int n,
                             bool allow);

/* The GPU models the traces read so far name (cr_validate_gpu_part): the
 * first one and where. */
typedef struct {
    const char *part;
    char where[256];
    bool mixed_said;
} cli_gpu_seen;

/* The GPU of each trace file whose measurements are l[first..) (read from
 * path) against topology t's GPU models, as nccl-tests logs are
 * (cli_check_log_gpu): a bound or a calibration of another GPU says nothing
 * about this one, so a mismatch is an error unless allow (validate's
 * --allow-gpu-mismatch; then a note on stderr). Traces of two GPU models
 * are said to be (an error too, unless allow or t holds both). Returns
 * CLI_OK or CLI_FAIL. */
int cli_check_trace_gpus(const char *cmd, const cr_topo *t, const char *path,
                         const cr_vmeas_list *l, size_t first, bool allow, cli_gpu_seen *gs);

/* The same rule for the GPU models g[0..n) trace files ran their
 * activities on (cr_roofline's gpus: roofline, whose traces need not hold
 * crbench cases). Returns CLI_OK or CLI_FAIL, the error printed. */
int cli_check_trace_gpu_list(const char *cmd, const cr_topo *t, const cr_vtrace_gpu *g, size_t n,
                             bool allow);

/* The same for every trace file of paths[0..n) (files or folders), read
 * for it (cr_validate_trace_gpus): report --trace, which checks before its
 * parts read the traces. Returns CLI_OK, or CLI_FAIL with the error printed
 * (a trace that cannot be read too). */
int cli_check_trace_files_gpus(const char *cmd, const cr_topo *t, const char *const *paths, int n,
                               bool allow);

/* The note for traces whose writer left out device activities
 * (ri->unrecorded, metadata.recorded): how many, which kinds, the first,
 * what that does to the figures and how to record them; "" when none. */
const char *cli_unrecorded_note(const cr_vread_info *ri, char *buf, size_t n);

/* Whether a and b name one existing file (one inode under two names). */
bool cli_same_file(const char *a, const char *b);

/* Whether writing to path writes where stdout goes (/dev/stdout, or the
 * file or pipe stdout is): then a --json document and that output would
 * mix on one stream. Not when stdout is /dev/null (nothing to mix). */
bool cli_is_stdout(const char *path);

/* Prints to o one "# nccl-tests FILE: N row(s) from line L: COLL (collective
 * from: ...), N ranks (from: ...)" line per table of the nccl-tests logs in
 * l: where each table's collective and rank count came from. */
void cli_print_log_tables(FILE *o, const cr_vmeas_list *l);

/* --coll beside nccl-tests logs (validate, calibrate). Given once, it names
 * the collective of every log that does not name its own (README); given
 * more than once, each names the log given last before it, one a log
 * (DESIGN.md: [--nccl-tests LOG [--coll C]]...), so that logs of several
 * collectives pasted without their "Collective test starting" lines go in
 * one run. */
typedef struct {
    const char **name; /* per --coll, its collective (cr_nccl_log_coll's) */
    int *after;        /* per --coll, how many logs were given before it */
    int n;             /* --coll options given */
} cli_log_colls;

/* Space for argc options; 0, or the failure (1) printed. */
int cli_log_colls_init(cli_log_colls *lc, const char *cmd, int argc);
void cli_log_colls_free(cli_log_colls *lc);
/* One --coll NAME, n_logs logs given before it. Returns 0, or the usage
 * error (2) printed for a name that is no collective. */
int cli_log_colls_add(cli_log_colls *lc, const char *cmd, const char *name, int n_logs);
/* Once all options are read: with several --coll, each must follow a log
 * of its own. Returns 0, or the usage error (2) printed. */
int cli_log_colls_check(const cli_log_colls *lc, const char *cmd);
/* The --coll of log i (NULL: none; the log or its file name tells). */
const char *cli_log_coll(const cli_log_colls *lc, int i);

/* Refuses a file given twice among paths[0..n) (the same file under two
 * names too, or a copy of it: its rows would count twice, and calibrate's
 * cross-check would see its own fit). Paths that do not exist yet pass. An
 * output that is one of them is refused where the options are read
 * (cli_opt.output). Returns 0, or the usage error (2) it has printed. */
int cli_check_distinct_inputs(const char *cmd, const char *what, const char *const *paths, int n);

/* True when stderr is a terminal (progress output goes there only then). */
bool cli_progress_enabled(void);

/* A time in microseconds as the tables print it: four digits ("0.3102",
 * "244.1"), whole microseconds from 10,000 on ("35580", not "3.558e+04"),
 * "-" where there is none (a schedule that cannot run). buf: 24 bytes. */
const char *cli_us_text(char *buf, size_t n, double us);

/* Text as one field of a text table, for awk and gnuplot: at most max
 * characters of s (0: as many as buf holds), blanks and tabs as '_' ("copy
 * engine" -> "copy_engine"); the JSON keeps the text as it is. */
const char *cli_field(char *buf, size_t n, const char *s, int max);

/* The header's note on what --algo / --proto forced ("" when neither). */
const char *cli_forced_note(cr_algo algo, cr_proto proto);

/* The note coll and sim print (a "# pred:" line, "note" in JSON) where a
 * forced --proto does not bind: NCCL runs alltoall, gather, scatter and
 * sendrecv as point-to-point transfers, which pick their own protocol
 * (cr_coll_p2p). NULL where no note applies (a custom kernel's mechanism
 * has no NCCL protocol to ignore). */
const char *cli_p2p_proto_note(cr_coll c, cr_proto proto, cr_mech mech);

#endif
