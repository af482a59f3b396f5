/* SPDX-License-Identifier: MIT */
/* Report tables in text, CSV, JSON and HTML (see table.h). */
#include "json_dump.h"
#include "sbuf.h"
#include "plots/table.h"
#include "json_num.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "grow.h"
#include "plots/chart.h"
#include "plots/sbuf_priv.h"

typedef struct {
    char *name, *unit;
    bool text;
    int prec;
} col;

typedef struct {
    char *s; /* text cells */
    double v;
} cell;

struct cr_table {
    char *title;
    char **notes;
    int nn;
    size_t cap_nn;
    col *cols;
    int nc;
    size_t cap_nc;
    cell *cells; /* row-major, nc per row */
    int nr;
    size_t cap_r; /* rows */
};

static char *dupstr(const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s ? s : "", n);
    return d;
}

cr_table *cr_table_new(const char *title)
{
    cr_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->title = dupstr(title);
    if (!t->title) {
        free(t);
        return NULL;
    }
    return t;
}

void cr_table_free(cr_table *t)
{
    if (!t)
        return;
    for (int r = 0; r < t->nr; r++)
        for (int c = 0; c < t->nc; c++)
            free(t->cells[r * t->nc + c].s);
    free(t->cells);
    for (int c = 0; c < t->nc; c++) {
        free(t->cols[c].name);
        free(t->cols[c].unit);
    }
    free(t->cols);
    for (int i = 0; i < t->nn; i++)
        free(t->notes[i]);
    free(t->notes);
    free(t->title);
    free(t);
}

cr_status cr_table_note(cr_table *t, const char *line)
{
    if (cr_grow((void **)&t->notes, &t->cap_nn, (size_t)t->nn + 1, sizeof *t->notes))
        return CR_ENOMEM;
    t->notes[t->nn] = dupstr(line);
    if (!t->notes[t->nn])
        return CR_ENOMEM;
    t->nn++;
    return CR_OK;
}

int cr_table_col(cr_table *t, const char *name, const char *unit, bool text, int prec)
{
    if (t->nr > 0)
        return -1;
    if (cr_grow((void **)&t->cols, &t->cap_nc, (size_t)t->nc + 1, sizeof *t->cols))
        return -1;
    col *c = &t->cols[t->nc];
    c->name = dupstr(name);
    c->unit = dupstr(unit);
    c->text = text;
    c->prec = prec > 0 && prec < 17 ? prec : 4;
    if (!c->name || !c->unit) {
        free(c->name);
        free(c->unit);
        return -1;
    }
    return t->nc++;
}

int cr_table_row(cr_table *t)
{
    if (cr_grow((void **)&t->cells, &t->cap_r, (size_t)t->nr + 1, (size_t)t->nc * sizeof *t->cells))
        return -1;
    for (int c = 0; c < t->nc; c++)
        t->cells[t->nr * t->nc + c] = (cell){NULL, NAN};
    return t->nr++;
}

int cr_table_n_rows(const cr_table *t)
{
    return t ? t->nr : 0;
}

cr_status cr_table_set_text(cr_table *t, int row, int c, const char *s)
{
    if (row < 0 || row >= t->nr || c < 0 || c >= t->nc || !t->cols[c].text)
        return CR_EINVAL;
    cell *x = &t->cells[row * t->nc + c];
    char *n = dupstr(s);
    if (!n)
        return CR_ENOMEM;
    free(x->s);
    x->s = n;
    return CR_OK;
}

cr_status cr_table_set_num(cr_table *t, int row, int c, double v)
{
    if (row < 0 || row >= t->nr || c < 0 || c >= t->nc || t->cols[c].text)
        return CR_EINVAL;
    t->cells[row * t->nc + c].v = v;
    return CR_OK;
}

static void cell_str(const cr_table *t, int r, int c, char *buf, size_t n)
{
    const cell *x = &t->cells[r * t->nc + c];
    if (t->cols[c].text)
        cr_str_copy(buf, n, x->s && x->s[0] ? x->s : "-");
    else if (isfinite(x->v))
        cr_snprintf_c(buf, n, "%.*g", t->cols[c].prec, x->v);
    else
        cr_str_copy(buf, n, "-");
}

