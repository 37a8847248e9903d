#!/bin/bash
set -e
cd /app
for d in data/*/; do
  n=$(basename "$d")
  echo "$(find "$d" -type f -printf '%s\n' | awk '{s+=$1} END {print s+0}') $n"
done | sort -k1,1nr > usage.txt
find data -type f -printf '%s %p\n' | sort -k1,1nr | head -1 | cut -d' ' -f2 > largest.txt
