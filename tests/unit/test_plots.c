/* SPDX-License-Identifier: MIT */
/*
 * Tests of plots/: the chart writer (data file, script, atomic writes,
 * gnuplot errors), the image checks, and every chart kind rendered to PNG
 * and SVG through the real gnuplot. Expected ceilings come from the fixture
 * topology's figures, derived in the comments.
 *
 * Set CR_TEST_KEEP=DIR to keep the rendered charts there (to look at them).
 */
#include "cr_test.h"

#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plots/chart.h"
#include "plots/plots.h"
#include "plots/sbuf_priv.h"
#include "plots/sources.h"
#include "plots/table.h"
#include "topo.h"
#include "topo_xml.h"

static char tmpdir[256];

static int setup_dir(void **state)
{
    (void)state;
    const char *keep = getenv("CR_TEST_KEEP");
    if (keep && keep[0]) {
        snprintf(tmpdir, sizeof tmpdir, "%s", keep);
        mkdir(tmpdir, 0755);
        return 0;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cr-test-plots.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    const char *keep = getenv("CR_TEST_KEEP");
    if (keep && keep[0])
        return 0;
    DIR *dir = opendir(tmpdir);
    if (dir) {
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char p[600];
            snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
            unlink(p);
        }
        closedir(dir);
    }
    rmdir(tmpdir);
    return 0;
}

static void path_of(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    size_t got = fread(b, 1, (size_t)n, f);
    b[got] = '\0';
    fclose(f);
    if (len)
        *len = got;
    return b;
}

/* Independent of cr_image_check: the 8-byte PNG signature, an IHDR chunk
 * with a non-zero size, and more than a few hundred bytes. */
static void assert_png(const char *path)
{
    size_t n = 0;
    char *b = slurp(path, &n);
    assert_non_null(b);
    assert_true(n > 2000);
    assert_memory_equal(b, "\x89PNG\r\n\x1a\n", 8);
    assert_memory_equal(b + 12, "IHDR", 4);
    unsigned w = (unsigned)(unsigned char)b[18] << 8 | (unsigned char)b[19];
    assert_true(w >= 200);
    free(b);
}

static void assert_svg(const char *path)
{
    size_t n = 0;
    char *b = slurp(path, &n);
    assert_non_null(b);
    assert_true(n > 2000);
    char *root = strstr(b, "<svg");
    assert_non_null(root);
    assert_non_null(strstr(root, "</svg>"));
    free(b);
}

/* Renders c as NAME.png and NAME.svg and checks both images, the data file
 * and the script. */
static void render_both(const cr_chart *c, const char *name)
{
    char p[600];
    const char *ext[2] = {"png", "svg"};
    for (int i = 0; i < 2; i++) {
        char file[128];
        snprintf(file, sizeof file, "%s.%s", name, ext[i]);
        path_of(p, sizeof p, file);
        cr_diag d = {{0}};
        cr_status st = cr_chart_render(c, p, "gnuplot", &d);
        if (st != CR_OK)
            fail_msg("render %s: %s", p, d.msg);
        if (i == 0)
            assert_png(p);
        else
            assert_svg(p);
        assert_int_equal(cr_image_check(p, NULL), CR_OK);
    }
    snprintf(p, sizeof p, "%s/%s.dat", tmpdir, name);
    assert_int_equal(access(p, R_OK), 0);
    snprintf(p, sizeof p, "%s/%s.gp", tmpdir, name);
    char *gp = slurp(p, NULL);
    assert_non_null(gp);
    char want[128];
    snprintf(want, sizeof want, "%s.dat", name);
    assert_non_null(strstr(gp, want));
    assert_non_null(strstr(gp, "set title"));
    assert_non_null(strstr(gp, "set xlabel"));
    assert_non_null(strstr(gp, "set ylabel"));
    free(gp);
}

/* ---- fixture: an HGX H200 board, built with the topology API ----
 * 8 GPUs, each with 18 NVLink4 links of 25 GB/s per direction spread over
 * four NVSwitch chips (5/4/4/5) that reduce in the switch; each GPU on a
 * PCIe Gen5 x16 link (63 GB/s) to a PCIe switch that also holds one NDR NIC
 * (400 Gb/s = 50 GB/s per direction) to a leaf switch. Peaks: BF16/FP16
 * 989 TFLOP/s, FP8 1979, TF32 494, FP32 and FP64 67; HBM 4.8 TB/s. */
static cr_topo *fixture(void)
{
    cr_topo *t = cr_topo_new("fixture-h200-8");
    cr_gpu_spec g = {0};
    g.name = (char *)"H200-SXM";
    g.vendor = (char *)"nvidia";
    g.arch = 90;
    g.peak_flops[CR_DT_FP64] = 67e12;
    g.peak_flops[CR_DT_FP32] = 67e12;
    g.peak_flops[CR_DT_TF32] = 494e12;
    g.peak_flops[CR_DT_BF16] = 989e12;
    g.peak_flops[CR_DT_FP16] = 989e12;
    g.peak_flops[CR_DT_FP8] = 1979e12;
    g.hbm_bytes = 141e9;
    g.hbm_Bps = 4.8e12;
    g.l2_bytes = 50e6;
    g.sms = 132;
    int gs = cr_topo_add_gpu_spec(t, &g);
    cr_switch_spec sw = {0};
    sw.name = (char *)"nvswitch3";
    sw.generation = 3;
    sw.multicast = true;
    sw.reduction = true;
    int ss = cr_topo_add_switch_spec(t, &sw);
    cr_switch_spec ib = {0};
    ib.name = (char *)"quantum2";
    int is = cr_topo_add_switch_spec(t, &ib);
    int sws[4];
    char id[32];
    for (int s = 0; s < 4; s++) {
        snprintf(id, sizeof id, "nvsw%d", s);
        sws[s] = cr_topo_add_dev(t, CR_DEV_SWITCH, id, 0, ss);
    }
    int leaf = cr_topo_add_dev(t, CR_DEV_SWITCH, "leaf", -1, is);
    int cpu = cr_topo_add_dev(t, CR_DEV_CPU, "cpu0", 0, -1);
    static const int links[4] = {5, 4, 4, 5};
    for (int r = 0; r < 8; r++) {
        snprintf(id, sizeof id, "gpu%d", r);
        int gv = cr_topo_add_dev(t, CR_DEV_GPU, id, 0, gs);
        for (int s = 0; s < 4; s++)
            cr_topo_add_link(t, gv, sws[s], CR_LINK_NVLINK, 25e9, 25e9, links[s], 0.5e-6);
        snprintf(id, sizeof id, "pcisw%d", r);
        int ps = cr_topo_add_dev(t, CR_DEV_PCISW, id, 0, -1);
        snprintf(id, sizeof id, "nic%d", r);
        int nic = cr_topo_add_dev(t, CR_DEV_NIC, id, 0, -1);
        cr_topo_add_link(t, gv, ps, CR_LINK_PCIE, 63e9, 63e9, 1, 1e-6);
        cr_topo_add_link(t, nic, ps, CR_LINK_PCIE, 63e9, 63e9, 1, 1e-6);
        cr_topo_add_link(t, ps, cpu, CR_LINK_PCIE, 63e9, 63e9, 1, 1e-6);
        cr_topo_add_link(t, nic, leaf, CR_LINK_IB, 50e9, 50e9, 1, 1e-6);
    }
    cr_diag d = {{0}};
    if (cr_topo_check(t, &d) != CR_OK)
        fail_msg("fixture: %s", d.msg);
    return t;
}

static json_t *chart_json(const cr_chart *c)
{
    char *s = NULL;
    assert_int_equal(cr_chart_json(c, &s), CR_OK);
    json_error_t e;
    json_t *j = json_loads(s, 0, &e);
    free(s);
    assert_non_null(j);
    return j;
}

static json_t *series_named(json_t *j, const char *prefix)
{
    json_t *arr = json_object_get(j, "series");
    size_t i;
    json_t *s;
    json_array_foreach(arr, i, s)
    {
        const char *n = json_string_value(json_object_get(s, "name"));
        if (n && strncmp(n, prefix, strlen(prefix)) == 0)
            return s;
    }
    fail_msg("no series named %s...", prefix);
    return NULL;
}

static double pt_coord(json_t *s, size_t i, const char *k)
{
    return json_number_value(json_object_get(json_array_get(json_object_get(s, "points"), i), k));
}

/* ---- the writer ---- */

