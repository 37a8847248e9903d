#!/bin/bash
set -e
cd /app
cd service
git log --format=%H --reverse -S sk-test- | head -1 > /app/leak_commit.txt
git log -1 --format=%ae "$(cat /app/leak_commit.txt)" > /app/leak_author.txt
