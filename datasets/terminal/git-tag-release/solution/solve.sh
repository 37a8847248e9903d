#!/bin/bash
set -e
cd /app
cd tool
c=$(git log --format='%H %s' | awk '/ Bump version to 2.0.0$/ {print $1}')
git tag -a v2.0.0 -m "Release 2.0.0" "$c"
git tag -f stable "$c" >/dev/null