static void test_data_and_script(void **state)
{
    (void)state;
    cr_chart *c = cr_chart_new(CR_CHART_XY, "a \"quoted\" title");
    assert_int_equal(cr_chart_axis(c, 'x', "size (bytes)", CR_AXIS_LOG), CR_OK);
    assert_int_equal(cr_chart_axis(c, 'q', "bad", CR_AXIS_LOG), CR_EINVAL);
    assert_int_equal(cr_chart_axis(c, 'y', "time (us)", CR_AXIS_AUTO), CR_OK);
    int a = cr_chart_series(c, "first", CR_SERIES_LINE, false);
    int b = cr_chart_series(c, "second", CR_SERIES_POINTS, true);
    int e = cr_chart_series(c, "empty", CR_SERIES_POINTS, false);
    assert_int_equal(cr_chart_point(c, a, 1, 2, NULL), CR_OK);
    assert_int_equal(cr_chart_point(c, a, 10, 2000, NULL), CR_OK);
    assert_int_equal(cr_chart_point(c, b, 3, 4, "lab \"x\"\nnext"), CR_OK);
    assert_int_equal(cr_chart_point(c, 7, 3, 4, NULL), CR_EINVAL);
    assert_int_equal(cr_chart_band(c, a, 3, 4, 5), CR_EINVAL); /* not a band series */
    assert_int_equal(cr_chart_n_points(c, b), 1);
    char p[600];
    path_of(p, sizeof p, "writer.png");
    cr_diag d = {{0}};
    /* gnuplot NULL: data and script only */
    assert_int_equal(cr_chart_render(c, p, NULL, &d), CR_OK);
    assert_int_not_equal(access(p, F_OK), 0);
    path_of(p, sizeof p, "writer.dat");
    char *dat = slurp(p, NULL);
    assert_non_null(dat);
    /* blocks in series order; the label's quotes and line break are defused */
    char *i0 = strstr(dat, "# index 0: first");
    char *i1 = strstr(dat, "# index 1: second");
    char *i2 = strstr(dat, "# index 2: empty");
    assert_true(i0 && i1 && i2 && i0 < i1 && i1 < i2);
    assert_non_null(strstr(dat, "10 2000 \"\""));
    assert_non_null(strstr(dat, "3 4 \"lab 'x' next\" NE"));
    free(dat);
    path_of(p, sizeof p, "writer.gp");
    char *gp = slurp(p, NULL);
    assert_non_null(gp);
    /* the title, and a line saying which points carry their labels */
    assert_non_null(strstr(gp, "set title \"a \\\"quoted\\\" title\\nlabels: the 1 point\""));
    assert_non_null(strstr(gp, "set logscale x"));
    /* y spans 2 .. 2000: three decades, so the auto axis is logarithmic */
    assert_non_null(strstr(gp, "set logscale y"));
    assert_non_null(strstr(gp, "with labels"));
    assert_null(strstr(gp, "index 2 ")); /* the empty series is not plotted */
    free(gp);
    /* no temporary files left behind */
    DIR *dir = opendir(tmpdir);
    struct dirent *ent;
    while ((ent = readdir(dir)) != NULL)
        assert_null(strstr(ent->d_name, ".tmp"));
    closedir(dir);
    cr_chart_free(c);
    cr_chart_free(NULL);
    (void)e;
}

/* Script of c written as NAME (data and script only), read back; free it. */
static char *script_of(const cr_chart *c, const char *name)
{
    char p[600], file[128];
    snprintf(file, sizeof file, "%s.png", name);
    path_of(p, sizeof p, file);
    cr_diag d = {{0}};
    assert_int_equal(cr_chart_render(c, p, NULL, &d), CR_OK);
    snprintf(file, sizeof file, "%s.gp", name);
    path_of(p, sizeof p, file);
    char *gp = slurp(p, NULL);
    assert_non_null(gp);
    return gp;
}

/* A byte axis (cr_chart_si_ticks "B") is ticked at powers of two, as the
 * sizes on it are: 1 MiB = 2^20 = 1048576, where decimal ticks put "1MB"
 * at 10^6 and every power-of-two sample right of its line (QA audit). A
 * sweep of 4 B to 8 GiB (2^2 .. 2^33; the axis a power of two beyond, 2^1
 * .. 2^34, 33 doublings) labels every fifth power of two, powers of 1024
 * among them, the others minor ticks; a span of 1 to 16 MiB labels each. */
static void test_byte_ticks(void **state)
{
    (void)state;
    cr_chart *c = cr_chart_new(CR_CHART_XY, "sweep");
    assert_int_equal(cr_chart_axis(c, 'x', "message size (bytes)", CR_AXIS_LOG), CR_OK);
    assert_int_equal(cr_chart_si_ticks(c, 'x', "B"), CR_OK);
    assert_int_equal(cr_chart_axis(c, 'y', "bus bandwidth (GB/s)", CR_AXIS_LOG), CR_OK);
    int s = cr_chart_series(c, "bound", CR_SERIES_LINE, false);
    for (int e = 2; e <= 33; e++)
        assert_int_equal(cr_chart_point(c, s, ldexp(1.0, e), e, NULL), CR_OK);
    char *gp = script_of(c, "bytes-wide");
    assert_non_null(strstr(gp, "\"1 KiB\" 1024,"));
    assert_non_null(strstr(gp, "\"1 MiB\" 1048576,"));
    assert_non_null(strstr(gp, "\"1 GiB\" 1073741824,"));
    assert_non_null(strstr(gp, "\"32 KiB\" 32768,"));
    assert_non_null(strstr(gp, "\"\" 8589934592 1")); /* 8 GiB: a minor tick */
    assert_null(strstr(gp, "%c"));                    /* no SI prefixes at powers of 1000 */
    assert_null(strstr(gp, "1000000"));
    assert_non_null(strstr(gp, "set xrange [1.99"));
    free(gp);
    cr_chart_free(c);

    c = cr_chart_new(CR_CHART_XY, "narrow");
    assert_int_equal(cr_chart_axis(c, 'x', "message size (bytes)", CR_AXIS_LOG), CR_OK);
    assert_int_equal(cr_chart_si_ticks(c, 'x', "B"), CR_OK);
    s = cr_chart_series(c, "bound", CR_SERIES_LINE, false);
    for (int e = 20; e <= 24; e++)
        assert_int_equal(cr_chart_point(c, s, ldexp(1.0, e), e, NULL), CR_OK);
    gp = script_of(c, "bytes-narrow");
    assert_non_null(strstr(gp, "set xtics (\"512 KiB\" 524288, \"1 MiB\" 1048576, \"2 MiB\" "
                               "2097152, \"4 MiB\" 4194304, \"8 MiB\" 8388608, \"16 MiB\" "
                               "16777216, \"32 MiB\" 33554432)"));
    free(gp);
    cr_chart_free(c);
}

/* Appends s to b quoted for gnuplot and a line break. */
static void add_quoted(cr_sbuf *b, const char *pre, const char *s)
{
    cr_sbuf_add(b, "%s", pre);
    cr_sbuf_gnuplot(b, s);
    cr_sbuf_add(b, "\n");
}

/* A word for a command shown to be pasted into a shell (cr_sbuf_shell): as
 * it is when plain, else single-quoted, ' as '\''. The chart script's
 * re-render hint showed "gnuplot r`id` $(id) #.gp" unquoted. */
static void test_shell_word(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } forms[] = {
        {"roofline.gp", "roofline.gp"},
        {"a-b_c/d,e:f=g+h@i%j.gp", "a-b_c/d,e:f=g+h@i%j.gp"},
        {"r`id` $(id) #x.gp", "'r`id` $(id) #x.gp'"},
        {"it's", "'it'\\''s'"},
        {"", "''"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        cr_sbuf b = {0};
        cr_sbuf_shell(&b, forms[i].in);
        assert_false(b.oom);
        assert_string_equal(b.p, forms[i].out);
        cr_sbuf_release(&b);
    }
}

/* The one quoting of strings for gnuplot scripts (cr_sbuf_gnuplot). gnuplot
 * runs `command` inside double-quoted strings, so a topology name holding
 * one ran it (issue 13). Each hostile string, quoted and printed by the
 * real gnuplot, must come back as itself (its line breaks kept, other
 * control characters left out) and run nothing: every command in them
 * would create PWNED. */
