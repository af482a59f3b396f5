/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for `commroof calibrate --nccl-tests` past the log
 * reader: the rows of one nccl-tests log fitted on a four-node H100
 * cluster (h100-ib-4n: rows on one node and across nodes), the fit written
 * into the topology and the topology through its XML and back, as
 * calibrate -o does. tests/fuzz/build.sh builds it; test_calibrate_nccl.c
 * replays tests/fuzz/corpus/calibrate_nccl/ through this same function.
 * fuzz-max-len: 8192
 * fuzz-seeds: tests/fixtures/nccl-tests/calib tests/fixtures/nccl-tests validate/corpus/h100-8
 *
 * Input: an nccl-tests log (one of more than 24 result rows is passed over:
 * a fit takes seconds under the sanitizers).
 *
 * Properties: no crash, leak or undefined behaviour; a row the fit cannot
 * take is refused with a reason; the fit succeeds on whatever rows it
 * took; every constant stays finite and inside its search range where it
 * was fitted, at its shipped figure where not (a key held at an edge of
 * its range too); the objectives are finite; the topology written with the fit, saved as XML and
 * loaded again, predicts every row as the fit does (to a part in 10^5:
 * the file keeps six digits); the error figures per band add up to the
 * rows and their median is at most their p90.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_xml.h"
#include "validate/calibrate_nccl.h"
#include "validate/validate.h"
#include "tests/fuzz/fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_CNF_MAX_ROWS = 24 };

static const char *const fuzz_cnf_topo = "h100-ib-4n";

/* The rows of l on t, each taken or refused with a reason. */
static cr_cnf *fuzz_cnf_rows(const cr_topo *t, const cr_vmeas_list *l)
{
    cr_cnf *f = NULL;
    cr_diag d = {{0}};
    if (cr_cnf_new(t, NULL, &f, &d) != CR_OK)
        abort();
    for (size_t i = 0; i < l->n; i++) {
        bool added = false;
        char why[256] = "";
        cr_diag da = {{0}};
        cr_status st = cr_cnf_add(f, &l->v[i], 0, &added, why, sizeof why, &da);
        if (st == CR_EINVAL ? !da.msg[0] : st != CR_OK)
            abort();
        if (st == CR_OK && !added && !why[0])
            abort(); /* a refusal says why */
    }
    return f;
}

static void fuzz_cnf_check_fit(const cr_cnf_fit *fit, size_t n_rows)
{
    int n_keys = 0;
    const cr_cnf_key *keys = cr_cnf_keys(&n_keys);
    if (fit->n_keys != n_keys || fit->rows < 0 || (size_t)fit->rows > n_rows)
        abort();
    if (fit->rows > 0 && (!isfinite(fit->obj_before) || !(fit->obj_before >= 0) ||
                          !isfinite(fit->obj_after) || !(fit->obj_after >= 0)))
        abort();
    for (int k = 0; k < n_keys; k++) {
        const double before = fit->k[k].before, after = fit->k[k].after;
        if (strcmp(fit->k[k].key, keys[k].key) || !isfinite(before) || !isfinite(after))
            abort();
        if (fit->k[k].fitted && (after < keys[k].lo || after > keys[k].hi))
            abort();
        if ((!fit->k[k].fitted || fit->k[k].at_bound) && after != before)
            abort();
        if (fit->k[k].at_bound && fit->k[k].fitted)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cr_topo *topo;
    cr_diag d = {{0}};
    if (!topo && cr_topo_open(fuzz_cnf_topo, &topo, &d) != CR_OK)
        abort();
    FILE *in = fuzz_stream(data, size);
    if (!in)
        return 0;
    cr_vmeas_list l = {0};
    cr_status st = cr_validate_read_nccl_tests_stream(in, "fuzz_all_reduce_perf.log", NULL, &l, &d);
    fclose(in);
    if (st != CR_OK || l.n > FUZZ_CNF_MAX_ROWS) {
        cr_vmeas_list_release(&l);
        return 0;
    }

    cr_cnf_fit fit;
    cr_cnf *f = fuzz_cnf_rows(topo, &l);
    bool use = true;
    if (cr_cnf_fit_run(f, &use, 1, &fit, &d) != CR_OK)
        abort();
    size_t n = 0;
    cr_cnf_rows(f, &n);
    fuzz_cnf_check_fit(&fit, n);

    /* what calibrate -o writes predicts as the fit does */
    double *fitted = calloc(n ? n : 1, sizeof *fitted);
    double *reloaded = calloc(n ? n : 1, sizeof *reloaded);
    if (!fitted || !reloaded)
        abort();
    if (cr_cnf_predict(f, &fit, fitted, &d) != CR_OK)
        abort();
    cr_topo *t = NULL, *back = NULL;
    char *xml = NULL;
    size_t xml_len = 0;
    if (cr_topo_open(fuzz_cnf_topo, &t, &d) != CR_OK ||
        cr_cnf_apply(t, &fit, "fitted from fuzz_all_reduce_perf.log") != CR_OK ||
        cr_topo_xml_save_memory(t, &xml, &xml_len, &d) != CR_OK ||
        cr_topo_xml_load_memory(xml, xml_len, "calibrated.xml", &back, &d) != CR_OK)
        abort();
    cr_cnf *h = fuzz_cnf_rows(back, &l);
    size_t n_back = 0;
    cr_cnf_rows(h, &n_back);
    if (n_back != n || cr_cnf_predict(h, NULL, reloaded, &d) != CR_OK)
        abort();
    for (size_t i = 0; i < n; i++)
        if (!(fabs(reloaded[i] - fitted[i]) <= 1e-5 * fabs(fitted[i])))
            abort();
    cr_cnf_free(h);

    /* the error figures */
    cr_cnf_stat s[CR_CNF__BANDS + 1];
    if (cr_cnf_stats(f, fitted, NULL, 0, s) != CR_OK)
        abort();
    int sum = 0;
    for (int b = 0; b < CR_CNF__BANDS; b++) {
        sum += s[b].rows;
        if (s[b].rows > 0 && !(s[b].median_pct <= s[b].p90_pct))
            abort();
    }
    if (sum != s[CR_CNF__BANDS].rows || (size_t)sum != n)
        abort();

    free(xml);
    cr_topo_free(back);
    cr_topo_free(t);
    free(fitted);
    free(reloaded);
    cr_cnf_free(f);
    cr_vmeas_list_release(&l);
    return 0;
}
