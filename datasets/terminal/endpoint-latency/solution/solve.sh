#!/bin/bash
set -e
cd /app
{ printf 'path\tcount\tavg_ms\tmax_ms\n'
  awk '{d=$5; sub(/ms$/,"",d); d+=0; n[$3]++; s[$3]+=d; if (d>m[$3]) m[$3]=d}
       END {for (p in n) printf "%s\t%d\t%d\t%d\n", p, n[p], int(s[p]/n[p]), m[p]}' timing.log | LC_ALL=C sort
} > latency.tsv