static void test_gnuplot_quote(void **state)
{
    (void)state;
    /* the form: double quotes; no ` ' @ " \ or line break left as it is */
    static const struct {
        const char *in, *out;
    } forms[] = {
        {NULL, "\"\""},
        {"", "\"\""},
        {"plain text, 1.5 GB/s", "\"plain text, 1.5 GB/s\""},
        {"a'b", "\"a\\047b\""},
        {"`x`", "\"\\140x\\140\""},
        {"@m", "\"\\100m\""},
        {"a\nb", "\"a\\nb\""},
        {"a\tb\r\x01", "\"ab\""},
        {"\\", "\"\\\\\""},
        {"\\`", "\"\\\\\\140\""},
        {"\"", "\"\\\"\""},
        {"caf\xc3\xa9", "\"caf\xc3\xa9\""},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        cr_sbuf b = {0};
        cr_sbuf_gnuplot(&b, forms[i].in);
        assert_false(b.oom);
        assert_string_equal(b.p, forms[i].out);
        cr_sbuf_release(&b);
    }

    char pwned[600], gp[600], out[600];
    path_of(pwned, sizeof pwned, "PWNED");
    path_of(gp, sizeof gp, "quote.gp");
    path_of(out, sizeof out, "quote.out");
    unlink(pwned);
    enum { NH = 10 };
    char hostile[NH][1400];
    snprintf(hostile[0], sizeof hostile[0], "`touch %s`", pwned);
    snprintf(hostile[1], sizeof hostile[1], "a \"`touch %s`\" b", pwned);
    snprintf(hostile[2], sizeof hostile[2], "it's `touch %s` ''`touch %s`'", pwned, pwned);
    snprintf(hostile[3], sizeof hostile[3], "\\\"`touch %s`\\", pwned);
    /* @m would put m's backquoted command into the line where it is not
     * quoted */
    snprintf(hostile[4], sizeof hostile[4], "@m and '@m' and \"@m\" and \\\"@m");
    snprintf(hostile[5], sizeof hostile[5], "line 1\n`touch %s`\nline 3\n", pwned);
    snprintf(hostile[6], sizeof hostile[6], "$(touch %s) {\\b}^_ %%s ~ & # not a comment", pwned);
    snprintf(hostile[7], sizeof hostile[7], "\"; system(\"touch %s\"); print \"", pwned);
    snprintf(hostile[8], sizeof hostile[8], "'; system('touch %s'); print '", pwned);
    snprintf(hostile[9], sizeof hostile[9], "tab\there, CR\rthere, a bell\a, the end\\");
    cr_sbuf script = {0}, want = {0};
    add_quoted(&script, "set print ", out);
    char m[700];
    snprintf(m, sizeof m, "`touch %s`", pwned);
    add_quoted(&script, "m = ", m);
    for (int i = 0; i < NH; i++) {
        add_quoted(&script, "print ", hostile[i]);
        for (const char *q = hostile[i]; *q; q++)
            if ((unsigned char)*q >= 0x20 || *q == '\n')
                cr_sbuf_add(&want, "%c", *q);
        cr_sbuf_add(&want, "\n");
    }
    /* gnuplot's macro pass counts a ' inside "..." as a quote: a raw one
     * would leave the '@m' after it on the line looking unquoted */
    cr_sbuf_add(&script, "print ");
    cr_sbuf_gnuplot(&script, "it's");
    cr_sbuf_add(&script, ", '@m'\n");
    cr_sbuf_add(&want, "it's @m\n");
    assert_false(script.oom || want.oom);
    FILE *f = fopen(gp, "w");
    assert_non_null(f);
    fputs(script.p, f);
    fclose(f);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "gnuplot '%s'", gp);
    assert_int_equal(system(cmd), 0);
    char *got = slurp(out, NULL);
    assert_non_null(got);
    assert_string_equal(got, want.p);
    if (access(pwned, F_OK) == 0)
        fail_msg("gnuplot ran a command in a quoted string (%s exists)", pwned);
    free(got);
    cr_sbuf_release(&script);
    cr_sbuf_release(&want);
    unlink(gp);
    unlink(out);

    /* a comment line that ends in a backslash would take the next line of
     * the script into the comment: the writer ends it with a space */
    cr_chart *c = cr_chart_new(CR_CHART_XY, "ends in \\");
    int s = cr_chart_series(c, "s", CR_SERIES_LINE, false);
    assert_int_equal(cr_chart_point(c, s, 1, 2, NULL), CR_OK);
    path_of(gp, sizeof gp, "comment.png");
    cr_diag d = {{0}};
    assert_int_equal(cr_chart_render(c, gp, NULL, &d), CR_OK);
    path_of(gp, sizeof gp, "comment.gp");
    char *text = slurp(gp, NULL);
    assert_non_null(text);
    assert_non_null(strstr(text, "# commroof chart: ends in \\ \n"));
    free(text);
    cr_chart_free(c);
}

/* Labels avoid each other and the markers. The plot area of this chart is
 * 1000 - 90 - (7 x 8 + 80) = 774 px wide (left margin 90, the key's
 * longest name "markers" at 8 px a character and 80 px of sample) and
 * 650 - (22 + 2 x 18) - 62 = 530 px high (a title and the label note);
 * three decades on each axis: 258 px per decade across, 176.7 up.
 *  - five labels on one point: right above (NE), right below (SE), then
 *    left above and below (NW, SW): level with the point (E, W) would
 *    cover the labels above and below it (boxes 14 px high, 8 px off the
 *    point's line); the fifth finds no room and is not drawn (-);
 *  - a point at the right edge takes its label on its left (NW);
 *  - a marker 20 px right of a point and 8 px above it (marker boxes are
 *    1.6 x 3.5 + 1 = 6.6 px each way) sits in the NE box (1..15 px up,
 *    from 8 px right), so that label goes below (SE);
 *  - markers 20 px right and 14 px above and below block NE and SE but
 *    leave the level box (-7..7 px) free: E. */
static void test_label_placement(void **state)
{
    (void)state;
    cr_chart *c = cr_chart_new(CR_CHART_XY, "labels");
    cr_chart_axis(c, 'x', "x", CR_AXIS_LOG);
    cr_chart_axis(c, 'y', "y", CR_AXIS_LOG);
    cr_chart_range(c, 'x', 1, 1000);
    cr_chart_range(c, 'y', 1, 1000);
    int other = cr_chart_series(c, "markers", CR_SERIES_POINTS, false);
    int s = cr_chart_series(c, "pts", CR_SERIES_POINTS, true);
    const char *names[] = {"first", "second", "third", "fourth", "fifth"};
    for (int i = 0; i < 5; i++)
        cr_chart_point(c, s, 10, 10, names[i]);
    cr_chart_point(c, s, 990, 100, "right_edge_label");
    double px_x = 3.0 / 774.0, px_y = 3.0 / 530.0; /* decades per pixel */
    cr_chart_point(c, other, 100 * pow(10, 20 * px_x), 100 * pow(10, 8 * px_y), NULL);
    cr_chart_point(c, s, 100, 100, "pushed");
    cr_chart_point(c, other, 100 * pow(10, 20 * px_x), 400 * pow(10, 14 * px_y), NULL);
    cr_chart_point(c, other, 100 * pow(10, 20 * px_x), 400 * pow(10, -14 * px_y), NULL);
    cr_chart_point(c, s, 100, 400, "level");
    /* a name of 120 characters (7 x 120 + 4 = 844 px) is wider than the
     * plot: it is drawn as the number 1, and the list beside the key names
     * it, cut to the key's column (136 - 20 px wide, 6 px a character after
     * 24: 15 characters) */
    char longname[121];
    memset(longname, 'x', 120);
    longname[120] = '\0';
    cr_chart_point(c, s, 100, 10, longname);
    char p[600];
    path_of(p, sizeof p, "labels.png");
    assert_int_equal(cr_chart_render(c, p, NULL, NULL), CR_OK);
    path_of(p, sizeof p, "labels.dat");
    char *dat = slurp(p, NULL);
    assert_non_null(strstr(dat, "10 10 \"first\" NE"));
    assert_non_null(strstr(dat, "10 10 \"second\" SE"));
    assert_non_null(strstr(dat, "10 10 \"third\" NW"));
    assert_non_null(strstr(dat, "10 10 \"fourth\" SW"));
    assert_non_null(strstr(dat, "10 10 \"fifth\" -"));
    assert_non_null(strstr(dat, "990 100 \"right_edge_label\" NW"));
    assert_non_null(strstr(dat, "100 100 \"pushed\" SE"));
    assert_non_null(strstr(dat, "100 400 \"level\" E"));
    char want[200];
    snprintf(want, sizeof want, "100 10 \"%s\" NE \"1\"", longname);
    assert_non_null(strstr(dat, want));
    free(dat);
    /* the title says how many labels were left out */
    path_of(p, sizeof p, "labels.gp");
    char *gp = slurp(p, NULL);
    assert_non_null(strstr(gp, "labels: 8 of 9 points, 1 by number: see the list; the rest"));
    assert_non_null(strstr(gp, "set label \"1 xxxxxxxxxxxxxxx\" at screen"));
    assert_non_null(strstr(gp, "set lmargin at screen 0.09000"));
    free(gp);
    cr_chart_free(c);
}

static void test_render_errors(void **state)
{
    (void)state;
    cr_chart *c = cr_chart_new(CR_CHART_XY, "errors");
    char p[600];
    cr_diag d = {{0}};
    path_of(p, sizeof p, "nodata.png");
    assert_int_equal(cr_chart_render(c, p, "gnuplot", &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "no data"));
    int s = cr_chart_series(c, "s", CR_SERIES_LINE, false);
    cr_chart_point(c, s, 1, 1, NULL);
    cr_chart_point(c, s, 2, 3, NULL);
    memset(&d, 0, sizeof d);
    path_of(p, sizeof p, "chart.jpg");
    assert_int_equal(cr_chart_render(c, p, "gnuplot", &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, ".png or .svg"));
    memset(&d, 0, sizeof d);
    path_of(p, sizeof p, "it's.png");
    assert_int_equal(cr_chart_render(c, p, "gnuplot", &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "may not hold quotes"));
    /* gnuplot fails: a clear error, no image */
    memset(&d, 0, sizeof d);
    path_of(p, sizeof p, "fails.png");
    assert_int_equal(cr_chart_render(c, p, "false", &d), CR_EIO);
    assert_non_null(strstr(d.msg, "failed with status 1"));
    assert_int_not_equal(access(p, F_OK), 0);
    /* gnuplot succeeds but writes nothing */
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_chart_render(c, p, "true", &d), CR_EIO);
    assert_non_null(strstr(d.msg, "no valid image"));
    /* no gnuplot at all */
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_chart_render(c, p, "/nonexistent/gnuplot", &d), CR_EIO);
    assert_non_null(strstr(d.msg, "install gnuplot"));
    /* the child sends exec's errno as digits (no strerror between fork
     * and exec, QA audit of re-entrancy); the message still names it */
    char why[160];
    snprintf(why, sizeof why, "(%s)", strerror(ENOENT));
    assert_non_null(strstr(d.msg, why));
    assert_int_not_equal(access(p, F_OK), 0);
    /* a failed render writes nothing: no data file, no script */
    path_of(p, sizeof p, "fails.dat");
    assert_int_not_equal(access(p, F_OK), 0);
    path_of(p, sizeof p, "fails.gp");
    assert_int_not_equal(access(p, F_OK), 0);
    /* and leaves a chart rendered before exactly as it was: the data file
     * still matches the image beside it */
    path_of(p, sizeof p, "keep.png");
    assert_int_equal(cr_chart_render(c, p, "gnuplot", &d), CR_OK);
    path_of(p, sizeof p, "keep.dat");
    char *before = slurp(p, NULL);
    cr_chart_point(c, s, 5, 7, NULL);
    path_of(p, sizeof p, "keep.png");
    assert_int_equal(cr_chart_render(c, p, "false", &d), CR_EIO);
    assert_png(p);
    path_of(p, sizeof p, "keep.dat");
    char *after = slurp(p, NULL);
    assert_string_equal(before, after);
    free(before);
    free(after);
    DIR *dir = opendir(tmpdir);
    struct dirent *ent;
    while ((ent = readdir(dir)) != NULL)
        assert_null(strstr(ent->d_name, ".tmp"));
    closedir(dir);
    /* an unwritable folder: the message names it */
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_chart_render(c, "/nonexistent-dir/x.png", "gnuplot", &d), CR_EIO);
    assert_non_null(strstr(d.msg, "/nonexistent-dir"));
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_chart_render(c, "/nonexistent-dir/x.png", NULL, &d), CR_EIO);
    assert_non_null(strstr(d.msg, "/nonexistent-dir/x.dat"));
    cr_chart_free(c);
}

