/* SPDX-License-Identifier: MIT */
/*
 * Charts rendered through gnuplot (see chart.h).
 *
 * gnuplot runs as a child process (fork + exec) in the image's directory, so
 * the script names its data file without a path and users can re-run it
 * there. The image is rendered to a temporary name passed as the variable
 * `outfile`, checked, then renamed: the script's own default output is the
 * final name.
 */
#include "json_dump.h"
#include "chart.h"
#include "plots/chart_priv.h"
#include "fileio.h"
#include "grow.h"
#include "plots/sbuf_priv.h"
#include "json_num.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *dupstr(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- building ---- */

cr_chart *cr_chart_new(cr_chart_kind kind, const char *title)
{
    cr_chart *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->kind = kind;
    c->title = dupstr(title ? title : "");
    c->w = 1000;
    c->h = 650;
    c->scale[0] = c->scale[1] = CR_AXIS_LINEAR;
    if (!c->title) {
        free(c);
        return NULL;
    }
    return c;
}

void cr_chart_free(cr_chart *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->ns; i++) {
        for (int j = 0; j < c->s[i].n; j++)
            free(c->s[i].pts[j].label);
        free(c->s[i].pts);
        free(c->s[i].bars);
        free(c->s[i].name);
    }
    free(c->s);
    for (int i = 0; i < c->nc; i++)
        free(c->cats[i]);
    free(c->cats);
    for (int i = 0; i < c->nhl; i++)
        free(c->hl_name[i]);
    for (int i = 0; i < c->nn; i++)
        free(c->notes[i]);
    free(c->notes);
    for (int i = 0; i < 2; i++) {
        free(c->label[i]);
        free(c->si_unit[i]);
    }
    free(c->title);
    free(c->subtitle);
    free(c);
}

static int axis_index(char axis)
{
    return axis == 'x' ? 0 : axis == 'y' ? 1 : -1;
}

static cr_status replace_str(char **dst, const char *src)
{
    char *n = dupstr(src);
    if (src && !n)
        return CR_ENOMEM;
    free(*dst);
    *dst = n;
    return CR_OK;
}

cr_status cr_chart_axis(cr_chart *c, char axis, const char *label, cr_axis_scale scale)
{
    int a = axis_index(axis);
    if (!c || a < 0)
        return CR_EINVAL;
    c->scale[a] = scale;
    return replace_str(&c->label[a], label);
}

cr_status cr_chart_range(cr_chart *c, char axis, double lo, double hi)
{
    int a = axis_index(axis);
    if (!c || a < 0 || !isfinite(lo) || !isfinite(hi) || !(lo < hi))
        return CR_EINVAL;
    c->range_set[a] = true;
    c->lo[a] = lo;
    c->hi[a] = hi;
    return CR_OK;
}

cr_status cr_chart_si_ticks(cr_chart *c, char axis, const char *unit)
{
    int a = axis_index(axis);
    if (!c || a < 0)
        return CR_EINVAL;
    return replace_str(&c->si_unit[a], unit ? unit : "");
}

cr_status cr_chart_subtitle(cr_chart *c, const char *text)
{
    if (!c)
        return CR_EINVAL;
    return replace_str(&c->subtitle, text);
}

cr_status cr_chart_subtitle_add(cr_chart *c, const char *text)
{
    if (!c || !text)
        return CR_EINVAL;
    if (!c->subtitle || !c->subtitle[0])
        return replace_str(&c->subtitle, text);
    size_t n = strlen(c->subtitle) + strlen(text) + 2;
    char *s = malloc(n);
    if (!s)
        return CR_ENOMEM;
    snprintf(s, n, "%s\n%s", c->subtitle, text);
    free(c->subtitle);
    c->subtitle = s;
    return CR_OK;
}

void cr_chart_size(cr_chart *c, int width_px, int height_px)
{
    if (!c)
        return;
    if (width_px >= 200 && width_px <= 10000)
        c->w = width_px;
    if (height_px >= 200 && height_px <= 10000)
        c->h = height_px;
}

int cr_chart_series(cr_chart *c, const char *name, cr_series_style style, bool labelled)
{
    if (!c)
        return -1;
    if (cr_grow((void **)&c->s, &c->cap_s, (size_t)c->ns + 1, sizeof *c->s))
        return -1;
    series *s = &c->s[c->ns];
    memset(s, 0, sizeof *s);
    s->name = dupstr(name ? name : "");
    if (!s->name)
        return -1;
    s->style = style;
    s->labelled = labelled;
    s->look = -1;
    return c->ns++;
}

