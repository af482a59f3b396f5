/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the simulator's scenario XML (model/scenario.c;
 * tests/fuzz/build.sh builds it with the model sources and the embedded
 * topologies). Scenarios load on the shipped h100-ib-4n (32 GPUs in four
 * HGX nodes, so ops cross NVSwitch and InfiniBand) and again on the
 * shipped l40s-pcie-8 without PCIe peer access (route.pcie_p2p 0: every
 * hop through a CPU's memory, NCCL's SHM), each opened once.
 * fuzz-max-len: 8192
 * fuzz-seeds: tests/fixtures/scenarios
 *
 * test_scenario.c replays tests/fuzz/corpus/scenario through this function.
 * Properties: loading never crashes or leaks; a failure returns no
 * simulator and says where (the message starts with the origin,
 * "fuzz.xml"); a loaded scenario holds at least one op and no more tasks
 * than the simulator's budget, runs (cr_sim_run: the loader refused every
 * cycle, so only running out of memory may fail it), and ends at a finite
 * time >= 0 with every op inside it.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "topo_xml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run_on(const cr_topo *topo, const uint8_t *data, size_t size)
{
    cr_diag d = {{0}};
    cr_sim *s = NULL;
    cr_status st = cr_scenario_load_memory((const char *)data, size, "fuzz.xml", topo, &s, &d);
    if (st != CR_OK) {
        if (s || (st != CR_ENOMEM && strncmp(d.msg, "fuzz.xml", 8) != 0))
            abort();
        return;
    }
    if (!s || cr_sim_n_ops(s) < 1 || cr_sim_n_tasks(s) > cr_sim_task_limit(s))
        abort();
    st = cr_sim_run(s, &d);
    if (st != CR_OK && st != CR_ENOMEM)
        abort();
    if (st == CR_OK) {
        double end = cr_sim_makespan_s(s);
        if (!isfinite(end) || end < 0)
            abort();
        for (int i = 0; i < cr_sim_n_ops(s); i++) {
            cr_sim_op_result r = cr_sim_op_get(s, i);
            if (!(r.end_s <= end) || !(r.start_s <= r.end_s))
                abort();
        }
    }
    cr_sim_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the harness's topologies, loaded once: not library state */
    static cr_topo *nvlink, *shm;
    cr_diag d = {{0}};
    if (!nvlink && cr_topo_open("h100-ib-4n", &nvlink, &d) != CR_OK)
        abort();
    if (!shm && (cr_topo_open("l40s-pcie-8", &shm, &d) != CR_OK ||
                 cr_topo_set_param(shm, "route.pcie_p2p", 0, "fuzz_scenario.c") != CR_OK))
        abort();
    run_on(nvlink, data, size);
    run_on(shm, data, size);
    return 0;
}
