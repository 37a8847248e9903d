#!/bin/bash
set -e
cd /app
: > removed-links.txt
for l in bin/*; do
  [ -L "$l" ] && [ ! -e "$l" ] || continue
  name=$(basename "$(readlink "$l")")
  if [ -f "tools/v2/$name" ]; then ln -sfn "../tools/v2/$name" "$l"; else rm "$l"; basename "$l" >> removed-links.txt; fi
done
sort -o removed-links.txt removed-links.txt