static void test_image_check(void **state)
{
    (void)state;
    char p[600];
    path_of(p, sizeof p, "fake.png");
    FILE *f = fopen(p, "wb");
    fputs("\x89PNG\r\n\x1a\n", f); /* a signature and nothing else */
    fclose(f);
    cr_diag d = {{0}};
    assert_int_equal(cr_image_check(p, &d), CR_EPARSE);
    path_of(p, sizeof p, "fake.svg");
    f = fopen(p, "wb");
    fputs("<?xml version=\"1.0\"?><html></html>", f);
    fclose(f);
    assert_int_equal(cr_image_check(p, NULL), CR_EPARSE);
    path_of(p, sizeof p, "missing.svg");
    assert_int_equal(cr_image_check(p, NULL), CR_EIO);
}

static void test_html_and_json(void **state)
{
    (void)state;
    cr_chart *c = cr_chart_new(CR_CHART_BARS, "bars");
    int s = cr_chart_series(c, "a<b", CR_SERIES_LINE, false);
    int k0 = cr_chart_category(c, "x&y");
    int k1 = cr_chart_category(c, "z");
    assert_int_equal(cr_chart_bar(c, s, k0, 42.5), CR_OK);
    assert_int_equal(cr_chart_bar(c, s, 5, 1), CR_EINVAL);
    char *h = NULL;
    assert_int_equal(cr_chart_html_table(c, &h), CR_OK);
    assert_non_null(strstr(h, "<th>a&lt;b</th>"));
    assert_non_null(strstr(h, "<td>x&amp;y</td><td>42.5</td>"));
    assert_non_null(strstr(h, "<td>z</td><td>&ndash;</td>")); /* k1 has no bar */
    free(h);
    json_t *j = chart_json(c);
    json_t *vals = json_object_get(json_array_get(json_object_get(j, "series"), 0), "values");
    assert_close(json_number_value(json_array_get(vals, (size_t)k0)), 42.5, 0, 1e-12);
    assert_true(json_is_null(json_array_get(vals, (size_t)k1)));
    json_decref(j);
    cr_chart_free(c);

    /* an XY chart's table (QA audit, defect 12): byte counts whole, as
     * the nccl-tests log wrote them (2^33 = 8589934592, which %.4g made
     * 8.59e+09, and 2^32 4.295e+09); headers the quantity and the unit of
     * the numbers, not the axis' reading notes */
    c = cr_chart_new(CR_CHART_XY, "error");
    assert_int_equal(cr_chart_axis(c, 'x', "message size (log)", CR_AXIS_LOG), CR_OK);
    assert_int_equal(cr_chart_si_ticks(c, 'x', "B"), CR_OK);
    assert_int_equal(cr_chart_axis(c, 'y', "bus bandwidth (GB/s)", CR_AXIS_LOG), CR_OK);
    s = cr_chart_series(c, "log", CR_SERIES_POINTS, false);
    assert_int_equal(cr_chart_point(c, s, 8589934592.0, 123.456789, NULL), CR_OK);
    assert_int_equal(cr_chart_point(c, s, 4294967296.0, 120, NULL), CR_OK);
    assert_int_equal(cr_chart_html_table(c, &h), CR_OK);
    assert_non_null(strstr(h, "<th>message size (bytes)</th><th>bus bandwidth (GB/s)</th>"));
    assert_non_null(strstr(h, "<td>8589934592</td><td>123.5</td>"));
    assert_non_null(strstr(h, "<td>4294967296</td><td>120</td>"));
    free(h);
    cr_chart_free(c);
    c = cr_chart_new(CR_CHART_XY, "accuracy");
    assert_int_equal(
        cr_chart_axis(c, 'x', "measured time (log; the unit on each tick)", CR_AXIS_LOG), CR_OK);
    assert_int_equal(cr_chart_si_ticks(c, 'x', "us"), CR_OK);
    assert_int_equal(cr_chart_axis(c, 'y', "predicted / measured time (x)", CR_AXIS_LINEAR), CR_OK);
    s = cr_chart_series(c, "log", CR_SERIES_POINTS, false);
    assert_int_equal(cr_chart_point(c, s, 12.5, 1.1, NULL), CR_OK);
    assert_int_equal(cr_chart_html_table(c, &h), CR_OK);
    assert_non_null(strstr(h, "<th>measured time (us)</th><th>predicted / measured time (x)</th>"));
    assert_non_null(strstr(h, "<td>12.5</td><td>1.1</td>"));
    free(h);
    cr_chart_free(c);
}

/* Tables: the text form is nccl-tests style (# title, # header, # units,
 * fixed-width rows with no spaces inside a cell), CSV quotes per RFC 4180,
 * JSON gives null for a missing number, HTML escapes. */
static void test_table(void **state)
{
    (void)state;
    cr_table *t = cr_table_new("demo table");
    assert_non_null(t);
    assert_int_equal(cr_table_col(t, "name", "", true, 0), 0);
    assert_int_equal(cr_table_col(t, "bound_us", "us", false, 4), 1);
    assert_int_equal(cr_table_note(t, "a note"), CR_OK);
    int r0 = cr_table_row(t), r1 = cr_table_row(t);
    assert_int_equal(cr_table_col(t, "late", "", true, 0), -1); /* after the first row */
    assert_int_equal(cr_table_set_text(t, r0, 0, "a, \"b\" <c>"), CR_OK);
    assert_int_equal(cr_table_set_num(t, r0, 1, 12.3456789), CR_OK);
    assert_int_equal(cr_table_set_text(t, r1, 0, "plain"), CR_OK);
    assert_int_equal(cr_table_set_num(t, r1, 0, 1), CR_EINVAL);   /* a text column */
    assert_int_equal(cr_table_set_text(t, 5, 0, "x"), CR_EINVAL); /* no such row */
    char *txt = NULL;
    assert_int_equal(cr_table_text(t, &txt), CR_OK);
    assert_non_null(strstr(txt, "# demo table\n# a note\n"));
    assert_non_null(strstr(txt, "bound_us\n"));
    assert_non_null(strstr(txt, "us\n"));
    assert_non_null(strstr(txt, "a,_\"b\"_<c>"));
    assert_non_null(strstr(txt, "12.35")); /* 4 significant digits */
    free(txt);
    char stem[600];
    path_of(stem, sizeof stem, "table");
    assert_int_equal(cr_table_write(t, stem, NULL), CR_OK);
    char p[700];
    snprintf(p, sizeof p, "%s.csv", stem);
    char *csv = slurp(p, NULL);
    /* CSV keeps two more significant digits than the text (4 + 2) */
    assert_string_equal(csv, "name,bound_us\n\"a, \"\"b\"\" <c>\",12.3457\nplain,\n");
    free(csv);
    snprintf(p, sizeof p, "%s.json", stem);
    json_error_t je;
    json_t *j = json_load_file(p, 0, &je);
    assert_non_null(j);
    json_t *rows = json_object_get(j, "rows");
    assert_int_equal(json_array_size(rows), 2);
    assert_true(json_is_null(json_object_get(json_array_get(rows, 1), "bound_us")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "units"), "bound_us")),
                        "us");
    json_decref(j);
    char *h = NULL;
    assert_int_equal(cr_table_html(t, &h), CR_OK);
    assert_non_null(strstr(h, "<td>a, &quot;b&quot; &lt;c&gt;</td>"));
    free(h);
    cr_table_free(t);
    cr_table_free(NULL);
}

/* ---- chart kinds ---- */

