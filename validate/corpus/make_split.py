#!/usr/bin/env python3
# The fitting/checking split of validate/corpus, by source (README.md, "Fitting / checking split").
# Run from validate/corpus/: prints the assignment; "python3 make_split.py split.txt" rewrites split.txt.
# SOURCES: (split key, file-name prefix of that source's logs). Rule 1: sources in ascending order of
# the first 8 hex digits of sha256(key), each to the half holding fewer logs so far (tie: fit).
# Rule 2: a GPU class or a scale (single-/multi-node) with >= 2 sources all in one half moves its
# source with the fewest logs (then the smallest hash) to the other half. No model output is read.
import hashlib,glob,os,collections,sys
SOURCES = [
    ('github.com/aws-samples/awsome-distributed-training/micro-benchmarks/nccl-tests/README.md', 'aws-adt-'),
    ('github.com/lessizzmore/create-a3mega-ztan-fork/ztan-NCCL-test-result.markdown', 'gcp-a3mega-ztan-'),
    ('github.com/hisohara/ai-scripts/training/01_rccl-smoketest/README.md', 'aac'),
    ('github.com/coreweave/nccl-tests/README.md', 'coreweave-'),
    ('github.com/dstackai/dstack/mkdocs/docs/examples/clusters/lambda.md', 'dstack-lambda-'),
    ('github.com/dstackai/dstack/mkdocs/docs/examples/clusters/nebius.md', 'dstack-nebius-'),
    ('github.com/dstackai/dstack/mkdocs/docs/examples/clusters/gcp.md', 'dstack-gcp-'),
    ('github.com/li-plus/playground/cuda/bw.md', 'liplus-'),
    ('github.com/oracle-japan/ocitutorials/tutorials/_hpc/benchmark/run-nccltests-h100.md', 'oci-bm-gpu-h100-'),
    ('github.com/oracle-japan/ocitutorials/tutorials/_hpc/benchmark/run-nccltests.md', 'oci-bm-gpu4-all'),
    ('github.com/oracle-japan/ocitutorials/tutorials/_hpc/benchmark/run-nccltests-ubuntu.md', 'oci-bm-gpu4-ubuntu-'),
    ('github.com/argonne-lcf/alcf-nccl-tests/results_polaris', 'alcf-polaris-'),
    ('github.com/argonne-lcf/alcf-nccl-tests/results_sophia', 'alcf-sophia-'),
    ('github.com/odissei-benchmarks/nccl-tests/runs', 'odissei-'),
    ('github.com/KeitaW/p5-nccl-test-2024-07-19', 'keitaw-'),
    ('github.com/xxrjun/nccl-tests-cluster/benchmarks/example-cluster00', 'xxrjun-cluster00-'),
    ('github.com/xxrjun/nccl-tests-cluster/benchmarks/example-cluster01', 'xxrjun-cluster01-'),
    ('github.com/boeschf/nccl-benchmark-on-alps-2025/results', 'cscs-alps-'),
    ('github.com/Anthony-Hoo/Anthony-Hoo.github.io/posts/AutoDL_Multi-GPU_Interconnection_Test.md', 'autodl-2080ti-'),
]
src=[list(x) for x in SOURCES]
logs=sorted(glob.glob('*/*.log'))
owner={}
for f in logs:
    b=os.path.basename(f); m=[k for k,p in src if b.startswith(p)]; assert len(m)==1,(f,m); owner[f]=m[0]
def klass(f):
    d=f.split('/')[0]
    if d.startswith(('h100','gh200','h200')): return 'hopper'
    if d.startswith('a100'): return 'ampere'
    if d.startswith(('b200','gb200')): return 'blackwell'
    if d.startswith(('mi300','mi355')): return 'amd-instinct'
    if d.startswith('pcie'): return 'pcie'
    raise Exception(d)
def scale(f):
    d=f.split('/')[0]
    return 'single-node' if d in ('a100-8','h100-8','h100x4-1','mi300x-8','gb200-nvl72','gh200x4-slingshot-1n') or d.startswith('pcie') else 'multi-node'
H={k:int(hashlib.sha256(k.encode()).hexdigest()[:8],16) for k,_ in src}
n={k:sum(1 for f in logs if owner[f]==k) for k,_ in src}
# rule 1: greedy in ascending hash order, each source to the half holding fewer logs so far (tie: fit)
half={}; cnt={'fit':0,'check':0}
for k in sorted(H,key=lambda k:H[k]):
    h='fit' if cnt['fit']<=cnt['check'] else 'check'; half[k]=h; cnt[h]+=n[k]
# rule 2: every class (and scale) with >=2 sources must appear in both halves: move the class's smallest source
# (fewest logs, then smallest hash) from the half that has all of them to the other half
moves=[]
for key in (klass,scale):
    groups=collections.defaultdict(set)
    for f in logs: groups[key(f)].add(owner[f])
    for g,ss in sorted(groups.items()):
        hs={half[s] for s in ss}
        if len(ss)>=2 and len(hs)==1:
            s=min(ss,key=lambda s:(n[s],H[s])); old=half[s]; half[s]='check' if old=='fit' else 'fit'; moves.append((g,s,old,half[s]))
if __name__=='__main__':
    for k in sorted(H,key=lambda k:H[k]): print(half[k],'%08x'%H[k],n[k],k)
    print('moves',moves)
    c=collections.Counter(half[owner[f]] for f in logs); print(c)
    for key in (klass,scale):
        g=collections.defaultdict(lambda:collections.Counter())
        for f in logs: g[key(f)][half[owner[f]]]+=1
        print(dict(g))
    if len(sys.argv)>1:
        with open(sys.argv[1],'w') as o:
            o.write('# commroof corpus split, fixed once (validate/corpus/README.md, "Fitting / checking split"); paths relative to validate/corpus/\n')
            for hname in ('fit','check'):
                for f in logs:
                    if half[owner[f]]==hname: o.write(f'{hname} {f}\n')