cr_status cr_chart_series_look(cr_chart *c, int si, int look)
{
    if (!c || si < 0 || si >= c->ns || look < 0)
        return CR_EINVAL;
    c->s[si].look = look;
    return CR_OK;
}

const char *cr_chart_series_name(const cr_chart *c, int si)
{
    return c && si >= 0 && si < c->ns ? c->s[si].name : NULL;
}

static cr_status add_pt(cr_chart *c, int si, double x, double y, double y2, const char *label)
{
    if (!c || c->kind != CR_CHART_XY || si < 0 || si >= c->ns)
        return CR_EINVAL;
    series *s = &c->s[si];
    if (cr_grow((void **)&s->pts, &s->cap, (size_t)s->n + 1, sizeof *s->pts))
        return CR_ENOMEM;
    pt *p = &s->pts[s->n];
    p->x = x;
    p->y = y;
    p->y2 = y2;
    p->label = NULL;
    if (label && label[0]) {
        p->label = dupstr(label);
        if (!p->label)
            return CR_ENOMEM;
    }
    s->n++;
    return CR_OK;
}

cr_status cr_chart_point(cr_chart *c, int s, double x, double y, const char *label)
{
    if (c && s >= 0 && s < c->ns && c->s[s].style == CR_SERIES_BAND)
        return CR_EINVAL;
    return add_pt(c, s, x, y, NAN, label);
}

cr_status cr_chart_band(cr_chart *c, int s, double x, double ylo, double yhi)
{
    if (!c || s < 0 || s >= c->ns || c->s[s].style != CR_SERIES_BAND)
        return CR_EINVAL;
    return add_pt(c, s, x, ylo, yhi, NULL);
}

/* Bytes of the UTF-8 sequence that starts with byte b (1 for a stray
 * continuation byte, so that a malformed name still advances). */
static size_t utf8_len(unsigned char b)
{
    return b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
}

bool cr_chart_short_label(const char *name, size_t max_chars, char *out, size_t size)
{
    static const char ellipsis[] = "\xE2\x80\xA6"; /* U+2026 */
    if (size == 0 || max_chars == 0)
        return false;
    name = name ? name : "";
    size_t chars = 0, at = 0, cut = 0; /* cut: where the ellipsis goes */
    while (name[at]) {
        if (chars == max_chars - 1)
            cut = at;
        size_t l = utf8_len((unsigned char)name[at]);
        for (size_t i = 1; i < l; i++)
            if (!name[at + i]) {
                l = i;
                break;
            }
        at += l;
        chars++;
    }
    bool shortened = chars > max_chars;
    size_t keep = shortened ? cut : at;
    size_t tail = shortened ? sizeof ellipsis - 1 : 0;
    if (keep + tail + 1 > size) /* out too small: whole sequences that fit */
        keep = size - 1 > tail ? size - 1 - tail : 0;
    while (keep > 0 && ((unsigned char)name[keep] & 0xC0) == 0x80)
        keep--;
    memcpy(out, name, keep);
    if (shortened && keep + tail < size)
        memcpy(out + keep, ellipsis, tail);
    else
        tail = 0;
    out[keep + tail] = '\0';
    return shortened;
}

int cr_chart_category(cr_chart *c, const char *name)
{
    if (!c || c->kind != CR_CHART_BARS)
        return -1;
    if (cr_grow((void **)&c->cats, &c->cap_c, (size_t)c->nc + 1, sizeof *c->cats))
        return -1;
    c->cats[c->nc] = dupstr(name ? name : "");
    if (!c->cats[c->nc])
        return -1;
    return c->nc++;
}

cr_status cr_chart_bar(cr_chart *c, int si, int k, double value)
{
    if (!c || c->kind != CR_CHART_BARS || si < 0 || si >= c->ns || k < 0 || k >= c->nc)
        return CR_EINVAL;
    series *s = &c->s[si];
    if (k >= s->nbars) {
        if (cr_grow((void **)&s->bars, &s->cap_bars, (size_t)k + 1, sizeof *s->bars))
            return CR_ENOMEM;
        for (int i = s->nbars; i <= k; i++)
            s->bars[i] = NAN;
        s->nbars = k + 1;
    }
    s->bars[k] = value;
    return CR_OK;
}

