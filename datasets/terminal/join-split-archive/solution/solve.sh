#!/bin/bash
set -e
cd /app
mkdir -p restored
cat backup.tar.gz.part-[a-z][a-z] | tar xzf - -C restored
