/* SPDX-License-Identifier: MIT */
/*
 * The built-in GPU catalog: ids resolve to the right product, figures match
 * the datasheets named in each comment, every entry is complete.
 */
#include "cr_test.h"

#include <string.h>

#include "cr_test_topo.h"
#include "gpu_catalog.h"
#include "topo_xml.h"

static void test_known_ids(void **state)
{
    (void)state;
    /* pci.ids (pciutils/pciids 2026.08.22): 10de:2335 GH100 [H200 SXM 141GB] */
    const cr_gpu_catalog_entry *e = cr_gpu_catalog_find_pci(0x10de, 0x2335);
    assert_non_null(e);
    assert_string_equal(e->name, "H200-SXM");
    assert_int_equal(e->arch, 90);
    assert_close(e->hbm_Bps, 4.8e12, 1e-12, 0);                  /* H200 datasheet: 4.8 TB/s */
    assert_close(e->hbm_bytes, 141e9, 1e-12, 0);                 /* 141 GB */
    assert_close(e->peak_flops[CR_DT_BF16], 989.5e12, 1e-12, 0); /* 1979 sparse / 2 */
    assert_close(e->peak_flops[CR_DT_FP8], 1979e12, 1e-12, 0);   /* 3958 sparse / 2 */
    /* NVLink: 900 GB/s bidirectional = 450 GB/s per direction. */
    assert_close(e->scaleup_links * e->scaleup_link_Bps, 900e9 / 2, 1e-12, 0);

    e = cr_gpu_catalog_find_pci(0x10de, 0x2330); /* H100 SXM5 80GB */
    assert_non_null(e);
    assert_close(e->hbm_Bps, 3.35e12, 1e-12, 0);
    e = cr_gpu_catalog_find_pci(0x10de, 0x20b2); /* A100 SXM4 80GB */
    assert_non_null(e);
    assert_close(e->hbm_Bps, 2.039e12, 1e-12, 0);
    assert_close(e->scaleup_links * e->scaleup_link_Bps, 600e9 / 2, 1e-12, 0);
    e = cr_gpu_catalog_find_pci(0x10de, 0x2901); /* B200: NVLink5 1.8 TB/s bidirectional */
    assert_non_null(e);
    assert_close(e->scaleup_links * e->scaleup_link_Bps, 1.8e12 / 2, 1e-12, 0);
    e = cr_gpu_catalog_find_pci(0x10de, 0x26b9); /* L40S: PCIe only */
    assert_non_null(e);
    assert_int_equal(e->scaleup_links, 0);
    assert_close(e->hbm_Bps, 864e9, 1e-12, 0);
    e = cr_gpu_catalog_find_pci(0x1002, 0x74a1); /* MI300X: 7 x 64 GB/s XGMI */
    assert_non_null(e);
    assert_close(e->scaleup_links * e->scaleup_link_Bps, 448e9, 1e-12, 0);
    assert_null(cr_gpu_catalog_find_pci(0x10de, 0x1234));
    assert_null(cr_gpu_catalog_find_pci(0x1002, 0x2335)); /* right device, wrong vendor */
    assert_non_null(cr_gpu_catalog_find_name("B200"));
    assert_null(cr_gpu_catalog_find_name("H300"));
}

