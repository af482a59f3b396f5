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
    assert_close(e->hbm_Bps, 4.8e12, 1e-12, 0);                /* H200 datasheet: 4.8 TB/s */
    assert_close(e->hbm_bytes, 141e9, 1e-12, 0);               /* 141 GB */
    assert_close(e->peak_flops[CR_DT_BF16], 989e12, 1e-12, 0); /* 1979 sparse / 2 */
    assert_close(e->peak_flops[CR_DT_FP8], 1979e12, 1e-12, 0); /* 3958 sparse / 2 */
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
        for (int j = 0; j < i; j++) {
            const cr_gpu_catalog_entry *o = cr_gpu_catalog_get(j);
            assert_false(o->pci_vendor == e->pci_vendor && o->pci_device == e->pci_device);
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
    assert_close(t->gpu_specs[0].peak_flops[CR_DT_BF16], 989e12, 1e-12, 0);
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
        cmocka_unit_test(test_known_ids),
        cmocka_unit_test(test_every_entry_complete),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_add_spec),
        cmocka_unit_test(test_shipped_models_carry_l2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
