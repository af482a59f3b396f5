/* SPDX-License-Identifier: MIT */
/*
 * Achievable bandwidth and latency of NCCL protocols and custom-kernel
 * transfer mechanisms, as functions of message size and channel or SM count.
 * The collective predictions (coll.h) and the flow simulator use these same
 * functions, so both agree on contention-free cases.
 *
 * Forms (p from params.h; eff in (0, 1], a fraction of link bandwidth):
 *   protocol, NCCL:  eff = proto_eff[proto] on scale-up links,
 *                    pcie_eff / net_eff on PCIe / NIC links (Simple; LL and
 *                    LL128 scale by their payload fraction, 1/2 and 120/128);
 *                    the rate is further capped at nchannels x per-channel
 *                    ceilings (ll_max_Bps per GPU for LL).
 *   mechanism:       eff = mech_eff[m] x msg / (msg + mech_half_bytes[m])
 *                          x min(1, sms / mech_sat_sms[m])
 *                    (CE uses no SMs: the SM factor is 1).
 */
#ifndef CR_MECH_H
#define CR_MECH_H

#include "coll.h"
#include "params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fraction of link bandwidth protocol `proto` reaches on a link of class hw
 * (CR_HW_NVLINK covers NVLink, XGMI, ICI, C2C). */
double cr_proto_eff(const cr_params *p, cr_proto proto, cr_hw hw);

/* Rate cap in B/s from per-channel ceilings for nchannels channels (and the
 * LL per-GPU ceiling); HUGE_VAL when there is none. */
double cr_proto_cap_Bps(const cr_params *p, cr_proto proto, int nchannels);

/* Channels NCCL uses for a message of `bytes` per rank: grows with size
 * (one channel per ch_min_bytes of data) up to p->nchannels, at least 1. */
int cr_proto_channels(const cr_params *p, cr_proto proto, double bytes, int max_channels);

/* Fraction of link bandwidth mechanism m reaches with messages of msg_bytes
 * each, issued from sms SMs (sms <= 0: the saturating count). 0 when msg <= 0. */
double cr_mech_eff(const cr_params *p, cr_mech m, double msg_bytes, int sms);

/* Largest single message of mechanism m in bytes (TMA bulk copies stop at
 * 227 KiB of shared memory; others are unlimited: HUGE_VAL). */
double cr_mech_max_msg_bytes(cr_mech m);

/* Whether the mechanism can reduce on the way (TMA and ld/st reduce in the
 * SM; multimem in the switch; the copy engine cannot). */
bool cr_mech_can_reduce(cr_mech m);

/* Whether the mechanism needs a switch with multicast/reduction (multimem). */
bool cr_mech_needs_switch(cr_mech m);

#ifdef __cplusplus
}
#endif

#endif
