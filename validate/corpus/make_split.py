#!/usr/bin/env python3
# The fitting/checking split of validate/corpus, by source (README.md, "Fitting / checking split").
# Run from validate/corpus/: prints the assignment; "python3 make_split.py split.txt" rewrites split.txt.
# SOURCES: (split key, file-name prefix of that source's logs, round). Each round is split on its own,
# among that round's sources only, and never moves an earlier round's source: round 1 (the first 63
# logs) is the split "fixed once"; round 2 (2026-12-02) adds sources and appends their lines; rounds 3 to 17 likewise.
# Rule 1: sources in ascending order of the first 8 hex digits of sha256(key), each to the half holding
# fewer of the round's logs so far (tie: fit). Rule 2: a GPU class or a scale (single-/multi-node) with
# >= 2 of the round's sources all in one half moves its source with the fewest logs (then the smallest
# hash) to the other half. No model output is read.
import hashlib,glob,os,collections,sys
SOURCES = [
    ('github.com/aws-samples/awsome-distributed-training/micro-benchmarks/nccl-tests/README.md', 'aws-adt-', 1),
    ('github.com/lessizzmore/create-a3mega-ztan-fork/ztan-NCCL-test-result.markdown', 'gcp-a3mega-ztan-', 1),
    ('github.com/hisohara/ai-scripts/training/01_rccl-smoketest/README.md', 'aac', 1),
    ('github.com/coreweave/nccl-tests/README.md', 'coreweave-', 1),
    ('github.com/dstackai/dstack/mkdocs/docs/examples/clusters/lambda.md', 'dstack-lambda-', 1),
    ('github.com/dstackai/dstack/mkdocs/docs/examples/clusters/nebius.md', 'dstack-nebius-', 1),
    ('github.com/dstackai/dstack/mkdocs/docs/examples/clusters/gcp.md', 'dstack-gcp-', 1),
    ('github.com/li-plus/playground/cuda/bw.md', 'liplus-', 1),
    ('github.com/oracle-japan/ocitutorials/tutorials/_hpc/benchmark/run-nccltests-h100.md', 'oci-bm-gpu-h100-', 1),
    ('github.com/oracle-japan/ocitutorials/tutorials/_hpc/benchmark/run-nccltests.md', 'oci-bm-gpu4-all', 1),
    ('github.com/oracle-japan/ocitutorials/tutorials/_hpc/benchmark/run-nccltests-ubuntu.md', 'oci-bm-gpu4-ubuntu-', 1),
    ('github.com/argonne-lcf/alcf-nccl-tests/results_polaris', 'alcf-polaris-', 1),
    ('github.com/argonne-lcf/alcf-nccl-tests/results_sophia', 'alcf-sophia-', 1),
    ('github.com/odissei-benchmarks/nccl-tests/runs', 'odissei-', 1),
    ('github.com/KeitaW/p5-nccl-test-2024-07-19', 'keitaw-', 1),
    ('github.com/xxrjun/nccl-tests-cluster/benchmarks/example-cluster00', 'xxrjun-cluster00-', 1),
    ('github.com/xxrjun/nccl-tests-cluster/benchmarks/example-cluster01', 'xxrjun-cluster01-', 1),
    ('github.com/boeschf/nccl-benchmark-on-alps-2025/results', 'cscs-alps-', 1),
    ('github.com/Anthony-Hoo/Anthony-Hoo.github.io/posts/AutoDL_Multi-GPU_Interconnection_Test.md', 'autodl-2080ti-', 1),
    ('github.com/togethercomputer/together-nccl-tests/benchmarks/H100/results', 'together-h100-', 2),
    ('github.com/togethercomputer/together-nccl-tests/benchmarks/B200/sendrecv-p2p-scaling', 'together-b200-', 2),
    ('github.com/ROCm/system-acceptance-docs/docs/mi300x/performance-bench.rst', 'amd-sad-', 2),
    ('github.com/skypilot-org/skypilot/examples/gcp_gpu_direct_tcpx/README.md', 'skypilot-', 3),
    ('github.com/thomaslie210/NCCL_Test_Results/NCCL_Benchmarks', 'thomaslie-', 3),
    ('github.com/jianxiongzhang/nccl_test/6kd_p2p_sys_plugin_allreduce_raw_data.txt', 'jianxiongzhang-', 3),
    ('github.com/eugenesiow/LLM-Insights/infrastructure/hardware/README.md', 'eugenesiow-', 4),
    ('github.com/Dre1896/NCCL-Multi-GPU-Benchmark/degraded_run.log', 'dre1896-', 4),
    ('github.com/eth-cscs/cscs-docs/docs/software/communication/nccl.md', 'cscsdocs-', 5),
    ('github.com/UNINETTSigma2/documentation/hpc_machines/olivia/nccl_apptainer.md', 'nris-olivia-', 5),
    ('github.com/oracle-quickstart/oci-hpc-oke/README.md', 'oci-oke-', 5),
    ('github.com/NVIDIA/dgxc-benchmarking/nccl/README.md', 'nvidia-dgxc-', 6),
    ('github.com/aws-samples/aws-efa-eks/README.md', 'aws-efa-eks-', 6),
    ('github.com/NVIDIA/deepops/docs/k8s-cluster/nvidia-network-operator.md', 'deepops-netop-', 6),
    ('github.com/NVIDIA/deepops/docs/slurm-cluster/slurm-perf-cluster.md', 'deepops-slurm-', 6),
    ('github.com/eth-cscs/cray-network-stack/examples/container/nccl-tests/README.md', 'cscs-cns-', 7),
    ('github.com/ROCm/rocm-blogs/blogs/software-tools-optimization/mi300x-rccl-xgmi/README.md', 'amd-rocmblogs-', 7),
    ('github.com/Lumi-supercomputer/ml-examples/nccl-tests.md', 'lumi-eap-', 7),
    ('github.com/google/dranet/site/content/docs/user/gke-rdma.md', 'dranet-gke-a4-', 8),
    ('github.com/google/dranet/site/content/docs/user/nvidia-dranet.md', 'dranet-nvdra-', 8),
    ('github.com/google/dranet/examples/demo_gke_rdma/README.md', 'dranet-demo-', 8),
    ('github.com/aistabci/abci2.0benchmark', 'abci2-', 9),
    ('github.com/aistabci/abci-docs/en/docs/tips/sharp.md', 'abci-docs-', 9),
    ('github.com/mghpcc/aicr-benchmarks/Benchmark_WG/nccl-tests/out-1node', 'aicr-', 10),
    ('github.com/prasad-nair-amd/alibaba/README.md', 'pnair-alibaba-', 11),
    ('github.com/TianHao65/sglang/MiMo-V2-Flash-MI308X_1P1D_Disaggregated_Inference_Guide.md', 'tianhao65-sglang-', 11),
    ('github.com/microsoft/superbenchmark/tests/benchmarks/micro_benchmarks/test_nccl_bw_performance.py', 'superbench-', 12),
    ('github.com/NREL/ESIFHPC4/AI-ML/microbenchmark/README.md', 'nrel-kestrel-', 13),
    ('github.com/Azure/aks-rdma-infiniband/tests/expected-output.md', 'azure-aks-', 13),
    ('github.com/llm-jp/nii-sakura-cluster-configs/benchmark/nccl-tests/results', 'sakura-llmjp-', 14),
    ('github.com/aws-ia/terraform-aws-eks-blueprints/patterns/nvidia-gpu-efa/README.md', 'awsia-eksbp-', 15),
    # the same file as round 5's oci-oke key, on its grace-blackwell branch: another document (GB200 tables the main
    # branch never held), so a key of its own; round 5's source and assignment stay as they were
    ('github.com/oracle-quickstart/oci-hpc-oke/README.md@grace-blackwell', 'ocigb-oke-', 16),
    ('github.com/NERSC/nccl-ofi-plugin/logs-regression', 'nersc-perlmutter-', 17),
    ('github.com/konnase/konnase.github.io/source/_posts/machine_learning/NCCL.md', 'konnase-', 17),
    ('github.com/aikitoria/open-gpu-kernel-modules/README.md', 'aikitoria-', 17),
    ('github.com/ZiyanIshani/vpbenchmarking/results/nccl/nccl_multinode', 'vpbench-', 20),
    ('github.com/mit-orcd/orcd-benchmarks/chris-nccl-notes/ubuntu_8xh200', 'mitorcd-', 20),
    # round 21: a GitHub issue thread (read as the search index's copy, which names the issue as its source)
    ('github.com/ROCm/rccl/issues/1562', 'rccl1562-', 21),
]
src=[list(x) for x in SOURCES]
rnd={k:r for k,_,r in src}
logs=sorted(glob.glob('*/*.log'))
owner={}
for f in logs:
    b=os.path.basename(f); m=[k for k,p,_ in src if b.startswith(p)]; assert len(m)==1,(f,m); owner[f]=m[0]
