/* SPDX-License-Identifier: MIT */
/*
 * roofline: what roofline.c shares with roofline_aten.c, its table of
 * PyTorch operators. Nothing outside validate/ includes this.
 */
#ifndef CR_ROOFLINE_PRIV_H
#define CR_ROOFLINE_PRIV_H

#include <stdbool.h>

#include "roofline.h"
#include "traces/reader/trace_reader.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* What input_op_ids show of a call's inputs (index: its sizes entry, n of
 * them; the arrays are the call's own, cr_rf_inputs_free() releases them;
 * read them through cr_rf_in_*(), which answer "nothing known" past n). */
typedef struct {
    bool has_ids;
    int n;
    /* key[i]: inputs with the same key >= 0 are one tensor (the same
     * producer's output, through views and in-place ops); -1 none known.
     * A key is the index of the first input of its tensor. */
    int *key;
    /* fresh[i]: the producer is in the trace and makes new storage (not a
     * view, not in place), so the input holds distinct elements; false:
     * it may be an expanded (stride-0) view of less */
    bool *fresh;
    /* elems[i]: the input's storage holds at most this many elements (an
     * expanded view: its source's); its numel where nothing shows less */
    double *elems;
} cr_rf_inputs;

static inline bool cr_rf_in_fresh(const cr_rf_inputs *in, int i)
{
    return i < in->n && in->fresh[i];
}

static inline int cr_rf_in_key(const cr_rf_inputs *in, int i)
{
    return i < in->n ? in->key[i] : -1;
}

/* At most the numel of input i of pn (what the sizes say). */
static inline double cr_rf_in_elems(const cr_rf_inputs *in, const cr_rf_name *pn, int i)
{
    return i < in->n ? in->elems[i] : cr_rf_numel(pn, i);
}

void cr_rf_inputs_free(cr_rf_inputs *in);

/* The producer of an input: the range of op op_id in the consumer's
 * process, parsed into *out; false when the trace has none. */
typedef bool (*cr_rf_producer_fn)(void *ctx, long long op_id, cr_rf_name *out);

/* Fills *in for the call pn from its input_op_ids, following each input
 * through the view and in-place ops that made it (producer() finds them)
 * to the op that made its storage. Without ids: has_ids false, every key
 * -1, nothing fresh, elems the numel. CR_ENOMEM leaves *in empty (n 0). */
cr_status cr_rf_resolve_inputs(const cr_rf_name *pn, cr_rf_producer_fn producer, void *ctx,
                               cr_rf_inputs *in);

/* What a call's GPU activities show besides their time: whether it
 * launched kernels, and its copies (the first one's direction and host
 * memory, the bytes of all of them). */
typedef struct {
    bool kernel, copy;
    double copy_bytes;
    cr_copy_kind copy_kind;
    bool copy_pinned;
    cr_rf_inputs in;        /* what input_op_ids show (roofline.c fills it per call) */
    bool cast_loads;        /* a kernel loads with dynamic casts (ATen's LoadWithCast: mixed
                               input types; its name shows only the computation's type) */
    int elem_bytes;         /* the least element size an untyped kernel name shows
                               (OpaqueType<N>, bool, unsigned char), 0 none */
    bool grad_input_kernel; /* a kernel named for a grad_input (PyTorch's
                               layer_norm_grad_input_kernel) */
} cr_rf_owned;

/* The catalog case of one aten operator: the catalog operator and its
 * "name=value" parameters, and a note (why there is no case, or what the
 * case leaves out). */
typedef struct {
    const char *op;
    int n;
    char k[8][16];
    char v[8][32];
    char note[160];
    bool copy_kernel; /* a copy kernel: the element type read is in no name */
    /* op "elementwise": the elements written and read (w_elems, r_elems,
     * at the row's type, or r_elems at one byte each where read_1b), bytes
     * read besides (r_bytes: indices) and FLOPs; cr_rf_case_finish() turns
     * them into the catalog's parameters once the type is known */
    bool parts, read_1b, write_1b;
    double w_elems, r_elems, r_bytes, flops;
} cr_rf_case;

/* Turns an elementwise case's parts into elems, reads, writes and
 * flops_per at type *dt (which becomes fp8, one-byte units, where reads
 * and writes are of different widths). No-op for other cases. False, with
 * m->note saying why, where the counts reach 2^53 (no GPU holds them). */
bool cr_rf_case_finish(cr_rf_case *m, cr_dtype *dt);

/* The catalog case of the aten call pn whose activities are own: true and
 * *m filled, or false with m->note saying why it has none (an operator
 * the table lacks, sizes it cannot read). */
bool cr_rf_map_aten(const cr_rf_name *pn, const cr_rf_owned *own, cr_rf_case *m);

/* Whether an op that launches nothing leaves its output its first input's
 * element type: the views and in-place ops resolve_inputs follows (the
 * conversions among them, aten::to and the like, launch a copy where they
 * convert), and the views of several outputs (split, chunk, unbind). */
bool cr_rf_type_of_input0(const char *op);

/* Whether op is a matrix product whose tensor operands all have its own
 * element type (aten::mm, addmm, bmm, baddbmm, matmul, linear: PyTorch
 * refuses operands of two types), so that a type one operand's producer
 * shows is the product's. */
bool cr_rf_operands_one_type(const char *op);

/* A new zeroed row at the end of r's table (roofline_table.c), NULL when
 * out of memory. */
cr_rf_row *cr_rf_push_row(cr_roofline *r);

/* Finishes r once its rows are made (roofline_table.c): text fields cut
 * between characters, each bounded row's verdict held to its fastest call
 * and its save, the totals, the rows longest first, the first cr: row
 * without a bound. */
void cr_rf_finish_table(cr_roofline *r);

#pragma GCC visibility pop

#endif
