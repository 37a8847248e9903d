#!/bin/bash
set -e
cd /app
find srv -perm /6002 | LC_ALL=C sort > changed.txt
find srv -perm /6002 -exec chmod o-w,ug-s {} +
