#!/bin/bash
set -e
cd /app
find var -type f -size +51200c -mtime -7 -printf '%s %p\n' | sort -k1,1nr -k2,2 > large-recent.txt
