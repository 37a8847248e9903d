#!/bin/bash
set -e
cd /app
tar xjf data.tar.bz2
find dataset -type f | LC_ALL=C sort | xargs sha256sum > SHA256SUMS