/* "# line": a control character in it (a file name's newline) becomes a
 * blank, so the line cannot end early and forge a row. */
static void comment_line(cr_sbuf *b, const char *s)
{
    cr_sbuf_add(b, "# ");
    for (; s && *s; s++)
        cr_sbuf_add(b, "%c", (unsigned char)*s < ' ' || *s == 0x7f ? ' ' : *s);
    cr_sbuf_add(b, "\n");
}

cr_status cr_table_text(const cr_table *t, char **out)
{
    *out = NULL;
    cr_sbuf b = {0};
    int *w = calloc((size_t)(t->nc ? t->nc : 1), sizeof *w);
    if (!w)
        return CR_ENOMEM;
    char buf[512];
    for (int c = 0; c < t->nc; c++) {
        w[c] = (int)strlen(t->cols[c].name);
        if ((int)strlen(t->cols[c].unit) > w[c])
            w[c] = (int)strlen(t->cols[c].unit);
        for (int r = 0; r < t->nr; r++) {
            cell_str(t, r, c, buf, sizeof buf);
            /* text cells hold no spaces, so gnuplot sees one column each */
            if ((int)strlen(buf) > w[c])
                w[c] = (int)strlen(buf);
        }
    }
    comment_line(&b, t->title);
    for (int i = 0; i < t->nn; i++)
        comment_line(&b, t->notes[i]);
    for (int pass = 0; pass < 2; pass++) {
        cr_sbuf_add(&b, "#");
        for (int c = 0; c < t->nc; c++) {
            const char *h = pass == 0 ? t->cols[c].name : t->cols[c].unit;
            if (t->cols[c].text)
                cr_sbuf_add(&b, " %-*s", w[c], h);
            else
                cr_sbuf_add(&b, " %*s", w[c], h);
        }
        cr_sbuf_add(&b, "\n");
    }
    for (int r = 0; r < t->nr; r++) {
        cr_sbuf_add(&b, " ");
        for (int c = 0; c < t->nc; c++) {
            cell_str(t, r, c, buf, sizeof buf);
            /* any blank or control character (a newline or tab from a
             * JSON variant name or a log's file name) would split the
             * cell or forge a row: '_' keeps one gnuplot column a cell */
            for (char *p = buf; *p; p++)
                if ((unsigned char)*p <= ' ' || *p == 0x7f)
                    *p = '_';
            if (t->cols[c].text)
                cr_sbuf_add(&b, " %-*s", w[c], buf);
            else
                cr_sbuf_add(&b, " %*s", w[c], buf);
        }
        cr_sbuf_add(&b, "\n");
    }
    free(w);
    if (b.oom) {
        cr_sbuf_release(&b);
        return CR_ENOMEM;
    }
    *out = b.p;
    return CR_OK;
}

static void csv_field(cr_sbuf *b, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        cr_sbuf_add(b, "%s", s);
        return;
    }
    cr_sbuf_add(b, "\"");
    for (; *s; s++)
        cr_sbuf_add(b, *s == '"' ? "\"\"" : "%c", *s);
    cr_sbuf_add(b, "\"");
}

static cr_status table_csv(const cr_table *t, cr_sbuf *b)
{
    char buf[512];
    for (int c = 0; c < t->nc; c++) {
        cr_sbuf_add(b, "%s", c ? "," : "");
        csv_field(b, t->cols[c].name);
    }
    cr_sbuf_add(b, "\n");
    for (int r = 0; r < t->nr; r++) {
        for (int c = 0; c < t->nc; c++) {
            const cell *x = &t->cells[r * t->nc + c];
            cr_sbuf_add(b, "%s", c ? "," : "");
            if (t->cols[c].text) {
                csv_field(b, x->s ? x->s : "");
            } else if (isfinite(x->v)) {
                cr_snprintf_c(buf, sizeof buf, "%.*g", t->cols[c].prec + 2, x->v);
                cr_sbuf_add(b, "%s", buf);
            }
        }
        cr_sbuf_add(b, "\n");
    }
    return b->oom ? CR_ENOMEM : CR_OK;
}