static void test_every_entry_complete(void **state)
{
    (void)state;
    int n = cr_gpu_catalog_count();
    assert_true(n >= 10);
    assert_null(cr_gpu_catalog_get(n));
    assert_null(cr_gpu_catalog_get(-1));
    for (int i = 0; i < n; i++) {
        const cr_gpu_catalog_entry *e = cr_gpu_catalog_get(i);
        assert_true(e->hbm_bytes > 0 && e->hbm_Bps > 0 && e->l2_bytes > 0 && e->sms > 0);
        assert_true(e->source && strlen(e->source) > 10);
        assert_true(e->scaleup_source && strlen(e->scaleup_source) > 10);
        /* tensor-core bf16/fp16 is never below plain fp32 where both exist */
        if (e->peak_flops[CR_DT_BF16] > 0)
            assert_true(e->peak_flops[CR_DT_BF16] >= e->peak_flops[CR_DT_FP32]);
        assert_true(e->peak_flops[CR_DT_FP16] > 0);
        assert_true((e->scaleup_links == 0) == (e->scaleup_link_Bps == 0));
        /* an AMD entry names its LLVM target, an NVIDIA one its sm */
        assert_true(strcmp(e->vendor, "amd") ? e->gcn == NULL && e->arch > 0
                                             : e->gcn != NULL && e->arch == 0);
        for (int j = 0; j < i; j++) {
            const cr_gpu_catalog_entry *o = cr_gpu_catalog_get(j);
            /* ids are unique, except AMD products that share one (0x740c:
             * MI250X and MI250), which their CU counts tell apart */
            unsigned a[2] = {o->pci_device, o->pci_device_alt};
            unsigned b[2] = {e->pci_device, e->pci_device_alt};
            for (int x = 0; x < 2; x++)
                for (int y = 0; y < 2; y++)
                    if (a[x] && a[x] == b[y] && o->pci_vendor == e->pci_vendor)
                        assert_true(e->gcn && o->gcn && e->sms != o->sms);
            assert_string_not_equal(o->name, e->name);
        }
    }
}

static void test_lookup(void **state)
{
    (void)state;
    const cr_gpu_catalog_entry *e = NULL;
    cr_diag d = {{0}};
    assert_int_equal(cr_gpu_catalog_lookup(90, 0x2335, &e, &d), CR_OK);
    assert_string_equal(e->name, "H200-SXM");
    /* sm 90 alone is H100 or H200: refuse to guess. */
    assert_int_equal(cr_gpu_catalog_lookup(90, 0, &e, &d), CR_ENOTFOUND);
    assert_null(e);
    assert_string_equal(d.msg, "GPU with sm 90 and no PCI device id: sm 90 alone does not "
                               "identify it; give its <pci> the device attribute NCCL writes (e.g. "
                               "device=\"0x2335\"); known for sm 90: 0x2330 (H100-SXM, sm 90), "
                               "0x2339 (H100-SXM-94GB, sm 90), 0x2331 (H100-PCIe, sm 90), 0x2335 "
                               "(H200-SXM, sm 90)");
    cr_diag d2 = {{0}};
    assert_int_equal(cr_gpu_catalog_lookup(80, 0x2335, &e, &d2), CR_EINVAL);
    assert_string_equal(d2.msg, "PCI device 0x2335 is the H200-SXM (sm 90), but the dump says sm "
                                "80: the dump is inconsistent");
    cr_diag d3 = {{0}};
    assert_int_equal(cr_gpu_catalog_lookup(61, 0x1b38, &e, &d3), CR_ENOTFOUND);
    assert_non_null(strstr(d3.msg, "0x2335 (H200-SXM, sm 90)"));
}