static void test_roofline(void **state)
{
    (void)state;
    cr_topo *t = fixture();
    /* 8192^3 bf16 GEMM: 2 x 8192^3 = 1.0995e12 FLOP over 3 x 8192^2 x 2 B =
     * 402.7 MB (each matrix once): intensity 2730 FLOP/B; at the 760
     * TFLOP/s measured in hardware.md it takes 1.447 ms. */
    cr_roof_point meas[] = {{"gemm 8192^3 bf16", 1.0995e12, 402.65e6, 1.4467e-3},
                            {"copy 1GiB", 0, 2.147e9, 5.07e-4}};
    cr_roof_point pred[] = {{"gemm 8192^3 bf16", 1.0995e12, 402.65e6, 1.25e-3}};
    cr_roof_set sets[] = {{"measured", true, true, meas, 2}, {"predicted", false, true, pred, 1}};
    cr_chart *c = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_plot_roofline(t, 0, sets, 2, &c, &d), CR_OK);
    json_t *j = chart_json(c);
    /* the HBM ceiling ends where it meets the top peak (FP8 1979 TFLOP/s):
     * x = 1979e12 / 4.8e12 = 412.3 FLOP/B, y = 1979 TFLOP/s */
    json_t *hbm = series_named(j, "HBM");
    assert_close(pt_coord(hbm, 1, "x"), 1979e12 / 4.8e12, 1e-9, 0);
    assert_close(pt_coord(hbm, 1, "y"), 1979, 1e-9, 0);
    /* BF16 and FP16 share one line starting at its knee 989/4.8 = 206 */
    json_t *bf = series_named(j, "BF16/FP16");
    assert_close(pt_coord(bf, 0, "x"), 989.0 / 4.8, 1e-9, 0);
    assert_close(pt_coord(bf, 0, "y"), 989, 1e-9, 0);
    series_named(j, "FP64/FP32");
    /* fp32 matrix products at the rate the bound takes for them, above the
     * native 67 TFLOP/s: this GPU has no int8 peak, so 3xTF32, 494 / 3
     * (doc/bounds.md 1.10) */
    json_t *e32 = series_named(j, "FP32 matrix products emulated");
    assert_close(pt_coord(e32, 0, "y"), 494.0 / 3, 1e-3, 0);
    /* the measured GEMM: 1.0995e12 / 1.4467e-3 = 760 TFLOP/s; the copy has
     * no FLOPs and is left out */
    json_t *m = series_named(j, "measured");
    assert_int_equal(json_array_size(json_object_get(m, "points")), 1);
    assert_close(pt_coord(m, 0, "y"), 1.0995e12 / 1.4467e-3 / 1e12, 1e-9, 0);
    json_decref(j);
    render_both(c, "roofline");
    cr_chart_free(c);

    assert_int_equal(cr_plot_roofline(t, 8, NULL, 0, &c, &d), CR_EINVAL);
    assert_null(c);
    assert_non_null(strstr(d.msg, "out of range"));
    cr_topo_free(t);

    /* a suite none of whose problems communicates on one GPU: the
     * communication roofline has its ceilings alone and says why (it drew
     * them without a word) */
    assert_int_equal(cr_topo_open("h200-1", &t, &d), CR_OK);
    cr_plot_sources src = {.suite = "pkb"};
    assert_int_equal(cr_plot_roofline_from(t, 0, &src, true, &c, &d), CR_OK);
    j = chart_json(c);
    const char *sub = json_string_value(json_object_get(j, "subtitle"));
    assert_non_null(sub);
    assert_non_null(
        strstr(sub, "no problem of suite pkb communicates on h200-1: the ceilings alone"));
    json_decref(j);
    cr_chart_free(c);
    /* the HBM roofline of the same suite has points, and no such line */
    assert_int_equal(cr_plot_roofline_from(t, 0, &src, false, &c, &d), CR_OK);
    j = chart_json(c);
    sub = json_string_value(json_object_get(j, "subtitle"));
    assert_true(!sub || !strstr(sub, "no problem of suite"));
    json_decref(j);
    cr_chart_free(c);
    cr_topo_free(t);

    /* a peak of 10,000 TFLOP/s or more is named in PFLOP/s (GB200's FP4
     * was "1e+04 TFLOP/s"), below in TFLOP/s */
    assert_int_equal(cr_topo_open("gb200-nvl72", &t, &d), CR_OK);
    assert_int_equal(cr_plot_roofline(t, 0, NULL, 0, &c, &d), CR_OK);
    j = chart_json(c);
    series_named(j, "FP4 10 PFLOP/s");
    series_named(j, "FP8/INT8 5000 TFLOP/s");
    json_decref(j);
    cr_chart_free(c);
    cr_topo_free(t);
}

static void test_comm_ceilings(void **state)
{
    (void)state;
    cr_topo *t = fixture();
    cr_comm_ceilings cc;
    assert_int_equal(cr_plot_comm_ceilings(t, 3, NULL, &cc, NULL), CR_OK);
    /* 18 links x 25 GB/s = 450 GB/s per direction */
    assert_close(cc.scaleup_Bps, 450e9, 1e-12, 0);
    assert_string_equal(cc.scaleup_kind, "NVLink");
    /* in-switch reduction over 8 GPUs: the allreduce bound crosses each
     * GPU's port cut once each way (S out, S in; doc/bounds.md 1.2), and
     * that cut holds the NVLinks and the PCIe link (1.7): algbw = 450 + 63
     * = 513 GB/s, busbw = 2 x 7/8 x 513 = 897.75 GB/s (64 GiB: the latency
     * term is under 1e-5 of it) */
    assert_int_equal(cc.scaleup_gpus, 8);
    assert_close(cc.in_switch_Bps, 2.0 * 7.0 / 8.0 * 513e9, 1e-4, 0);
    /* ... the bound's figure, which the ceilings table names as its source
     * (it said "scale-up x 2(n-1)/n": 787.5 GB/s here) */
    assert_true(cc.in_switch_from_bound);
    /* one Gen5 x16 link per GPU */
    assert_close(cc.pcie_Bps, 63e9, 1e-12, 0);
    /* 8 NICs x 50 GB/s shared by 8 GPUs */
    assert_close(cc.net_Bps, 50e9, 1e-12, 0);
    assert_string_equal(cc.net_kind, "InfiniBand");
    assert_false(cc.one_node);

    /* among GPUs 0 and 1 only (QA audit, defect 8: a tp=2 suite's chart
     * said "8 GPUs", 897.7 GB/s): the allreduce bound over 2 ranks crosses
     * the same 513 GB/s port cut, busbw factor 2 x 1/2 = 1: 513 GB/s; both
     * on one node, so no network ceiling, though the node has NICs */
    cr_rankset *two = NULL;
    assert_int_equal(cr_rankset_parse("0,1", 8, &two, NULL), CR_OK);
    cr_comm_ceilings c2;
    assert_int_equal(cr_plot_comm_ceilings(t, 0, two, &c2, NULL), CR_OK);
    assert_int_equal(c2.scaleup_gpus, 2);
    assert_close(c2.in_switch_Bps, 513e9, 1e-4, 0);
    assert_close(c2.net_Bps, 0, 0, 0);
    assert_true(c2.one_node);
    cr_chart *c = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_plot_comm_roofline(t, 0, two, NULL, 0, &c, &d), CR_OK);
    json_t *j = chart_json(c);
    series_named(j, "NVLink + in-switch reduction 513 GB/s (allreduce bound, 2 GPUs)");
    series_named(j, "InfiniBand NDR 50 GB/s per GPU (reference: no inter-node fabric among these "
                    "ranks)");
    json_decref(j);
    cr_chart_free(c);
    c = NULL;
    cr_rankset_free(two);

    /* ring allreduce-like GEMM+AR: 2 x 1024 x 1024 x 512 FLOP over 2 x 7/8 x
     * 2 MiB bus bytes; the times are illustrative */
    cr_roof_point pts[] = {{"gemm+allreduce 1024", 1.0737e9, 3.67e6, 40e-6},
                           {"allgather+gemm 1024", 1.0737e9, 1.835e6, 25e-6}};
    cr_roof_set sets[] = {{"baseline", false, true, pts, 2}};
    assert_int_equal(cr_plot_comm_roofline(t, 0, NULL, sets, 1, &c, &d), CR_OK);
    j = chart_json(c);
    json_t *nv = series_named(j, "NVLink 450");
    /* the NVLink ceiling meets the FP8 peak at 1979e12 / 450e9 FLOP/B */
    assert_close(pt_coord(nv, 1, "x"), 1979e12 / 450e9, 1e-9, 0);
    series_named(j, "NVLink + in-switch reduction 897.7");
    series_named(j, "PCIe 63");
    series_named(j, "InfiniBand 50");
    json_decref(j);
    render_both(c, "comm-roofline");
    cr_chart_free(c);
    cr_topo_free(t);
}