cr_status cr_chart_hline(cr_chart *c, double y, const char *name)
{
    if (!c || c->nhl >= MAX_HLINES || !isfinite(y))
        return CR_EINVAL;
    c->hl_name[c->nhl] = dupstr(name ? name : "");
    if (!c->hl_name[c->nhl])
        return CR_ENOMEM;
    c->hl_y[c->nhl++] = y;
    return CR_OK;
}

cr_status cr_chart_note(cr_chart *c, const char *text)
{
    if (!c || !text)
        return CR_EINVAL;
    if (cr_grow((void **)&c->notes, &c->cap_n, (size_t)c->nn + 1, sizeof *c->notes))
        return CR_ENOMEM;
    c->notes[c->nn] = dupstr(text);
    if (!c->notes[c->nn])
        return CR_ENOMEM;
    c->nn++;
    return CR_OK;
}

int cr_chart_n_series(const cr_chart *c)
{
    return c ? c->ns : 0;
}

int cr_chart_n_categories(const cr_chart *c)
{
    return c ? c->nc : 0;
}

int cr_chart_n_points(const cr_chart *c, int s)
{
    return (c && s >= 0 && s < c->ns) ? c->s[s].n : 0;
}

/* ---- files ---- */

/* Writes a temporary file of the render (in dir, removed by the caller);
 * its failure names the folder, where the user can act. */
static cr_status write_in(const char *dir, const char *path, const char *data, size_t len,
                          cr_diag *d)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return cr_diag_set(d, CR_EIO, "cannot write into %s: %s", dir, strerror(errno));
    bool ok = fwrite(data, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    return ok ? CR_OK : cr_diag_set(d, CR_EIO, "cannot write into %s: %s", dir, strerror(errno));
}

/* NAME.dat and NAME.gp (out_path less its extension, n its length) through
 * the temporaries tmp_dat and tmp_gp: both written first, then, after the
 * rendered image (when given) is moved to out_path, moved into place. A
 * target refused (a directory, a full device) or a failed write (a full
 * disk, memory) leaves the old files as they were, never a new NAME.dat
 * beside the old NAME.gp (QA audit of allocation failures). path: room
 * for n + 16 bytes. */
static cr_status commit_pair(const char *dir, const char *tmp_dat, const char *tmp_gp,
                             const cr_sbuf *data, const cr_sbuf *script, const char *image,
                             const char *out_path, char *path, size_t n, cr_diag *d)
{
    cr_diag wd = {{0}};
    const char *failed = "dat";
    cr_status st = write_in(dir, tmp_dat, data->p, data->len, &wd);
    if (st == CR_OK) {
        failed = "gp";
        st = write_in(dir, tmp_gp, script->p, script->len, &wd);
    }
    if (st != CR_OK) { /* named as the file it stands for */
        snprintf(path, n + 16, "%.*s.%s", (int)(n - 4), out_path, failed);
        return cr_diag_set(d, st, "%s: %s", path, wd.msg);
    }
    if (image && (st = cr_file_commit(image, out_path, d)) != CR_OK)
        return st;
    snprintf(path, n + 16, "%.*s.dat", (int)(n - 4), out_path);
    st = cr_file_commit(tmp_dat, path, d);
    if (st == CR_OK) {
        snprintf(path, n + 16, "%.*s.gp", (int)(n - 4), out_path);
        st = cr_file_commit(tmp_gp, path, d);
    }
    return st;
}

static cr_status read_head(const char *path, unsigned char *buf, size_t cap, size_t *got,
                           long *size, cr_diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cr_diag_set(d, CR_EIO, "cannot read %s: %s", path, strerror(errno));
    *got = fread(buf, 1, cap, f);
    if (fseek(f, 0, SEEK_END) == 0)
        *size = ftell(f);
    else
        *size = -1;
    fclose(f);
    return CR_OK;
}

