#!/bin/bash
set -e
cd /app
awk '$2 == "ERROR"' app.log | wc -l > error_count.txt
awk '$2 == "ERROR" {print $3}' app.log | sort -u > error_workers.txt
