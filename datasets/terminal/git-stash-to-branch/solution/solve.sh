#!/bin/bash
set -e
cd /app
cd worker
ref=$(git stash list --format='%gd %s' | awk '/wip: add retry$/ {print $1}')
git checkout -q -b retry-logic main
git stash apply -q "$ref"
git commit -q -am "Add retry logic"
git stash drop -q "$ref"
git checkout -q main