def klass(f):
    d=f.split('/')[0]
    if d.startswith(('h100','gh200','h200')): return 'hopper'
    if d.startswith('a100'): return 'ampere'
    if d.startswith(('b200','gb200')): return 'blackwell'
    if d.startswith(('mi300','mi308','mi355','mi100')): return 'amd-instinct'   # mi100: LUMI-EAP (round 7); mi308: MI308X (round 11)
    if d.startswith(('pcie','rtx')): return 'pcie'   # rtx: RTX PCIe cards in multi-node folders (round 3)
    if d.startswith('v100'): return 'volta'   # round 17
    raise Exception(d)
def scale(f):
    d=f.split('/')[0]
    return 'single-node' if d in ('a100-8','b200-8','h100-8','h200-8','h100x4-1','mi300x-8','gb200-nvl72','gh200x4-slingshot-1n','v100-8') or d.startswith('pcie') else 'multi-node'
H={k:int(hashlib.sha256(k.encode()).hexdigest()[:8],16) for k,_,_ in src}
n={k:sum(1 for f in logs if owner[f]==k) for k,_,_ in src}
half={}; moves=[]
for r in sorted(set(rnd.values())):
    keys=[k for k in H if rnd[k]==r]
    # rule 1: greedy in ascending hash order, each source to the half holding fewer of this round's logs (tie: fit)
    cnt={'fit':0,'check':0}
    for k in sorted(keys,key=lambda k:H[k]):
        h='fit' if cnt['fit']<=cnt['check'] else 'check'; half[k]=h; cnt[h]+=n[k]
    # rule 2: every class (and scale) with >=2 of this round's sources must appear in both halves: move the
    # class's smallest source (fewest logs, then smallest hash) from the half that has all of them
    rlogs=[f for f in logs if rnd[owner[f]]==r]
    for key in (klass,scale):
        groups=collections.defaultdict(set)
        for f in rlogs: groups[key(f)].add(owner[f])
        for g,ss in sorted(groups.items()):
            hs={half[s] for s in ss}
            if len(ss)>=2 and len(hs)==1:
                s=min(ss,key=lambda s:(n[s],H[s])); old=half[s]; half[s]='check' if old=='fit' else 'fit'; moves.append((r,g,s,old,half[s]))
