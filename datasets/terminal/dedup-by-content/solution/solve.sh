#!/bin/bash
set -e
cd /app
cd downloads
: > ../removed.txt
find . -type f -printf '%P\n' | LC_ALL=C sort | while IFS= read -r f; do
  h=$(sha256sum < "$f" | cut -d' ' -f1)
  printf '%s\t%s\n' "$h" "$f"
done | awk -F'\t' 'seen[$1]++ {print $2}' > ../removed.txt
while IFS= read -r f; do rm -- "$f"; done < ../removed.txt
