#!/bin/bash
set -e
cd /app
awk '{s=$0; gsub(/^[ \t]+|[ \t]+$/, "", s); k=tolower(s); if (!(k in seen)) {seen[k]=1; print s}}' contacts.txt > unique.txt
echo $(( $(wc -l < contacts.txt) - $(wc -l < unique.txt) )) > dropped.txt
