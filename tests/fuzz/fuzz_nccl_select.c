/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for NCCL_ALGO / NCCL_PROTO lists (validate and calibrate
 * --nccl-algo / --nccl-proto, topologies.txt of a corpus; coll.h
 * cr_nccl_select_parse). tests/fuzz/build.sh builds it; test_coll.c
 * replays tests/fuzz/corpus/nccl_select/ through this same function.
 * fuzz-max-len: 300
 *
 * Input: the first byte picks the list kind (bit 0: protocols) and the
 * collective (the rest, modulo the collectives), the rest is the list.
 *
 * Properties: parsing never crashes; a failure says why and leaves the
 * set empty; a set names only algorithms (protocols) that exist and is
 * empty for the point-to-point collectives; a list the check takes parses
 * for every collective, and one it refuses fails for some NCCL one.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 300)
        return 0;
    bool protocols = data[0] & 1;
    cr_coll coll = (cr_coll)((data[0] >> 1) % CR_COLL__COUNT);
    char list[300];
    memcpy(list, data + 1, size - 1);
    list[size - 1] = '\0';

    unsigned set = 12345;
    cr_diag d = {{0}};
    cr_status st = cr_nccl_select_parse(list, protocols, coll, &set, &d);
    if (st != CR_OK) {
        if (st != CR_EPARSE || !d.msg[0] || set != 0)
            abort();
    } else {
        unsigned limit = protocols ? 1u << CR_PROTO__COUNT : 1u << CR_ALGO__COUNT;
        if (set >= limit)
            abort();
        if (!protocols && (set & (1u << CR_ALGO_DIRECT)))
            abort(); /* point-to-point is never NCCL_ALGO's */
        bool p2p = coll == CR_COLL_ALLTOALL || coll == CR_COLL_SENDRECV || coll == CR_COLL_GATHER ||
                   coll == CR_COLL_SCATTER;
        if (p2p && set != 0)
            abort();
    }
    cr_diag dc = {{0}};
    bool checked = cr_nccl_select_check(list, protocols, &dc) == CR_OK;
    bool every = true;
    for (int c = 0; c < CR_COLL__COUNT; c++) {
        unsigned s = 0;
        cr_diag dd = {{0}};
        if (cr_nccl_select_parse(list, protocols, (cr_coll)c, &s, &dd) != CR_OK)
            every = false;
    }
    if (checked != every)
        abort();
    return 0;
}