/* Blackwell Ultra: B300 (HGX) and GB300 (NVL72), sm 103. */
static void test_blackwell_ultra(void **state)
{
    (void)state;
    /* pci.ids 2026.08.22: 10de:3182 GB110 [B300 SXM6 AC] */
    const cr_gpu_catalog_entry *e = cr_gpu_catalog_find_pci(0x10de, 0x3182);
    assert_non_null(e);
    assert_string_equal(e->name, "B300");
    assert_int_equal(e->arch, 103);
    /* Blackwell Architecture Technical Brief v2.1, Table 3 (HGX B300 per GPU) */
    assert_close(e->hbm_bytes, 270e9, 1e-12, 0);
    assert_close(e->hbm_Bps, 7.7e12, 1e-12, 0);
    assert_close(e->peak_flops[CR_DT_FP4], 14e15, 1e-12, 0);       /* 14 dense, 18 sparse */
    assert_close(e->peak_flops[CR_DT_BF16], 36e15 / 16, 1e-12, 0); /* HGX: 36 sparse for 8 */
    assert_close(e->peak_flops[CR_DT_FP8], 72e15 / 16, 1e-12, 0);
    assert_close(e->peak_flops[CR_DT_FP64], 10e12 / 8, 1e-12, 0);  /* HGX: 10 TFLOP/s for 8 */
    assert_close(e->peak_flops[CR_DT_INT8], 307e12 / 2, 1e-12, 0); /* cut on Blackwell Ultra */
    assert_close(e->scaleup_links * e->scaleup_link_Bps, 1.8e12 / 2, 1e-12, 0);
    /* GB300 under both of its ids (pci.ids: 31c2 and 31c3, GB110 [GB300]) */
    const cr_gpu_catalog_entry *g = cr_gpu_catalog_find_pci(0x10de, 0x31c2);
    assert_non_null(g);
    assert_ptr_equal(cr_gpu_catalog_find_pci(0x10de, 0x31c3), g);
    assert_string_equal(g->name, "GB300");
    assert_int_equal(g->arch, 103);
    /* GB300 NVL72: 1080 PFLOP/s dense FP4, 360 PFLOP/s sparse BF16, 576 TB/s for 72 */
    assert_close(g->peak_flops[CR_DT_FP4], 1080e15 / 72, 1e-12, 0);
    assert_close(g->peak_flops[CR_DT_BF16], 360e15 / 144, 1e-12, 0);
    assert_close(g->hbm_Bps, 576e12 / 72, 1e-12, 0);
    assert_close(g->hbm_bytes, 279e9, 1e-12, 0);
    assert_true(g->peak_flops[CR_DT_FP4] > e->peak_flops[CR_DT_FP4]);
    /* sm 103 alone is B300 or GB300: refuse to guess; the id decides */
    cr_diag d = {{0}};
    const cr_gpu_catalog_entry *x = NULL;
    assert_int_equal(cr_gpu_catalog_lookup(103, 0, &x, &d), CR_ENOTFOUND);
    assert_non_null(strstr(d.msg, "known for sm 103: 0x3182 (B300, sm 103), 0x31c2/0x31c3 "
                                  "(GB300, sm 103)"));
    assert_int_equal(cr_gpu_catalog_lookup(103, 0x31c3, &x, &d), CR_OK);
    assert_ptr_equal(x, g);
    cr_diag d2 = {{0}};
    assert_int_equal(cr_gpu_catalog_lookup(100, 0x3182, &x, &d2), CR_EINVAL);
    assert_string_equal(d2.msg, "PCI device 0x3182 is the B300 (sm 103), but the dump says sm "
                                "100: the dump is inconsistent");
}

/* MI250X, MI250 (per GCD) and MI100: AMD CDNA 2 whitepaper, Table 1 and
 * endnotes; ROCm GPU specifications. */
static void test_cdna_entries(void **state)
{
    (void)state;
    const cr_gpu_catalog_entry *x = cr_gpu_catalog_find_name("MI250X");
    const cr_gpu_catalog_entry *m = cr_gpu_catalog_find_name("MI250");
    const cr_gpu_catalog_entry *c = cr_gpu_catalog_find_name("MI100");
    assert_non_null(x);
    assert_non_null(m);
    assert_non_null(c);
    /* a package of 2 GCDs: 95.7 TFLOP/s FP64 matrix, 383 BF16, 128 GB, 3.2768 TB/s */
    assert_close(2 * x->peak_flops[CR_DT_FP64], 95.7e12, 1e-12, 0);
    assert_close(2 * x->peak_flops[CR_DT_BF16], 383e12, 1e-12, 0);
    assert_close(2 * x->hbm_bytes, 128e9, 1e-12, 0);
    assert_close(2 * x->hbm_Bps, 3.2768e12, 1e-12, 0);
    assert_int_equal(2 * x->sms, 220);
    assert_int_equal(2 * m->sms, 208);
    assert_close(2 * m->peak_flops[CR_DT_FP16], 362.1e12, 1e-12, 0);
    assert_close(x->peak_flops[CR_DT_TF32], 0, 0, 0); /* no TF32 on CDNA 2 */
    /* L2: 32 slices x 128 B/clk at 1.7 GHz = 6.96 TB/s of reads, doubled */
    assert_close(x->l2_Bps, 2 * 6.9632e12, 1e-12, 0);
    assert_close(x->l2_bytes, 8 * 1048576.0, 1e-12, 0);
    /* 100 GB/s bidirectional per Infinity Fabric link */
    assert_close(x->scaleup_link_Bps, 100e9 / 2, 1e-12, 0);
    /* MI100: 11.5 FP64, 1.2288 TB/s, 3 links for 276 GB/s of P2P, L2 3.07 TB/s read */
    assert_close(c->peak_flops[CR_DT_FP64], 11.5e12, 1e-12, 0);
    assert_close(c->peak_flops[CR_DT_BF16], 92.3e12, 1e-12, 0);
    assert_close(c->hbm_Bps, 1.2288e12, 1e-12, 0);
    assert_close(2 * c->scaleup_links * c->scaleup_link_Bps, 276e9, 1e-12, 0);
    assert_close(c->l2_Bps, 2 * 3.07e12, 1e-12, 0);
    assert_string_equal(x->gcn, "gfx90a");
    assert_string_equal(c->gcn, "gfx908");
    assert_string_equal(cr_gpu_catalog_find_name("MI300X")->gcn, "gfx942");
    /* pci.ids: 7408 [Instinct MI250X], 740c [Instinct MI250X/MI250], 738c and
     * 738e [Instinct MI100] */
    assert_ptr_equal(cr_gpu_catalog_find_pci(0x1002, 0x7408), x);
    assert_ptr_equal(cr_gpu_catalog_find_pci(0x1002, 0x738e), c);
    assert_ptr_equal(cr_gpu_catalog_find_pci(0x1002, 0x738c), c);
    assert_null(cr_gpu_catalog_find_pci(0x1002, 0));
}

