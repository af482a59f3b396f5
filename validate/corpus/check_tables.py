#!/usr/bin/env python3
# Re-derives algbw = bytes / time from every result row of every log here (run from validate/corpus/)
# and prints rows, size range, busbw/algbw ratios and mismatches: a transcription check, not a model check.
import re,sys,glob,os
rowre=re.compile(r'^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(-?\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)')
# old nccl-tests format (before 2.10: no root column, #wrong printed as an error value): aws-efa-eks
oldre=re.compile(r'^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\S+)()\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+\S+\s*$')
# old nccl-tests all_gather (no redop, no root column): microsoft/superbenchmark (round 12)
oldre2=re.compile(r'^\s*(\d+)\s+(\d+)\s+(\S+)()()\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+\S+\s*$')
bad=0
for f in sorted(glob.glob('*/*.log')):
    n=0; errs=[]; ratios=set(); sizes=[]
    for ln in open(f,errors='replace'):
        if ln.startswith('#'): continue
        ln=re.sub(r'^\(\w+, rank=\d+, pid=\d+\) ','',ln)   # SkyPilot's per-line prefix (h200-roce-2n)
        if ln.startswith('[') and '<stdout>:#' in ln: continue
        s=re.sub(r'^(\[\d+,\d+\]<stdout>:|\s*\d+:\s)','',ln)
        m=rowre.match(s) or oldre.match(s) or oldre2.match(s)
        if not m: continue
        size=int(m[1]); t=float(m[6]); a=float(m[7]); b=float(m[8]); t2=float(m[10]); a2=float(m[11])
        n+=1; sizes.append(size)
        for tt,aa in ((t,a),(t2,a2)):
            if tt<=0: continue
            calc=size/tt/1e3
            if abs(calc-aa)>max(0.011,0.006*aa): errs.append((size,tt,aa,round(calc,3)))
        if a>=1: ratios.add(round(b/a,2))
    rel=os.path.relpath(f,'.')
    print(f"{rel}: rows={n} sizes={min(sizes) if sizes else '-'}..{max(sizes) if sizes else '-'} busbw/algbw={sorted(ratios)} algbw-mismatch={len(errs)} {errs[:2]}")
    bad+=len(errs)
print('total mismatches',bad)