static void test_gap(void **state)
{
    (void)state;
    cr_gap_row rows[] = {
        {"allreduce", 10e-6, 40e-6, 12e-6, {0, NAN}},
        {"gemm+reducescatter", 20e-6, 30e-6, 25e-6, {50e-6, 80e-6}},
        {"ring-attention", 100e-6, 500e-6, 110e-6, {0, 80e-6}},
    };
    const char *mnames[] = {"measured: baseline", "measured: overlap, 4 chunks"};
    cr_chart *c = NULL;
    cr_diag d = {{0}};
    assert_int_equal(
        cr_plot_gap("test suite on fixture", "results.json", mnames, 2, rows, 3, &c, &d), CR_OK);
    json_t *j = chart_json(c);
    /* % of roofline = bound / time x 100: 10 / 40 = 25%, 20 / 50 = 40%,
     * 20 / 80 = 25%; ring-attention's 80 us overlap is under its 100 us
     * bound: 125%, an impossible time the chart must still show */
    json_t *b = series_named(j, "model: baseline");
    assert_close(json_number_value(json_array_get(json_object_get(b, "values"), 0)), 25, 1e-12, 0);
    json_t *m = series_named(j, "measured: baseline");
    assert_true(json_is_null(json_array_get(json_object_get(m, "values"), 0)));
    assert_close(json_number_value(json_array_get(json_object_get(m, "values"), 1)), 40, 1e-12, 0);
    json_t *o = series_named(j, "measured: overlap");
    assert_true(json_is_null(json_array_get(json_object_get(o, "values"), 0)));
    assert_close(json_number_value(json_array_get(json_object_get(o, "values"), 1)), 25, 1e-12, 0);
    assert_close(json_number_value(json_array_get(json_object_get(o, "values"), 2)), 125, 1e-12, 0);
    json_decref(j);
    render_both(c, "gap");
    /* the value axis reaches past 125% (x 1.1, rounded up to 10: 140) and
     * the caption says where the measured times come from */
    char p[600];
    path_of(p, sizeof p, "gap.gp");
    char *gp = slurp(p, NULL);
    assert_non_null(strstr(gp, "[0:140]"));
    assert_non_null(strstr(gp, "measured: results.json"));
    free(gp);
    cr_chart_free(c);
    assert_int_equal(cr_plot_gap(NULL, NULL, mnames, CR_GAP_MAX_MEASURED + 1, rows, 3, &c, &d),
                     CR_EINVAL);
    rows[1].bound_s = 0;
    d.msg[0] = '\0';
    assert_int_equal(cr_plot_gap(NULL, NULL, NULL, 0, rows, 3, &c, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "gemm+reducescatter"));
}

/* cr_plot_gap_of, as the program roofline uses it: no baseline nor
 * prediction (neither series in the chart), the thing named in the title
 * and the x axis, and a long first label given room on the left. */
static void test_gap_of(void **state)
{
    (void)state;
    /* 13 operators, as the report draws (12 and the rest summed) */
    cr_gap_row rows[13];
    for (int i = 0; i < 13; i++)
        rows[i] = (cr_gap_row){"mm 4096x1024", 20e-6, 0, 0, {25e-6, 20e-6}};
    rows[0] = (cr_gap_row){"_log_softmax 4096x8192 extra words", 10e-6, 0, 0, {40e-6, 20e-6}};
    const char *mnames[] = {"measured", "cold bound"};
    cr_chart *c = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_plot_gap_of("operator", "ctx", NULL, mnames, 2, rows, 13, &c, &d), CR_OK);
    json_t *j = chart_json(c);
    assert_int_equal(cr_chart_n_series(c), 2);
    /* 10 / 40 = 25%, 10 / 20 = 50% */
    json_t *m = series_named(j, "measured");
    assert_close(json_number_value(json_array_get(json_object_get(m, "values"), 0)), 25, 1e-12, 0);
    json_t *cb = series_named(j, "cold bound");
    assert_close(json_number_value(json_array_get(json_object_get(cb, "values"), 0)), 50, 1e-12, 0);
    json_decref(j);
    render_both(c, "gap-of");
    char p[600];
    path_of(p, sizeof p, "gap-of.gp");
    char *gp = slurp(p, NULL);
    assert_non_null(strstr(gp, "per operator"));
    /* 34 characters rotated 45 degrees: about 180 px, more than the 70 px
     * axis margin and 0.6 of a category (of about 50 px) */
    assert_non_null(strstr(gp, "set lmargin "));
    free(gp);
    cr_chart_free(c);
    /* the suite's chart keeps gnuplot's margin for its short names */
    rows[0].name = "allreduce";
    assert_int_equal(cr_plot_gap_of("operator", "ctx", NULL, mnames, 2, rows, 13, &c, &d), CR_OK);
    render_both(c, "gap-of-short");
    path_of(p, sizeof p, "gap-of-short.gp");
    gp = slurp(p, NULL);
    assert_null(strstr(gp, "set lmargin "));
    free(gp);
    cr_chart_free(c);
}

