/* SPDX-License-Identifier: MIT */
/*
 * Protocol and mechanism efficiencies (see mech.h for the formulas).
 */
#include "mech.h"

#include <math.h>

double cr_proto_eff(const cr_params *p, cr_proto proto, cr_hw hw)
{
    if ((unsigned)proto >= CR_PROTO__COUNT)
        proto = CR_PROTO_SIMPLE;
    if (hw == CR_HW_NVLINK)
        return p->proto_eff[proto];
    /* On PCIe and NICs the link, not the SMs, limits Simple; LL and LL128
     * still lose their flag bytes: scale by their fraction of Simple. */
    double base = hw == CR_HW_PCI ? p->pcie_eff : p->net_eff;
    double simple = p->proto_eff[CR_PROTO_SIMPLE];
    double frac = simple > 0 ? p->proto_eff[proto] / simple : 1.0;
    /* LL across nodes runs through host memory (params coll.eff.ll.net) */
    double ll_net = hw == CR_HW_NET && proto == CR_PROTO_LL ? p->ll_net_eff : 1.0;
    return base * fmin(frac, 1.0) * ll_net;
}

double cr_proto_cap_Bps(const cr_params *p, cr_proto proto, int nchannels)
{
    double nch = nchannels > 0 ? nchannels : 1;
    switch (proto) {
    case CR_PROTO_LL:
        return p->ll_max_Bps;
    case CR_PROTO_LL128:
        return nch * p->ll128_ch_Bps;
    default:
        return nch * p->simple_ch_Bps;
    }
}

int cr_proto_channels(const cr_params *p, cr_proto proto, double bytes, int max_channels)
{
    int cap = max_channels > 0 ? max_channels : p->nchannels;
    if ((unsigned)proto >= CR_PROTO__COUNT)
        proto = CR_PROTO_SIMPLE;
    double per = p->ch_min_bytes[proto];
    if (!(bytes > 0) || !(per > 0))
        return 1;
    double nc = floor(bytes / per);
    if (nc < 1)
        return 1;
    return nc >= cap ? cap : (int)nc;
}

double cr_mech_eff(const cr_params *p, cr_mech m, double msg_bytes, int sms)
{
    if ((unsigned)m >= CR_MECH__COUNT || !(msg_bytes > 0))
        return 0.0;
    double e = p->mech_eff[m] * msg_bytes / (msg_bytes + p->mech_half_bytes[m]);
    double sat = p->mech_sat_sms[m];
    if (sat > 0 && sms > 0)
        e *= fmin(1.0, (double)sms / sat);
    return e;
}

double cr_mech_max_msg_bytes(cr_mech m)
{
    /* cp.async.bulk moves through shared memory: 227 KiB per SM on Hopper
     * (ParallelKittens table; CUDA programming guide, sm90 max dynamic smem). */
    return m == CR_MECH_TMA ? 227.0 * 1024.0 : HUGE_VAL;
}

bool cr_mech_can_reduce(cr_mech m)
{
    return m == CR_MECH_TMA || m == CR_MECH_LDST || m == CR_MECH_MULTIMEM;
}

bool cr_mech_needs_switch(cr_mech m)
{
    return m == CR_MECH_MULTIMEM;
}
