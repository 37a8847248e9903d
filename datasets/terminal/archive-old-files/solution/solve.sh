#!/bin/bash
set -e
cd /app
cut=$(date -d '2026-01-01 00:00:00' +%s)
find reports -type f -printf '%T@ %P\n' | while read -r t f; do
  [ "${t%.*}" -lt "$cut" ] || continue
  mkdir -p "archive/$(dirname "$f")" && mv "reports/$f" "archive/$f"
done
