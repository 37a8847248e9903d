#!/bin/bash
set -e
cd /app
cd app
git checkout -q main
git cherry-pick $(git log --format='%H %s' feature/experimental | awk '$0 ~ / Fix off-by-one in paginate$/ {print $1}')
