#!/bin/bash
set -e
cd /app
mkdir -p /tmp/x && tar xzf bundle.tar.gz -C /tmp/x && cd /tmp/x
for z in *.zip; do mkdir -p "in/$z" && unzip -q "$z" -d "in/$z"; done
for t in *.tar.*; do mkdir -p "in/$t" && tar xf "$t" -C "in/$t"; done
hit=$(grep -r --include='*.env' -l '^TOKEN=' in | head -1)
grep -h '^TOKEN=' "$hit" | head -1 | cut -d= -f2- > /app/token.txt
echo "$hit" | cut -d/ -f2 > /app/token-archive.txt
