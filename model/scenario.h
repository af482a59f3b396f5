/* SPDX-License-Identifier: MIT */
/*
 * Simulator scenarios in XML (libxml2 behind this one interface): several
 * collectives and compute ops, on which ranks, starting when, after which
 * others. The format (doc/simulator.md, tests/fixtures/scenarios/):
 *
 *   <scenario name="tp-dp">
 *     <compute name="gemm" ranks="0-15" duration="400us" hbm="1GB" stream="0"/>
 *     <collective name="tp" coll="allreduce" ranks="0-7" bytes="256MB"
 *                 algo="ring" proto="simple" start="0us" stream="1"/>
 *     <collective name="dp" coll="allreduce" ranks="0-15:8" bytes="1GB"
 *                 after="gemm" stream="2"/>
 *     <alltoallv name="moe" ranks="0-3" stream="3">
 *       <row bytes="0 1MB 1MB 1MB"/> ... one row per sender, n entries
 *     </alltoallv>
 *   </scenario>
 *
 * Collectives take their algorithm, protocol, channels and latencies from
 * coll.h's prediction for their rank set (forced by algo/proto/channels when
 * given). Safety as for topologies: no network, no external entities, no
 * entity declarations at all, 16 MiB at most. Errors: "file:line: what is
 * wrong, what would be right".
 */
#ifndef CR_SCENARIO_H
#define CR_SCENARIO_H

#include <stddef.h>

#include "flowsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses a scenario for topology t (borrowed; must outlive *out) and builds
 * a simulator with every op expanded, ready for cr_sim_run. On success *out
 * is new (cr_sim_free); on failure NULL with the reason in d. Errors:
 * CR_EIO, CR_EPARSE, CR_EINVAL, CR_ENOTFOUND (an `after` naming no op),
 * CR_EUNSUPPORTED, CR_ENOMEM. */
cr_status cr_scenario_load_file(const char *path, const cr_topo *t, cr_sim **out, cr_diag *d);

/* The same from a buffer; origin names it in messages. */
cr_status cr_scenario_load_memory(const char *buf, size_t len, const char *origin, const cr_topo *t,
                                  cr_sim **out, cr_diag *d);

#ifdef __cplusplus
}
#endif

#endif