cr_status cr_image_check(const char *path, cr_diag *d)
{
    size_t n = strlen(path);
    bool svg = n > 4 && strcmp(path + n - 4, ".svg") == 0;
    bool png = n > 4 && strcmp(path + n - 4, ".png") == 0;
    if (!svg && !png)
        return cr_diag_set(d, CR_EINVAL, "%s: image name must end in .png or .svg", path);
    if (png) {
        unsigned char h[32];
        size_t got = 0;
        long size = 0;
        cr_status st = read_head(path, h, sizeof h, &got, &size, d);
        if (st != CR_OK)
            return st;
        static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        if (got < 24 || memcmp(h, sig, 8) != 0 || memcmp(h + 12, "IHDR", 4) != 0)
            return cr_diag_set(d, CR_EPARSE, "%s: not a PNG image (no PNG signature and IHDR)",
                               path);
        uint32_t w = (uint32_t)h[16] << 24 | (uint32_t)h[17] << 16 | (uint32_t)h[18] << 8 | h[19];
        uint32_t ht = (uint32_t)h[20] << 24 | (uint32_t)h[21] << 16 | (uint32_t)h[22] << 8 | h[23];
        if (w == 0 || ht == 0 || size < 1000)
            return cr_diag_set(d, CR_EPARSE, "%s: PNG image is empty (%ux%u, %ld bytes)", path, w,
                               ht, size);
        return CR_OK;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return cr_diag_set(d, CR_EIO, "cannot read %s: %s", path, strerror(errno));
    cr_sbuf b = {0};
    char chunk[8192];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0 && !b.oom) {
        if (cr_grow((void **)&b.p, &b.cap, b.len + r + 1, 1)) {
            b.oom = true;
            break;
        }
        memcpy(b.p + b.len, chunk, r);
        b.len += r;
        b.p[b.len] = '\0';
    }
    fclose(f);
    cr_status st = CR_OK;
    if (b.oom)
        st = cr_diag_set(d, CR_ENOMEM, "out of memory reading %s", path);
    else if (!b.p || !strstr(b.p, "<svg") || !strstr(b.p, "</svg>"))
        st = cr_diag_set(d, CR_EPARSE, "%s: not an SVG document (no <svg> root element)", path);
    else if (!strstr(b.p, "<path") && !strstr(b.p, "<text"))
        st = cr_diag_set(d, CR_EPARSE, "%s: SVG document draws nothing", path);
    cr_sbuf_release(&b);
    return st;
}

/* Reads up to cap-1 bytes of a small text file (gnuplot's stderr). */
static void slurp(const char *path, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    /* one line per message is enough; trailing whitespace adds nothing */
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
}

/* How long one render may take (seconds): the largest shipped charts
 * render in well under one. */
#ifndef GNUPLOT_TIMEOUT_S
#define GNUPLOT_TIMEOUT_S 120
#endif

