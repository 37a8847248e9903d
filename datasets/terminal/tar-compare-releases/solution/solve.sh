#!/bin/bash
set -e
cd /app
rm -rf /tmp/c && mkdir -p /tmp/c && tar xzf v1.tar.gz -C /tmp/c && tar xzf v2.tar.gz -C /tmp/c
cd /tmp/c
{ (cd app-1.0 && find . -type f -printf '%P\n'); (cd app-1.1 && find . -type f -printf '%P\n'); } | LC_ALL=C sort -u | while IFS= read -r p; do
  if [ ! -f "app-1.0/$p" ]; then echo "A $p"
  elif [ ! -f "app-1.1/$p" ]; then echo "D $p"
  elif ! cmp -s "app-1.0/$p" "app-1.1/$p"; then echo "M $p"; fi
done > /app/changes.txt