/* Characters (not bytes) of a UTF-8 string. */
static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Tick labels of 100-character category names (QA audit: the suite's
 * names squeezed the plot to a strip, the report's horizontal chart too):
 * each drawn label at most CR_CHART_LABEL_CHARS characters ending in an
 * ellipsis, the data file keeping the whole names, the left margin within
 * a third of the image; cr_chart_short_label never cuts a UTF-8 sequence. */
static void test_long_labels(void **state)
{
    (void)state;
    char out[200];
    const char *forty = "0123456789012345678901234567890123456789";
    assert_false(cr_chart_short_label(forty, CR_CHART_LABEL_CHARS, out, sizeof out));
    assert_string_equal(out, forty);
    assert_true(cr_chart_short_label("01234567890123456789012345678901234567890",
                                     CR_CHART_LABEL_CHARS, out, sizeof out));
    /* 39 characters and the ellipsis (3 bytes) */
    assert_string_equal(out, "012345678901234567890123456789012345678\xE2\x80\xA6");
    assert_int_equal(utf8_chars(out), CR_CHART_LABEL_CHARS);
    /* "\xC3\xA9" (e acute) counts once; a cut lands between sequences */
    assert_true(cr_chart_short_label("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 3, out, sizeof out));
    assert_string_equal(out, "\xC3\xA9\xC3\xA9\xE2\x80\xA6");
    assert_true(cr_chart_short_label("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 3, out, 7));
    assert_string_equal(out, "\xC3\xA9\xE2\x80\xA6"); /* 6 bytes and the NUL */

    enum { NP = 6, NT = 2 };
    char names[NP][120];
    const char *probs[NP];
    for (int k = 0; k < NP; k++) {
        snprintf(names[k], sizeof names[k], "problem_%d_%s", k,
                 "with_a_very_long_descriptive_suffix_naming_shapes_dtype_and_layout_m1024_n1024_"
                 "k512_bf16_rowmajor");
        probs[k] = names[k];
    }
    const char *topos[NT] = {"hgx-h100-8", "hgx-h200-8"};
    for (int np = NP; np <= 30; np += 24) {
        /* 6 problems x 2 machines stand up; 30 x 2 lie down (> 48 bars) */
        double vv[NT * 30];
        const char *pp[30];
        for (int i = 0; i < NT * np; i++)
            vv[i] = (1 + i % 7) * 1e-6;
        for (int k = 0; k < np; k++)
            pp[k] = probs[k % NP];
        cr_chart *c = NULL;
        assert_int_equal(
            cr_plot_compare("long", CR_COMPARE_BOUND_US, topos, NT, pp, np, vv, &c, NULL), CR_OK);
        const char *stem = np == NP ? "long-labels" : "long-labels-h";
        render_both(c, stem);
        char p[600], f[64];
        snprintf(f, sizeof f, "%s.gp", stem);
        path_of(p, sizeof p, f);
        char *gp = slurp(p, NULL);
        const char *tics = strstr(gp, np == NP ? "set xtics (\"" : "set ytics nomirror");
        assert_non_null(tics);
        /* every quoted label of the category tics: 40 characters at most */
        const char *q = strchr(tics, '(');
        int labels = 0;
        while ((q = strchr(q + 1, '"')) != NULL && q < strchr(tics, ')')) {
            const char *e = strchr(q + 1, '"');
            char lab[200];
            snprintf(lab, sizeof lab, "%.*s", (int)(e - q - 1), q + 1);
            assert_true(utf8_chars(lab) <= CR_CHART_LABEL_CHARS);
            assert_non_null(strstr(lab, "\xE2\x80\xA6"));
            labels++;
            q = e;
        }
        assert_int_equal(labels, np);
        const char *lm = strstr(gp, "set lmargin at screen ");
        if (np == NP) {
            assert_non_null(lm);
            assert_true(atof(lm + strlen("set lmargin at screen ")) <= 1.0 / 3.0 + 1e-9);
        }
        free(gp);
        snprintf(f, sizeof f, "%s.dat", stem);
        path_of(p, sizeof p, f);
        char *dat = slurp(p, NULL);
        assert_non_null(strstr(dat, names[0]));
        free(dat);
        cr_chart_free(c);
    }
}

static void test_compare(void **state)
{
    (void)state;
    const char *topos[] = {"hgx-h100-8", "hgx-h200-8", "hgx-b200-8"};
    const char *probs[] = {"allreduce", "gemm+ar", "moe"};
    double bound_s[] = {10e-6, 20e-6, 300e-6, 9e-6, 18e-6, 280e-6, 5e-6, 10e-6, 140e-6};
    cr_chart *c = NULL;
    assert_int_equal(
        cr_plot_compare("pkb", CR_COMPARE_BOUND_US, topos, 3, probs, 3, bound_s, &c, NULL), CR_OK);
    json_t *j = chart_json(c);
    /* topology 1 (h200), problem 2: 280 us */
    json_t *s = series_named(j, "hgx-h200-8");
    assert_close(json_number_value(json_array_get(json_object_get(s, "values"), 2)), 280, 1e-12, 0);
    /* 5 us .. 300 us spans under two decades, and the axis is still the
     * log one its label names (QA audit: it came out linear under "log") */
    assert_true(json_is_true(json_object_get(j, "y_log")));
    assert_non_null(strstr(json_string_value(json_object_get(j, "y_label")), "log"));
    json_decref(j);
    render_both(c, "compare-bound");
    char p[600];
    path_of(p, sizeof p, "compare-bound.gp");
    char *gp = slurp(p, NULL);
    assert_non_null(strstr(gp, "set logscale y"));
    /* the bars' range, 0.9 us (a tenth under the decade of 5 us) to 1 ms
     * (the decade over 1.5 x 300 us): three decades, one label each */
    assert_non_null(strstr(gp,
                           "set ytics (\"100 ns\" 0.1, \"1 us\" 1, \"10 us\" 10, \"100 us\" 100, "
                           "\"1 ms\" 1000)"));
    free(gp);
    /* the ticks carry the unit ("1 ms"), so the numbers' readers are told
     * theirs: the bars are in us (the data file and the HTML table said
     * "bound time (log; the unit on each tick)", no unit at all) */
    path_of(p, sizeof p, "compare-bound.dat");
    char *dat = slurp(p, NULL);
    assert_non_null(strstr(dat, "# columns: 1 = category; then one column per series, in bound "
                                "time (log; the unit on each tick) (us)\n"));
    assert_non_null(strstr(dat, "\"moe\" 300 280 140\n"));
    free(dat);
    char *html = NULL;
    assert_int_equal(cr_chart_html_table(c, &html), CR_OK);
    assert_non_null(strstr(html, "values: bound time (log; the unit on each tick) (us)<"));
    free(html);
    cr_chart_free(c);
    /* one problem from 1.7 to 6.1 us (plot compare of tp_gemm_allreduce on
     * six machines): 0.9 to 10 us, with 2 and 5 between the decades */
    double one[] = {6.1e-6, 1.7e-6, 4.3e-6};
    assert_int_equal(cr_plot_compare(NULL, CR_COMPARE_BOUND_US, topos, 3, probs, 1, one, &c, NULL),
                     CR_OK);
    render_both(c, "compare-one");
    path_of(p, sizeof p, "compare-one.gp");
    gp = slurp(p, NULL);
    assert_non_null(strstr(gp, "set ytics (\"100 ns\" 0.1, \"1 us\" 1, \"2 us\" 2, \"5 us\" 5, "
                               "\"10 us\" 10)"));
    free(gp);
    cr_chart_free(c);
    /* headroom from 1.5x to 97x: log too (linear left the small bars a
     * few pixels tall) */
    double head[] = {3, 2, 1.5, 3.2, 2.1, 1.6, 97, 2.5, 2};
    assert_int_equal(cr_plot_compare(NULL, CR_COMPARE_HEADROOM, topos, 3, probs, 3, head, &c, NULL),
                     CR_OK);
    j = chart_json(c);
    assert_true(json_is_true(json_object_get(j, "y_log")));
    assert_non_null(strstr(json_string_value(json_object_get(j, "y_label")), "log"));
    json_decref(j);
    render_both(c, "compare-headroom");
    cr_chart_free(c);
}

/* Renders bar chart c as STEM.png and .svg (render_both) and returns its
 * script, whose bars are upright (a histogram) or lying (boxxyerror) as
 * asked; the caller frees it. */
static char *render_bars_script(const cr_chart *c, const char *stem, bool upright)
{
    render_both(c, stem);
    char p[600], gpname[64];
    snprintf(gpname, sizeof gpname, "%s.gp", stem);
    path_of(p, sizeof p, gpname);
    char *gp = slurp(p, NULL);
    assert_non_null(strstr(gp, upright ? "histogram" : "boxxyerror"));
    return gp;
}

/* The style (colour and fill) gnuplot draws series `name`'s bars in: the
 * text from "lc rgb" to " title" on the plot line that names it. */
static void bar_style_of(const char *gp, const char *name, char *out, size_t n)
{
    char want[300];
    snprintf(want, sizeof want, "title \"%s\"", name);
    const char *t = strstr(gp, want);
    assert_non_null(t);
    const char *line = t;
    while (line > gp && line[-1] != '\n')
        line--;
    const char *lc = strstr(line, "lc rgb");
    assert_true(lc && lc < t);
    snprintf(out, n, "%.*s", (int)(t - lc), lc);
}

/* plot compare takes 16 machines and the palette has 12 colours: every
 * machine's bars look different from every other's, upright (13 bars) and
 * lying down (4 problems x 16 = 64 bars). The 13th machine's bars were
 * drawn exactly as the 1st's (solid #0072B2), so two machines read as one. */
static void test_bars_distinct_past_palette(void **state)
{
    (void)state;
    enum { NT = 16 };
    char names[NT][16];
    const char *topos[NT];
    for (int i = 0; i < NT; i++) {
        snprintf(names[i], sizeof names[i], "m%d", i);
        topos[i] = names[i];
    }
    const char *probs[4] = {"p0", "p1", "p2", "p3"};
    double v[NT * 4];
    for (int i = 0; i < NT * 4; i++)
        v[i] = (1 + i % 5) * 1e-6;
    for (int np = 1; np <= 4; np += 3) {
        double vv[NT * 4];
        for (int t = 0; t < NT; t++)
            for (int k = 0; k < np; k++)
                vv[t * np + k] = v[t * 4 + k];
        cr_chart *c = NULL;
        assert_int_equal(
            cr_plot_compare(NULL, CR_COMPARE_BOUND_US, topos, NT, probs, np, vv, &c, NULL), CR_OK);
        const char *stem = np == 1 ? "many-up" : "many-down";
        char *gp = render_bars_script(c, stem, np == 1);
        char style[NT][200];
        for (int i = 0; i < NT; i++)
            bar_style_of(gp, names[i], style[i], sizeof style[i]);
        for (int i = 0; i < NT; i++)
            for (int j = i + 1; j < NT; j++)
                if (strcmp(style[i], style[j]) == 0)
                    fail_msg("%s: machines %s and %s drawn alike: %s", stem, names[i], names[j],
                             style[i]);
        free(gp);
        cr_chart_free(c);
    }
}

/* A machine named by a long path (plot compare --topo DIR/FILE.xml): the
 * key goes under the bars, as on the XY charts, and the image is as wide
 * as the name. On the right (gnuplot: "difficulty fitting plot titles into
 * key") the key fell off the image: the chart named neither machine. */
static void test_bars_long_machine_name(void **state)
{
    (void)state;
    const char *longname = "/srv/clusters/generated/two_nodes_of_hgx_h200_8_on_a_rail_"
                           "optimised_fat_tree_with_sharp.xml";
    const char *topos[2] = {"hgx-h200-8", longname};
    char pn[30][16];
    const char *probs[30];
    for (int k = 0; k < 30; k++) {
        snprintf(pn[k], sizeof pn[k], "p%d", k);
        probs[k] = pn[k];
    }
    double v[60];
    for (int i = 0; i < 60; i++)
        v[i] = (1 + i % 7) * 1e-6;
    /* 1 problem: upright bars; 30 problems x 2 = 60 bars: lying down */
    for (int np = 1; np <= 30; np += 29) {
        cr_chart *c = NULL;
        assert_int_equal(
            cr_plot_compare(NULL, CR_COMPARE_BOUND_US, topos, 2, probs, np, v, &c, NULL), CR_OK);
        const char *stem = np == 1 ? "longname-up" : "longname-down";
        char *gp = render_bars_script(c, stem, np == 1);
        assert_null(strstr(gp, "set key outside right"));
        assert_non_null(strstr(gp, "set key outside center bottom horizontal"));
        /* the image holds the name: 8 px a character and the key sample */
        const char *sz = strstr(gp, "pngcairo size ");
        assert_non_null(sz);
        int w = atoi(sz + strlen("pngcairo size "));
        assert_true(w >= (int)strlen(longname) * 8 + 100);
        free(gp);
        cr_chart_free(c);
    }
}

/* 10 problems x 5 machines = 50 bars (> 48): the chart lies down, with
 * the categories as y tick labels, and still renders. */
static void test_horizontal_bars(void **state)
{
    (void)state;
    const char *topos[5] = {"a", "b", "c", "d", "e"};
    const char *probs[10] = {"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"};
    double v[50];
    for (int i = 0; i < 50; i++)
        v[i] = (1 + i % 7) * 1e-6 * pow(10, i % 4); /* 1 us .. 7 ms: log axis */
    for (int k = 0; k < 10; k++)
        v[4 * 10 + k] = NAN; /* machine "e" runs none of the problems */
    cr_chart *c = NULL;
    assert_int_equal(cr_plot_compare(NULL, CR_COMPARE_BOUND_US, topos, 5, probs, 10, v, &c, NULL),
                     CR_OK);
    render_both(c, "hbars");
    char p[600];
    path_of(p, sizeof p, "hbars.gp");
    char *gp = slurp(p, NULL);
    assert_non_null(strstr(gp, "with boxxyerror"));
    assert_non_null(strstr(gp, "\"p9\" 9"));
    assert_non_null(strstr(gp, "set logscale x"));
    /* the time axis reads in time units, one label a decade, bottom and
     * top (it printed 1e+06 at a second) */
    const char *xt = strstr(gp, "set xtics (");
    assert_non_null(xt);
    assert_non_null(strstr(xt, "\"1 us\" 1, \"10 us\" 10, \"100 us\" 100, \"1 ms\" 1000"));
    assert_non_null(strstr(gp, "set x2tics ("));
    assert_null(strstr(gp, "e+0"));
    /* a machine without a bar keeps its key entry (gnuplot skips a data
     * set with no valid point, and its name with it) */
    assert_non_null(strstr(gp, "NaN with boxes lc rgb \"#"));
    assert_non_null(strstr(gp, "title \"e (no bar: none of these)\""));
    free(gp);
    cr_chart_free(c);
}

/* A key on the right with more entries than the plot area holds: gnuplot
 * would wrap it into a second column past the image's edge (the report's
 * corpus chart showed 12 of its 29 systems); the image grows so that the
 * plot area holds every entry in one column, 20 px or more each. */
static void test_tall_key_fits(void **state)
{
    (void)state;
    cr_chart *c = cr_chart_new(CR_CHART_XY, "many systems");
    assert_int_equal(cr_chart_axis(c, 'x', "size", CR_AXIS_LOG), CR_OK);
    enum { N = 32 };
    for (int i = 0; i < N; i++) {
        char name[16];
        snprintf(name, sizeof name, "sys-%02d", i);
        int s = cr_chart_series(c, name, CR_SERIES_POINTS, false);
        assert_int_equal(cr_chart_point(c, s, 1 + i, 1 + i % 3, NULL), CR_OK);
    }
    char p[600];
    path_of(p, sizeof p, "tallkey.png");
    cr_diag d = {{0}};
    assert_int_equal(cr_chart_render(c, p, NULL, &d), CR_OK);
    path_of(p, sizeof p, "tallkey.gp");
    char *gp = slurp(p, NULL);
    assert_non_null(gp);
    assert_non_null(strstr(gp, "set key at screen")); /* on the right */
    int w = 0, h = 0;
    const char *t = strstr(gp, "pngcairo size ");
    assert_non_null(t);
    assert_int_equal(sscanf(t, "pngcairo size %d,%d", &w, &h), 2);
    double top = 0, bottom = 0;
    const char *tm = strstr(gp, "set tmargin at screen "),
               *bm = strstr(gp, "set bmargin at screen ");
    assert_true(tm && bm);
    assert_int_equal(sscanf(tm, "set tmargin at screen %lf", &top), 1);
    assert_int_equal(sscanf(bm, "set bmargin at screen %lf", &bottom), 1);
    double area_px = (top - bottom) * h;
    assert_true(area_px >= 20.0 * N);
    free(gp);
    cr_chart_free(c);
}

/* The y of the baseline of the SVG text element whose text starts with
 * prefix, lowest (max) or highest (min) on the page among all that do;
 * NAN when none. gnuplot's svg terminal writes each text as
 * <g transform="translate(X,Y)" ...> then <text>TEXT</text>. */
static double svg_text_y(const char *svg, const char *prefix, bool lowest)
{
    double best = NAN;
    for (const char *q = svg; (q = strstr(q, "translate(")) != NULL; q++) {
        double x, y;
        if (sscanf(q, "translate(%lf,%lf)", &x, &y) != 2)
            continue;
        const char *t = strstr(q, "<text>"), *next = strstr(q + 1, "translate(");
        if (!t || (next && next < t) || strncmp(t + 6, prefix, strlen(prefix)) != 0)
            continue;
        if (isnan(best) || (lowest ? y > best : y < best))
            best = y;
    }
    return best;
}

/* The SVG keeps the PNG's layout: a key under the plot and the numbered
 * list under it do not overlap. The layout is computed in pixels for the
 * 11 pt PNG font; the SVG was drawn at 13 pt and its key ran 15 px into
 * the list (the report's roofline.svg: "FP64/FP32" over "1
 * single_elementwise_add"). */
static void test_svg_layout(void **state)
{
    (void)state;
    cr_chart *c = cr_chart_new(CR_CHART_XY, "svg layout");
    cr_chart_axis(c, 'x', "x", CR_AXIS_LOG);
    cr_chart_axis(c, 'y', "y", CR_AXIS_LOG);
    cr_chart_range(c, 'x', 1, 1000);
    cr_chart_range(c, 'y', 1, 1000);
    for (int i = 0; i < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "key entry %d with a name too long for the right", i);
        int s = cr_chart_series(c, name, CR_SERIES_LINE, false);
        cr_chart_point(c, s, 1, 10 * (i + 1), NULL);
        cr_chart_point(c, s, 1000, 10 * (i + 1), NULL);
    }
    int s = cr_chart_series(c, "pts", CR_SERIES_POINTS, true);
    for (int i = 0; i < 3; i++) { /* wider than the plot: drawn as numbers, named in the list */
        char name[160];
        snprintf(name, sizeof name, "listed_point_%d_%0120d", i, 0);
        cr_chart_point(c, s, 10 + 300 * i, 100, name);
    }
    render_both(c, "svglayout");
    char p[600];
    path_of(p, sizeof p, "svglayout.gp");
    char *gp = slurp(p, NULL);
    assert_non_null(strstr(gp, "set label \"1 listed_point_")); /* the list exists */
    free(gp);
    path_of(p, sizeof p, "svglayout.svg");
    char *svg = slurp(p, NULL);
    assert_non_null(svg);
    double key = svg_text_y(svg, "key entry 4", true), list = svg_text_y(svg, "1 listed", false);
    assert_true(key == key); /* not NaN */
    assert_true(list == list);
    /* the list's first line (8 pt, about 8 px above its baseline) starts
     * below the key's last entry's baseline */
    assert_true(key < list - 8.0);
    free(svg);
    cr_chart_free(c);
}

static void test_accuracy(void **state)
{
    (void)state;
    cr_acc_point pts[] = {
        {"gemm", "8192 bf16", 1.25e-3, 1.40e-3},
        {"gemm", "4096 bf16", 0.17e-3, 0.19e-3},
        {"hbm", "copy 1GiB", 0.45e-3, 0.50e-3},
        {"hbm", "copy 1MiB", 3e-6, 4.1e-6},
        {"launch", "empty", 0, 2e-6}, /* no prediction: left out */
    };
    cr_chart *c = NULL;
    assert_int_equal(cr_plot_accuracy("fixture", pts, 5, &c, NULL), CR_OK);
    json_t *j = chart_json(c);
    json_t *g = series_named(j, "gemm");
    /* x measured, y predicted, in us */
    assert_close(pt_coord(g, 0, "x"), 1400, 1e-9, 0);
    assert_close(pt_coord(g, 0, "y"), 1250, 1e-9, 0);
    json_t *band = series_named(j, "within");
    double x0 = pt_coord(band, 0, "x");
    assert_close(pt_coord(band, 0, "y_high"), 1.1 * x0, 1e-12, 0);
    json_decref(j);
    render_both(c, "accuracy");
    cr_chart_free(c);
    assert_int_equal(cr_plot_accuracy(NULL, pts + 4, 1, &c, NULL), CR_EINVAL);
    /* the ratio view: y = predicted / measured, 1.25 / 1.40 = 0.8929 for
     * the first GEMM; |errors| 0.1071, 0.1053, 0.1, 0.2683: median
     * (0.1053 + 0.1071) / 2 = 10.6% */
    assert_int_equal(cr_plot_accuracy_ratio("fixture", pts, 5, &c, NULL), CR_OK);
    j = chart_json(c);
    g = series_named(j, "gemm");
    assert_close(pt_coord(g, 0, "x"), 1400, 1e-9, 0);
    assert_close(pt_coord(g, 0, "y"), 1.25 / 1.40, 1e-9, 0);
    band = series_named(j, "within");
    assert_close(pt_coord(band, 0, "y_low"), 0.9, 1e-12, 0);
    assert_close(pt_coord(band, 0, "y_high"), 1.1, 1e-12, 0);
    assert_non_null(strstr(json_string_value(json_object_get(j, "title")), "Prediction error"));
    json_decref(j);
    render_both(c, "accuracy-ratio");
    char p[600];
    path_of(p, sizeof p, "accuracy-ratio.gp");
    char *gp = slurp(p, NULL);
    assert_non_null(strstr(gp, "median |error| 10.6%"));
    free(gp);
    cr_chart_free(c);
    assert_int_equal(cr_plot_accuracy_ratio(NULL, pts + 4, 1, &c, NULL), CR_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_and_script),
        cmocka_unit_test(test_gnuplot_quote),
        cmocka_unit_test(test_shell_word),
        cmocka_unit_test(test_label_placement),
        cmocka_unit_test(test_render_errors),
        cmocka_unit_test(test_image_check),
        cmocka_unit_test(test_html_and_json),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_roofline),
        cmocka_unit_test(test_comm_ceilings),
        cmocka_unit_test(test_gap),
        cmocka_unit_test(test_gap_of),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_accuracy),
        cmocka_unit_test(test_horizontal_bars),
        cmocka_unit_test(test_bars_distinct_past_palette),
        cmocka_unit_test(test_bars_long_machine_name),
        cmocka_unit_test(test_tall_key_fits),
        cmocka_unit_test(test_svg_layout),
        cmocka_unit_test(test_long_labels),
        cmocka_unit_test(test_byte_ticks),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