static cr_status run_gnuplot(const char *gnuplot, const char *dir, const char *script,
                             const char *shown, const char *tmp_image, cr_diag *d)
{
    char errpath[4200];
    snprintf(errpath, sizeof errpath, "%s/.gnuplot-err.XXXXXX", dir);
    int efd = mkstemp(errpath);
    if (efd < 0)
        return cr_diag_set(d, CR_EIO, "cannot create a file in %s: %s", dir, strerror(errno));
    cr_sbuf asb = {0};
    cr_sbuf_add(&asb, "outfile=");
    cr_sbuf_gnuplot(&asb, tmp_image);
    char *assign = asb.p;
    if (asb.oom) {
        cr_sbuf_release(&asb);
        close(efd);
        unlink(errpath);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(efd);
        unlink(errpath);
        free(assign);
        return cr_diag_set(d, CR_EIO, "cannot start gnuplot: %s", strerror(e));
    }
    if (pid == 0) {
        /* a group of its own, so that a stop reaches what it started too */
        setpgid(0, 0);
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, STDIN_FILENO);
            dup2(nul, STDOUT_FILENO);
        }
        dup2(efd, STDERR_FILENO);
        if (chdir(dir) != 0)
            _exit(126);
        char *argv[] = {(char *)(uintptr_t)gnuplot, (char *)(uintptr_t) "-e", assign,
                        (char *)(uintptr_t)script, NULL};
        execvp(gnuplot, argv);
        /* Only async-signal-safe calls between fork and exec: a host's
         * other thread may have held malloc's or the locale's lock at the
         * fork, and dprintf or strerror here waited on it for ever (QA
         * audit of re-entrancy). The errno goes out as digits; the
         * parent names it. */
        char m[24] = "exec: ";
        size_t k = 6;
        unsigned e = (unsigned)errno, div = 1;
        while (e / div >= 10)
            div *= 10;
        for (; div && k < sizeof m; div /= 10)
            m[k++] = (char)('0' + e / div % 10);
        ssize_t w = write(STDERR_FILENO, m, k);
        (void)w;
        _exit(127);
    }
    close(efd);
    free(assign);
    /* a gnuplot that never returns (a script waiting on input, a hung
     * terminal driver) is stopped: no chart takes it minutes */
    int wst = 0;
    struct timespec t0, now, nap = {0, 10 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pid_t w = waitpid(pid, &wst, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            unlink(errpath);
            return cr_diag_set(d, CR_EIO, "waiting for gnuplot: %s", strerror(errno));
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - t0.tv_sec) > GNUPLOT_TIMEOUT_S) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
                ;
            unlink(errpath);
            return cr_diag_set(d, CR_EIO,
                               "gnuplot (%s) did not finish rendering %s/%s within %d s: "
                               "stopped (nothing written; --no-render writes the data and "
                               "script to run by hand)",
                               gnuplot, dir, shown, GNUPLOT_TIMEOUT_S);
        }
        nanosleep(&nap, NULL);
    }
    char msg[700];
    slurp(errpath, msg, sizeof msg);
    unlink(errpath);
    if (WIFEXITED(wst) && WEXITSTATUS(wst) == 127 && strncmp(msg, "exec:", 5) == 0)
        return cr_diag_set(d, CR_EIO,
                           "cannot run \"%s\" (%s): install gnuplot (apt-get install "
                           "gnuplot-nox) or set COMMROOF_GNUPLOT to its path; --no-render "
                           "writes the data file and script without an image",
                           gnuplot, strerror(atoi(msg + 6)));
    if (!WIFEXITED(wst) || WEXITSTATUS(wst) != 0) {
        if (WIFSIGNALED(wst))
            return cr_diag_set(d, CR_EIO,
                               "gnuplot (%s) was killed by signal %d rendering %s/%s (nothing "
                               "written; --no-render writes the data and script to run by hand)",
                               gnuplot, WTERMSIG(wst), dir, shown);
        return cr_diag_set(d, CR_EIO,
                           "gnuplot (%s) failed with status %d rendering %s/%s (nothing written; "
                           "--no-render writes the data and script to run by hand)%s%s",
                           gnuplot, WEXITSTATUS(wst), dir, shown, msg[0] ? ": " : "", msg);
    }
    return CR_OK;
}