ROUND_NOTE={2:'# round 2 (2026-12-02): sources added after the split above was fixed, split among themselves by the same rules (make_split.py); round 1 unchanged',
            3:'# round 3 (2026-12-02): sources added after rounds 1 and 2 were fixed, split among themselves by the same rules (make_split.py); rounds 1 and 2 unchanged',
            4:'# round 4 (2026-12-02): PCIe/SHM sources (NCCL through host memory) added after rounds 1-3 were fixed, split among themselves by the same rules (make_split.py); rounds 1-3 unchanged',
            5:'# round 5 (2026-12-02): one-process-per-GPU multi-node sweeps from 1 or 8 bytes (GH200x4 Slingshot, A100 RoCE) added after rounds 1-4 were fixed, split among themselves by the same rules (make_split.py); rounds 1-4 unchanged',
            6:'# round 6 (2026-12-02): one process per GPU on one 8-GPU NVSwitch node (DGX H100) and on 2- and 4-node DGX A100 / p4d clusters (IB, EFA) added after rounds 1-5 were fixed, split among themselves by the same rules (make_split.py); rounds 1-5 unchanged',
            7:'# round 7 (2026-12-02): one process per GPU from 8 bytes at HPC centres and on one 8x MI300X node (CSCS Alps GH200x4 2 nodes, LUMI-EAP MI100 2x1, AMD MI300X blog) added after rounds 1-6 were fixed, split among themselves by the same rules (make_split.py); rounds 1-6 unchanged',
            8:'# round 8 (2026-12-02): one process per GPU across 2 GCP nodes on RoCE (gIB plugin) from Google DraNet documentation (2x A4 B200 8+8 ranks; A4 B200 and A3 Ultra H200 with 1 GPU a node) added after rounds 1-7 were fixed, split among themselves by the same rules (make_split.py); rounds 1-7 unchanged',
            9:'# round 9 (2026-12-03): AIST ABCI 2.0 A nodes (8x A100 SXM4, NVSwitch, 4x HDR IB), one process per GPU from 4 or 8 bytes on 1 to 16 nodes (abci2.0benchmark) and a 2-node SHARP run (ABCI user guide), added after rounds 1-8 were fixed, split among themselves by the same rules (make_split.py); rounds 1-8 unchanged',
            10:'# round 10 (2026-12-03): one 8x B200 HGX node of MGHPCC\'s AI cluster, one process driving all 8 GPUs, nine collectives from 1 MiB (aicr-benchmarks), added after rounds 1-9 were fixed (make_split.py); rounds 1-9 unchanged',
            11:'# round 11 (2026-12-03): RCCL across 2 AMD nodes with one process per GPU from 16 B or 1 KiB (8x MI355X with Pollara 400 NICs: all_reduce, alltoall; 8x MI308X with Broadcom Thor2 RoCE NICs: all_reduce), added after rounds 1-10 were fixed, split among themselves by the same rules (make_split.py); rounds 1-10 unchanged',
            12:'# round 12 (2026-12-03): one 8x A100-SXM4-40GB node, one process driving all 8 GPUs, all_gather, all_reduce, broadcast, reduce and reduce_scatter from 4 B to 8 GiB (microsoft/superbenchmark, the test fixtures as first committed, 2021-07-02), added after rounds 1-11 were fixed (make_split.py); rounds 1-11 unchanged',
            13:'# round 13 (2026-12-04): NREL Kestrel (16 x 4 H100 SXM on Slingshot-11, all_reduce and all_gather from 8 B, NCCL 2.21.5) and Azure AKS on 2 x ND A100 v4 (8 A100 40GB, 8x HDR IB; all_reduce from 8 B), one process per GPU, added after rounds 1-12 were fixed, split among themselves by the same rules (make_split.py); rounds 1-12 unchanged',
            14:'# round 14 (2026-12-04): one 8x H100 HGX node of LLM-jp\'s cluster at Sakura Internet, one process driving all 8 GPUs (-g 8), seven collectives from 8 B to 256 MiB (llm-jp/nii-sakura-cluster-configs), added after rounds 1-13 were fixed (make_split.py); rounds 1-13 unchanged',
            15:'# round 15 (2026-12-04): 2 x 8 GPUs of AWS p5-class nodes on EFA (32 interfaces, 3200 Gbps), one process per GPU, all_reduce from 8 B to 16 GiB (aws-ia/terraform-aws-eks-blueprints), added after rounds 1-14 were fixed (make_split.py); rounds 1-14 unchanged',
            16:'# round 16 (2026-12-04): two GB200 compute trays of one NVL72 rack (OCI BM.GPU.GB200.4, 8 ranks over NVLink), all_reduce from 8 B to 32 GiB (oracle-quickstart/oci-hpc-oke README, grace-blackwell branch), added after rounds 1-15 were fixed (make_split.py); rounds 1-15 unchanged',
            17:'# round 17 (2026-12-04): NERSC Perlmutter (2 x 4 A100 on Slingshot-11, all_reduce from 8 B), an 8x V100 SXM2 server (2019) and an 8x RTX 5090 PCIe host (both one process driving 8 GPUs), added after rounds 1-16 were fixed, split among themselves by the same rules (make_split.py); rounds 1-16 unchanged',
            20:'# round 20 (2026-12-06): 4 x 8 H100 on InfiniBand at Voltage Park, one process per GPU, all_gather, all_reduce, broadcast and reduce from 8 B to 8 GiB (ZiyanIshani/vpbenchmarking, NCCL 2.24.3), and one 8x H200 node, one process driving all 8 GPUs, six collectives from 1 MiB (mit-orcd/orcd-benchmarks), added after rounds 1-17 were fixed (rounds 18 and 19 took nothing), split among themselves by the same rules (make_split.py); rounds 1-17 unchanged',
            21:'# round 21 (2026-12-06): one 8x MI300X node (SR-IOV functions of an Azure VM), one process driving all 8 GPUs, all_reduce from 8 B to 128 MiB, RCCL 2.20.5 per the thread (ROCm/rccl issue 1562), added after rounds 1-20 were fixed (make_split.py); rounds 1-20 unchanged'}
if __name__=='__main__':
    for r in sorted(set(rnd.values())):
        print('round',r)
        for k in sorted((k for k in H if rnd[k]==r),key=lambda k:H[k]): print(' ',half[k],'%08x'%H[k],n[k],k)
        c=collections.Counter(half[owner[f]] for f in logs if rnd[owner[f]]==r); print('  logs',dict(c))
    print('moves',moves)
    c=collections.Counter(half[owner[f]] for f in logs); print('all rounds',dict(c))
    for key in (klass,scale):
        g=collections.defaultdict(lambda:collections.Counter())
        for f in logs: g[key(f)][half[owner[f]]]+=1
        print({k:dict(v) for k,v in g.items()})
    if len(sys.argv)>1:
        with open(sys.argv[1],'w') as o:
            o.write('# commroof corpus split, fixed once (validate/corpus/README.md, "Fitting / checking split"); paths relative to validate/corpus/\n')
            for r in sorted(set(rnd.values())):
                if r in ROUND_NOTE: o.write(ROUND_NOTE[r]+'\n')
                for hname in ('fit','check'):
                    for f in logs:
                        if rnd[owner[f]]==r and half[owner[f]]==hname: o.write(f'{hname} {f}\n')