static void test_lookup_amd(void **state)
{
    (void)state;
    const cr_gpu_catalog_entry *e = NULL;
    cr_diag d = {{0}};
    char buf[32];
    assert_string_equal(cr_gpu_catalog_gcn_name("910", buf, sizeof buf), "gfx90a");
    assert_string_equal(cr_gpu_catalog_gcn_name("908", buf, sizeof buf), "gfx908");
    assert_string_equal(cr_gpu_catalog_gcn_name("gfx90a:sramecc+:xnack-", buf, sizeof buf),
                        "gfx90a");
    assert_string_equal(cr_gpu_catalog_gcn_name(NULL, buf, sizeof buf), "");
    /* size 0 writes nothing (it copied SIZE_MAX bytes, QA audit of the
     * API); size 1 holds the NUL */
    memcpy(buf, "zz", 3);
    assert_ptr_equal(cr_gpu_catalog_gcn_name("910", buf, 0), buf);
    assert_string_equal(buf, "zz");
    assert_string_equal(cr_gpu_catalog_gcn_name("910", buf, 1), "");
    assert_string_equal(cr_gpu_catalog_gcn_name("gfx942", buf, 4), "gfx");
    /* 0x740c is MI250X or MI250: the CU count (RCCL's sm) decides */
    assert_int_equal(cr_gpu_catalog_lookup_amd("gfx90a", 110, 0x740c, 0x0b0c, &e, &d), CR_OK);
    assert_string_equal(e->name, "MI250X");
    assert_int_equal(cr_gpu_catalog_lookup_amd("910", 104, 0x740c, 0x0b0c, &e, &d), CR_OK);
    assert_string_equal(e->name, "MI250");
    assert_int_equal(cr_gpu_catalog_lookup_amd("gfx90a:sramecc+:xnack-", 110, 0x7408, 0, &e, &d),
                     CR_OK);
    assert_string_equal(e->name, "MI250X");
    assert_int_equal(cr_gpu_catalog_lookup_amd("908", 120, 0x738c, 0x0c34, &e, &d), CR_OK);
    assert_string_equal(e->name, "MI100");
    assert_int_equal(cr_gpu_catalog_lookup_amd(NULL, 120, 0x738e, 0, &e, &d), CR_OK);
    assert_string_equal(e->name, "MI100");
    /* an MI300X VF by its subsystem id; one product of that id: CUs not asked */
    assert_int_equal(cr_gpu_catalog_lookup_amd("gfx942", 304, 0x74b5, 0x74a1, &e, &d), CR_OK);
    assert_string_equal(e->name, "MI300X");
    cr_diag d1 = {{0}};
    assert_int_equal(cr_gpu_catalog_lookup_amd("gfx90a", 120, 0x740c, 0x0b0c, &e, &d1),
                     CR_ENOTFOUND);
    assert_null(e);
    assert_string_equal(d1.msg, "AMD GPU with PCI device 0x740c and 120 CUs (RCCL's sm): 0x740c "
                                "is MI250X (110 CUs), MI250 (104 CUs), none with 120 CUs; the "
                                "dump is inconsistent, or the product is not in the catalog");
    cr_diag d2 = {{0}};
    assert_int_equal(cr_gpu_catalog_lookup_amd("gfx942", 110, 0x740c, 0, &e, &d2), CR_EINVAL);
    assert_string_equal(d2.msg, "PCI device 0x740c is the MI250X (gfx90a), but the dump says "
                                "gcn=\"gfx942\": the dump is inconsistent");
    cr_diag d3 = {{0}};
    assert_int_equal(cr_gpu_catalog_lookup_amd("910", 104, 0x740f, 0x0c34, &e, &d3),
                     CR_ENOTFOUND); /* MI210: not in the catalog */
    assert_string_equal(d3.msg,
                        "AMD GPU gcn=\"910\" with PCI device 0x740f (subsystem 0x0c34) is not in "
                        "the catalog: add it to model/gpu_catalog.c with its datasheet figures, "
                        "or write the topology by hand (doc/topology-format.md); known AMD: "
                        "0x74a1 (MI300X, gfx942, 304 CUs), 0x7408/0x740c (MI250X, gfx90a, 110 "
                        "CUs), 0x740c (MI250, gfx90a, 104 CUs), 0x738c/0x738e (MI100, gfx908, "
                        "120 CUs)");
    cr_diag d4 = {{0}};
    assert_int_equal(cr_gpu_catalog_lookup_amd("910", 104, 0, 0, &e, &d4), CR_ENOTFOUND);
    assert_non_null(strstr(d4.msg, "(the dump's <pci> has no device attribute: give it the one "
                                   "RCCL writes, e.g. device=\"0x740c\")"));
}