cr_status cr_chart_render(const cr_chart *c, const char *out_path, const char *gnuplot, cr_diag *d)
{
    if (!c || !out_path)
        return cr_diag_set(d, CR_EINVAL, "no chart or output path");
    size_t n = strlen(out_path);
    const char *ext = n > 4 ? out_path + n - 3 : "";
    if (n <= 4 || out_path[n - 4] != '.' || (strcmp(ext, "png") != 0 && strcmp(ext, "svg") != 0))
        return cr_diag_set(d, CR_EINVAL,
                           "output \"%s\" must end in .png or .svg (e.g. -o roofline.png)",
                           out_path);
    bool any = false;
    for (int i = 0; i < c->ns; i++)
        if ((c->kind == CR_CHART_XY &&
             chart_drawable(&c->s[i], chart_axis_log(c, 0), chart_axis_log(c, 1))) ||
            (c->kind == CR_CHART_BARS && c->nc > 0))
            any = true;
    if (!any)
        return cr_diag_set(d, CR_EINVAL, "chart \"%s\" has no data to draw", c->title);

    cr_status st = CR_OK;
    char *dir = NULL, *stem = NULL, *path = NULL, *tmp_image = NULL, *final_base = NULL;
    cr_sbuf data = {0}, script = {0}, tmp_script = {0};
    char *tmp_dat = NULL, *tmp_gp = NULL;
    label_plan lp = {0};
    const char *slash = strrchr(out_path, '/');
    if (slash) {
        dir = malloc((size_t)(slash - out_path) + 2);
        if (dir) {
            size_t dl = (size_t)(slash - out_path);
            if (dl == 0)
                dl = 1; /* "/x.png" lives in "/" */
            memcpy(dir, out_path, dl);
            dir[dl] = '\0';
        }
        stem = dupstr(slash + 1);
    } else {
        dir = dupstr(".");
        stem = dupstr(out_path);
    }
    path = malloc(n + 16);
    tmp_image = malloc(n + 64);
    if (!dir || !stem || !path || !tmp_image) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    stem[strlen(stem) - 4] = '\0';
    if (!stem[0]) {
        st = cr_diag_set(d, CR_EINVAL, "output \"%s\" has no file name before .%s", out_path, ext);
        goto out;
    }
    /* the script's strings quote any name (cr_sbuf_gnuplot), but its
     * comment lines show the name in a shell command to re-render it
     * (gnuplot -e "outfile='NAME.svg'"), which quotes, backslashes or
     * control characters would break */
    for (const char *q = stem; *q; q++)
        if (*q == '\'' || *q == '"' || *q == '\\' || (unsigned char)*q < 0x20) {
            st = cr_diag_set(d, CR_EINVAL,
                             "output \"%s\": the file name may not hold quotes, backslashes or "
                             "control characters",
                             out_path);
            goto out;
        }

    if (chart_place_labels(c, &lp) != CR_OK) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    char note[240], bynum[64] = "";
    if (lp.ntags > 0)
        snprintf(bynum, sizeof bynum, ", %d by number: see the list", lp.ntags);
    if (lp.dropped > 0)
        snprintf(note, sizeof note,
                 "labels: %d of %d points%s; the rest would overlap (%s.dat names all)",
                 lp.eligible - lp.dropped, lp.eligible, bynum, stem);
    else
        snprintf(note, sizeof note, "labels: %s %d point%s%s", lp.eligible == 1 ? "the" : "all",
                 lp.eligible, lp.eligible == 1 ? "" : "s", bynum);
    const char *shown_note = c->kind == CR_CHART_XY && chart_has_labels(c) ? note : NULL;
    chart_write_data(c, &data, &lp);
    chart_write_script(c, &script, stem, ext, shown_note, &lp);
    if (data.oom || script.oom) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    /* the temporaries beside the outputs, .STEM.tmpPID.{dat,gp,EXT}: the
     * pair (and the image) is written there first and moved into place */
    snprintf(tmp_image, n + 64, ".%s.tmp%ld", stem, (long)getpid());
    size_t tl = strlen(dir) + strlen(tmp_image) + 16;
    tmp_dat = malloc(tl);
    tmp_gp = malloc(tl);
    final_base = malloc(tl);
    if (!tmp_dat || !tmp_gp || !final_base) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    snprintf(tmp_dat, tl, "%s/%s.dat", dir, tmp_image);
    snprintf(tmp_gp, tl, "%s/%s.gp", dir, tmp_image);
    snprintf(final_base, tl, "%s/%s.%s", dir, tmp_image, ext);
    if (gnuplot) {
        /* render from a temporary data file and script first: only an
         * image that passes the check replaces NAME.png, and a failed
         * render leaves the old data, script and image as they were */
        chart_write_script(c, &tmp_script, tmp_image, ext, shown_note, &lp);
        if (tmp_script.oom) {
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
            goto out;
        }
        char shown[1100], img_name[1100];
        snprintf(shown, sizeof shown, "%s.gp", stem);
        snprintf(img_name, sizeof img_name, "%s.%s", tmp_image, ext);
        st = write_in(dir, tmp_dat, data.p, data.len, d);
        if (st == CR_OK)
            st = write_in(dir, tmp_gp, tmp_script.p, tmp_script.len, d);
        if (st == CR_OK) {
            char gp_name[1100];
            snprintf(gp_name, sizeof gp_name, "%s.gp", tmp_image);
            st = run_gnuplot(gnuplot, dir, gp_name, shown, img_name, d);
        }
        unlink(tmp_dat);
        unlink(tmp_gp);
        if (st == CR_OK) {
            cr_diag id = {{0}};
            if (cr_image_check(final_base, &id) != CR_OK)
                st = cr_diag_set(d, CR_EIO, "gnuplot wrote no valid image for %s: %s", out_path,
                                 id.msg);
        }
        if (st != CR_OK) {
            unlink(final_base);
            goto out;
        }
    }
    st = commit_pair(dir, tmp_dat, tmp_gp, &data, &script, gnuplot ? final_base : NULL, out_path,
                     path, n, d);
    unlink(tmp_dat);
    unlink(tmp_gp);
    unlink(final_base);
out:
    chart_label_plan_free(&lp);
    cr_sbuf_release(&data);
    cr_sbuf_release(&script);
    cr_sbuf_release(&tmp_script);
    free(tmp_dat);
    free(tmp_gp);
    free(dir);
    free(stem);
    free(path);
    free(tmp_image);
    free(final_base);
    return st;
}

/* ---- HTML and JSON views of the numbers ---- */

