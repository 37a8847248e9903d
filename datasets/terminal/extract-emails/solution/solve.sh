#!/bin/bash
set -e
cd /app
find docs -type f \( -name '*.txt' -o -name '*.md' \) -exec grep -ohE '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}' {} + | tr 'A-Z' 'a-z' | LC_ALL=C sort -u > emails.txt
