/* SPDX-License-Identifier: MIT */
/*
 * Tables for reports: one set of rows written as text (nccl-tests style:
 * `#` header lines, a units row, fixed-width columns gnuplot reads as they
 * are), CSV (RFC 4180 quoting) and JSON (an array of objects keyed by
 * column name), plus an HTML view. Files are written atomically.
 */
#ifndef CR_TABLE_H
#define CR_TABLE_H

#include <stdbool.h>

#include "status.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

typedef struct cr_table cr_table;

/* A new empty table; title heads the text and HTML forms (copied). NULL on
 * allocation failure. Free with cr_table_free. */
cr_table *cr_table_new(const char *title);

/* Frees t; NULL is a no-op. */
void cr_table_free(cr_table *t);

/* Adds a line to the header (text: "# line"; JSON: "notes"). */
cr_status cr_table_note(cr_table *t, const char *line);

/* Adds a column. name is the JSON key and the header ("bound_us"), unit
 * goes in the units row ("us", "" for none), text says the column holds
 * strings; prec is the number of significant digits for numbers. Returns
 * the column index, -1 on allocation failure or after the first row. */
int cr_table_col(cr_table *t, const char *name, const char *unit, bool text, int prec);

/* Appends a row of empty cells; returns its index or -1. */
int cr_table_row(cr_table *t);

/* Fills a cell. Numbers: NAN (the default) prints "-" in text and CSV and
 * null in JSON. Errors: CR_EINVAL (bad index, wrong kind), CR_ENOMEM. */
cr_status cr_table_set_text(cr_table *t, int row, int col, const char *s);
cr_status cr_table_set_num(cr_table *t, int row, int col, double v);

int cr_table_n_rows(const cr_table *t);

/* Writes STEM.txt, STEM.csv and STEM.json. Errors: CR_EIO, CR_ENOMEM. */
cr_status cr_table_write(const cr_table *t, const char *stem, cr_diag *d);

/* The text form alone (*out freed with free()). */
cr_status cr_table_text(const cr_table *t, char **out);

/* An HTML <table> (escaped). *out is freed with free(). */
cr_status cr_table_html(const cr_table *t, char **out);

#pragma GCC visibility pop

#endif