static void sb_htmlnum(cr_sbuf *b, double v)
{
    if (isfinite(v))
        cr_sbuf_add(b, "%.4g", v);
    else
        cr_sbuf_add(b, "&ndash;");
}

/* A value on axis a: byte counts whole (8589934592 B, which %.4g made
 * 8.59e+09: two sizes 2^33 and 8.59e9 read alike), the rest to 4 digits. */
static void sb_htmlval(cr_sbuf *b, const cr_chart *c, int a, double v)
{
    if (c->si_unit[a] && strcmp(c->si_unit[a], "B") == 0 && isfinite(v) && v == floor(v) &&
        fabs(v) < 1e18)
        cr_sbuf_add(b, "%.0f", v);
    else
        sb_htmlnum(b, v);
}

/* A column header of the HTML table: the axis' quantity and the unit of
 * its numbers, without the wording that helps read the axis ("(log; the
 * unit on each tick)", "nccl-tests size"): bytes on a byte axis, us on a
 * time axis, else the label's own last parenthesis where it is no note
 * about the scale. */
static void sb_html_header(cr_sbuf *b, const cr_chart *c, int a)
{
    const char *l = c->label[a];
    if (!l) {
        cr_sbuf_add(b, "%s", a ? "y" : "x");
        return;
    }
    const char *open = strchr(l, '(');
    const char *last = strrchr(l, '(');
    const char *close = last ? strchr(last, ')') : NULL;
    size_t qn = open ? (size_t)(open - l) : strlen(l);
    while (qn > 0 && l[qn - 1] == ' ')
        qn--;
    char quantity[300], unit[120] = "";
    snprintf(quantity, sizeof quantity, "%.*s", (int)qn, l);
    if (c->si_unit[a] && strcmp(c->si_unit[a], "B") == 0)
        cr_str_copy(unit, sizeof unit, "bytes");
    else if (c->si_unit[a] && strcmp(c->si_unit[a], "us") == 0)
        cr_str_copy(unit, sizeof unit, "us");
    else if (close && !strstr(last, "log"))
        snprintf(unit, sizeof unit, "%.*s", (int)(close - last - 1), last + 1);
    cr_sbuf_xml(b, quantity);
    if (unit[0]) {
        cr_sbuf_add(b, " (");
        cr_sbuf_xml(b, unit);
        cr_sbuf_add(b, ")");
    }
}

cr_status cr_chart_html_table(const cr_chart *c, char **html)
{
    *html = NULL;
    cr_sbuf b = {0};
    cr_sbuf_add(&b, "<table class=\"numbers\">\n");
    if (c->kind == CR_CHART_BARS) {
        cr_sbuf_add(&b, "<tr><th>category</th>");
        for (int i = 0; i < c->ns; i++) {
            cr_sbuf_add(&b, "<th>");
            cr_sbuf_xml(&b, c->s[i].name);
            cr_sbuf_add(&b, "</th>");
        }
        cr_sbuf_add(&b, "</tr>\n");
        for (int k = 0; k < c->nc; k++) {
            cr_sbuf_add(&b, "<tr><td>");
            cr_sbuf_xml(&b, c->cats[k]);
            cr_sbuf_add(&b, "</td>");
            for (int i = 0; i < c->ns; i++) {
                cr_sbuf_add(&b, "<td>");
                sb_htmlnum(&b, chart_bar_value(c, i, k));
                cr_sbuf_add(&b, "</td>");
            }
            cr_sbuf_add(&b, "</tr>\n");
        }
        if (c->label[1]) {
            char vl[400];
            cr_sbuf_add(&b, "<tr><td colspan=\"%d\" class=\"unit\">values: ", c->ns + 1);
            cr_sbuf_xml(&b, chart_data_label(c, 1, vl, sizeof vl));
            cr_sbuf_add(&b, "</td></tr>\n");
        }
        /* the data file's notes: on the comparison, why a cell is empty */
        for (int i = 0; i < c->nn; i++) {
            cr_sbuf_add(&b, "<tr><td colspan=\"%d\" class=\"unit\">", c->ns + 1);
            cr_sbuf_xml(&b, c->notes[i]);
            cr_sbuf_add(&b, "</td></tr>\n");
        }
    } else {
        cr_sbuf_add(&b, "<tr><th>series</th><th>label</th><th>");
        sb_html_header(&b, c, 0);
        cr_sbuf_add(&b, "</th><th>");
        sb_html_header(&b, c, 1);
        cr_sbuf_add(&b, "</th></tr>\n");
        for (int i = 0; i < c->ns; i++) {
            const series *s = &c->s[i];
            for (int j = 0; j < s->n; j++) {
                cr_sbuf_add(&b, "<tr><td>");
                cr_sbuf_xml(&b, s->name);
                cr_sbuf_add(&b, "</td><td>");
                cr_sbuf_xml(&b, s->pts[j].label ? s->pts[j].label : "");
                cr_sbuf_add(&b, "</td><td>");
                sb_htmlval(&b, c, 0, s->pts[j].x);
                cr_sbuf_add(&b, "</td><td>");
                sb_htmlval(&b, c, 1, s->pts[j].y);
                if (s->style == CR_SERIES_BAND) {
                    cr_sbuf_add(&b, " &ndash; ");
                    sb_htmlval(&b, c, 1, s->pts[j].y2);
                }
                cr_sbuf_add(&b, "</td></tr>\n");
            }
        }
    }
    cr_sbuf_add(&b, "</table>\n");
    if (b.oom) {
        cr_sbuf_release(&b);
        return CR_ENOMEM;
    }
    *html = b.p;
    return CR_OK;
}