static char *table_json(const cr_table *t)
{
    json_t *root = json_object();
    json_object_set_new(root, "title", json_string(t->title));
    json_t *notes = json_array();
    for (int i = 0; i < t->nn; i++)
        json_array_append_new(notes, json_string(t->notes[i]));
    json_object_set_new(root, "notes", notes);
    json_t *units = json_object();
    for (int c = 0; c < t->nc; c++)
        if (t->cols[c].unit[0])
            json_object_set_new(units, t->cols[c].name, json_string(t->cols[c].unit));
    json_object_set_new(root, "units", units);
    json_t *rows = json_array();
    for (int r = 0; r < t->nr; r++) {
        json_t *o = json_object();
        for (int c = 0; c < t->nc; c++) {
            const cell *x = &t->cells[r * t->nc + c];
            json_t *v =
                t->cols[c].text ? (x->s ? json_string(x->s) : json_null()) : cr_json_count(x->v);
            json_object_set_new(o, t->cols[c].name, v ? v : json_null());
        }
        json_array_append_new(rows, o);
    }
    json_object_set_new(root, "rows", rows);
    char *s = cr_json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    return s;
}

cr_status cr_table_write(const cr_table *t, const char *stem, cr_diag *d)
{
    size_t n = strlen(stem) + 8;
    char *path = malloc(n);
    char *txt = NULL, *js = NULL;
    cr_sbuf csv = {0};
    cr_status st = CR_OK;
    if (!path || cr_table_text(t, &txt) != CR_OK || table_csv(t, &csv) != CR_OK ||
        !(js = table_json(t))) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory writing %s", stem);
        goto out;
    }
    snprintf(path, n, "%s.txt", stem);
    if ((st = cr_file_write(path, txt, strlen(txt), d)) != CR_OK)
        goto out;
    snprintf(path, n, "%s.csv", stem);
    if ((st = cr_file_write(path, csv.p ? csv.p : "", csv.len, d)) != CR_OK)
        goto out;
    snprintf(path, n, "%s.json", stem);
    size_t jl = strlen(js);
    js[jl] = '\0';
    st = cr_file_write(path, js, jl, d);
out:
    free(path);
    free(txt);
    free(js);
    cr_sbuf_release(&csv);
    return st;
}

cr_status cr_table_html(const cr_table *t, char **out)
{
    *out = NULL;
    cr_sbuf b = {0};
    char buf[512];
    cr_sbuf_add(&b, "<table class=\"numbers\">\n<tr>");
    for (int c = 0; c < t->nc; c++) {
        cr_sbuf_add(&b, "<th>");
        cr_sbuf_xml(&b, t->cols[c].name);
        if (t->cols[c].unit[0]) {
            cr_sbuf_add(&b, "<br><span class=\"unit\">");
            cr_sbuf_xml(&b, t->cols[c].unit);
            cr_sbuf_add(&b, "</span>");
        }
        cr_sbuf_add(&b, "</th>");
    }
    cr_sbuf_add(&b, "</tr>\n");
    for (int r = 0; r < t->nr; r++) {
        cr_sbuf_add(&b, "<tr>");
        for (int c = 0; c < t->nc; c++) {
            cell_str(t, r, c, buf, sizeof buf);
            cr_sbuf_add(&b, "<td%s>", t->cols[c].text ? "" : " class=\"n\"");
            cr_sbuf_xml(&b, buf);
            cr_sbuf_add(&b, "</td>");
        }
        cr_sbuf_add(&b, "</tr>\n");
    }
    cr_sbuf_add(&b, "</table>\n");
    if (b.oom) {
        cr_sbuf_release(&b);
        return CR_ENOMEM;
    }
    *out = b.p;
    return CR_OK;
}
