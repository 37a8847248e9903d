#!/bin/bash
set -e
cd /app
cd logs
for f in app.log.[0-9]*; do case $f in *.gz) ;; *) gzip "$f" ;; esac; done
{ cat app.log; zcat app.log.*.gz; } | wc -l > ../total_lines.txt