cr_status cr_chart_json(const cr_chart *c, char **out)
{
    *out = NULL;
    json_t *root = json_object();
    json_t *arr = json_array();
    if (!root || !arr) {
        json_decref(root);
        json_decref(arr);
        return CR_ENOMEM;
    }
    json_object_set_new(root, "title", json_string(c->title));
    if (c->subtitle)
        json_object_set_new(root, "subtitle", json_string(c->subtitle));
    json_object_set_new(root, "kind", json_string(c->kind == CR_CHART_BARS ? "bars" : "xy"));
    if (c->nn > 0) {
        json_t *notes = json_array();
        for (int i = 0; i < c->nn; i++)
            json_array_append_new(notes, json_string(c->notes[i]));
        json_object_set_new(root, "notes", notes);
    }
    char lab[400];
    json_object_set_new(root, "x_label",
                        c->label[0] ? json_string(chart_data_label(c, 0, lab, sizeof lab))
                                    : json_null());
    json_object_set_new(root, "y_label",
                        c->label[1] ? json_string(chart_data_label(c, 1, lab, sizeof lab))
                                    : json_null());
    json_object_set_new(root, "y_log", json_boolean(chart_axis_log(c, 1)));
    if (c->kind == CR_CHART_XY)
        json_object_set_new(root, "x_log", json_boolean(chart_axis_log(c, 0)));
    if (c->kind == CR_CHART_BARS) {
        json_t *cats = json_array();
        for (int k = 0; k < c->nc; k++)
            json_array_append_new(cats, json_string(c->cats[k]));
        json_object_set_new(root, "categories", cats);
    }
    for (int i = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        json_t *js = json_object();
        json_object_set_new(js, "name", json_string(s->name));
        json_t *pts = json_array();
        if (c->kind == CR_CHART_BARS) {
            for (int k = 0; k < c->nc; k++)
                json_array_append_new(pts, cr_json_count(chart_bar_value(c, i, k)));
            json_object_set_new(js, "values", pts);
        } else {
            for (int j = 0; j < s->n; j++) {
                json_t *p = json_object();
                json_object_set_new(p, "x", cr_json_count(s->pts[j].x));
                if (s->style == CR_SERIES_BAND) {
                    json_object_set_new(p, "y_low", cr_json_count(s->pts[j].y));
                    json_object_set_new(p, "y_high", cr_json_count(s->pts[j].y2));
                } else {
                    json_object_set_new(p, "y", cr_json_count(s->pts[j].y));
                }
                if (s->pts[j].label)
                    json_object_set_new(p, "label", json_string(s->pts[j].label));
                json_array_append_new(pts, p);
            }
            json_object_set_new(js, "points", pts);
        }
        json_array_append_new(arr, js);
    }
    json_object_set_new(root, "series", arr);
    if (c->nhl > 0) {
        json_t *hl = json_array();
        for (int i = 0; i < c->nhl; i++) {
            json_t *h = json_object();
            json_object_set_new(h, "name", json_string(c->hl_name[i]));
            json_object_set_new(h, "y", json_real(c->hl_y[i]));
            json_array_append_new(hl, h);
        }
        json_object_set_new(root, "reference_lines", hl);
    }
    *out = cr_json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    return *out ? CR_OK : CR_ENOMEM;
}