static void test_add_spec(void **state)
{
    (void)state;
    cr_topo *t = cr_topo_new("x");
    assert_non_null(t);
    const cr_gpu_catalog_entry *e = cr_gpu_catalog_find_name("H100-SXM");
    int a = cr_gpu_catalog_add_spec(t, e);
    int b = cr_gpu_catalog_add_spec(t, e);
    assert_int_equal(a, 0);
    assert_int_equal(b, 0);
    assert_int_equal(t->n_gpu_specs, 1);
    assert_string_equal(t->gpu_specs[0].name, "H100-SXM");
    assert_close(t->gpu_specs[0].peak_flops[CR_DT_BF16], 989.5e12, 1e-12, 0);
    assert_int_equal(t->gpu_specs[0].sms, 132);
    assert_non_null(strstr(t->gpu_specs[0].source, "H100"));
    assert_int_equal(cr_gpu_catalog_add_spec(t, cr_gpu_catalog_find_name("B200")), 1);
    cr_topo_free(t);
}

/* Every shipped topology's NVIDIA or AMD GPU model carries its on-chip
 * cache, as the catalog does: without it the warm bound is the HBM one,
 * which a kernel on cache-resident data beats (QA audit of 2026-12-06:
 * gb200-nvl72's B200 and l40s-pcie-8's L40S had none; a 1 MiB copy on
 * gb200-nvl72 was bound at 0.262 us where the L2 allows 0.104). TPUs
 * (vendor google) model no such cache. */
static void test_shipped_models_carry_l2(void **state)
{
    (void)state;
    for (int i = 0; cr_topo_shipped_name(i); i++) {
        cr_topo *t = cr_test_open_topo(cr_topo_shipped_name(i));
        for (int g = 0; g < t->n_gpu_specs; g++) {
            const cr_gpu_spec *s = &t->gpu_specs[g];
            if (strcmp(s->vendor, "nvidia") && strcmp(s->vendor, "amd"))
                continue;
            if (!(s->l2_bytes > 0 && s->l2_Bps > 0))
                fail_msg("%s: GPU model %s has no L2 (l2=, l2-bw=)", cr_topo_shipped_name(i),
                         s->name);
        }
        cr_topo_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_ids),    cmocka_unit_test(test_every_entry_complete),
        cmocka_unit_test(test_lookup),       cmocka_unit_test(test_blackwell_ultra),
        cmocka_unit_test(test_cdna_entries), cmocka_unit_test(test_lookup_amd),
        cmocka_unit_test(test_add_spec),     cmocka_unit_test(test_shipped_models_carry_l2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
