/* SPDX-License-Identifier: MIT */
/*
 * What NCCL's tree moves through the busiest GPU and node (doc/bounds.md
 * 2.2.2): the chains inside the nodes, the double binary tree across them
 * and, on nodes of PCIe GPUs, both through a head GPU's one link. algo.c's
 * tree prediction reads them.
 */
#include <math.h>

#include "algo_priv.h"
#include "rankset.h"

/* Busiest GPU's share of S sent along the intra-node tree chains across
 * nodes (doc/bounds.md 2.2.2). With a network, search.cc starts channel
 * c's chain at the GPU local to its NIC and walks the node from there, so
 * the chain heads rotate over the node's GPUs; each channel runs the two
 * trees on S/(2C), modelled (as flowsim_coll.c does) with tree 0's chain
 * headed at GPU c and tree 1's, reversed, at c+1. A GPU at chain position j
 * sends up (j > 0) and down (j < m-1). With C a multiple of m every GPU
 * sends 2(m-1)/m S; fewer channels leave some GPU in the middle of every
 * chain (2S). One node has no NIC to start from: every channel replays
 * one chain, and its middle GPUs send 2S (the caller's case). */
double algo_chain_egress(int m, int C)
{
    if (m < 2 || C < 1)
        return 0;
    /* The edges counted in closed form (per call, this ran m x C x 2
     * iterations of two divisions: half of `calibrate --nccl-tests` on a
     * 2-node p5 log set). Each channel and tree gives GPU g two edges
     * less one where it heads its chain (j = 0) and one where it ends it
     * (j = m - 1): tree 0 (head ch % m) at ch % m = g and g + 1, tree 1
     * (head (ch + 1) % m, reversed) at ch % m = g - 1 and g - 2, all mod
     * m. cnt(r): channels with ch % m = r. Integer counts: the same
     * edges, so the same worst. */
    int q = C / m, rem = C % m;
#define CHAIN_CNT(r) (q + ((r) < rem))
    double worst = 0;
    for (int g = 0; g < m; g++) {
        int up = g + 1 < m ? g + 1 : 0, down = g > 0 ? g - 1 : m - 1,
            down2 = g >= 2 ? g - 2 : g + m - 2;
        int edges = 4 * C - CHAIN_CNT(g) - CHAIN_CNT(up) - CHAIN_CNT(down) - CHAIN_CNT(down2);
        worst = fmax(worst, edges / (2.0 * C));
    }
#undef CHAIN_CNT
    return worst;
}

/* A tree's head GPUs on nodes whose GPUs have no scale-up link (PCIe
 * only): one PCIe link carries a GPU's chain hops and, where it heads its
 * node's chain, the tree's network traffic too. NCCL sends both over it:
 * the head (treeIntra[0], src/graph/connect.cc ncclTopoPreset) takes the
 * tree's parent and a child over the network beside its chain neighbour
 * treeIntra[1] (connectTrees), and all_reduce.h (runTreeSplit,
 * runTreeUpDown) receives from every tree->down and sends to tree->up in
 * the reduce, the reverse in the broadcast; NCCL's own search charges the
 * GPU's PCIe link for both paths (src/graph/search.cc @v2.28.9-1,
 * ncclTopoSearchRecGpu: ncclTopoFollowPath GPU -> NET at backToNet and GPU
 * -> GPU for the chain, each subtracting its bandwidth from the same
 * links). The busiest GPU's link time, chain bytes at r_chain and network
 * bytes at r_net (each transport's rate on that link); *bytes_out its
 * bytes one way. Heads as the simulator places them (flowsim_coll.c tree,
 * coll.c net_rails): channel ch heads tree 0's chain at local rank ch % m
 * and tree 1's, reversed, at (ch + 1) % m, m the rails; each tree and
 * channel carries S / 2C, one way and back on each edge. A node with
 * parent and children e_t in tree t moves e_t of those through its head.
 * Nodes alike in ranks and edges are counted once (a 1,024-node tree
 * would cost N x ranks x m each call otherwise). 0 where no node holds two
 * ranks or c->node_ranks is not known. */
double algo_tree_head_link_s(const struct cr_coll_ctx *c, int C, double S, double r_chain,
                             double r_net, double *bytes_out)
{
    *bytes_out = 0;
    int N = c->n_nodes, m = c->net_rails > 0 ? c->net_rails : 1;
    if (!c->node_ranks || N < 2 || C < 1 || !(r_chain > 0) || !(r_net > 0))
        return 0;
    int q = C / m, rem = C % m, last_mg = -1;
    unsigned seen = 0;
    double worst = 0, s = S / (2.0 * C);
    for (int k = 0; k < N; k++) {
        int mg = c->node_ranks[k];
        if (mg < 2)
            continue; /* no chain: the NICs' term (t_out) holds its one GPU */
        int k0, k1;
        int e0 = (cr_nccl_dtree(N, k, 0, &k0) >= 0) + k0,
            e1 = (cr_nccl_dtree(N, k, 1, &k1) >= 0) + k1;
        unsigned bit = 1u << (e0 * 4 + e1); /* a binary tree: e_t <= 3 */
        if (mg != last_mg)
            seen = 0;
        last_mg = mg;
        if (seen & bit)
            continue;
        seen |= bit;
        for (int g = 0; g < mg; g++) {
            double chain = 0, net = 0;
            for (int r = 0; r < m; r++) {
                int cnt = q + (r < rem), h0 = r, h1 = (r + 1) % m;
                int t0 = (h0 + mg - 1) % mg, t1 = (h1 + 1) % mg;
                chain += cnt * (4 - (g == h0) - (g == t0) - (g == h1) - (g == t1));
                net += cnt * ((g == h0) * e0 + (g == h1) * e1);
            }
            double t = chain * s / r_chain + net * s / r_net;
            if (t > worst) {
                worst = t;
                *bytes_out = (chain + net) * s;
            }
        }
    }
    return worst;
}

/* Busiest node's share of S sent to the network by NCCL's double binary
 * tree over N nodes (cr_nccl_dtree): each tree carries S/2; a node sends it
 * up once if it has a parent and down once per child (doc/bounds.md
 * 2.2.2). Two nodes: S; N even >= 4: 2S (a node with a parent and two
 * children in one tree is a leaf with a parent in the other); N odd
 * (shifted tree) less where no node is interior in both. */
double algo_dtree_egress(int N)
{
    double worst = 0;
    for (int r = 0; r < N; r++) {
        int k0, k1;
        int p0 = cr_nccl_dtree(N, r, 0, &k0), p1 = cr_nccl_dtree(N, r, 1, &k1);
        worst = fmax(worst, 0.5 * ((p0 >= 0) + k0 + (p1 >= 0) + k1));
    }
    return worst;
}
