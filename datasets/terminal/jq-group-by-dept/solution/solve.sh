#!/bin/bash
set -e
cd /app
jq 'map(select(.active)) | group_by(.dept) | map({(.[0].dept): {count: length, names: (map(.name) | sort), total_salary: (map(.salary) | add)}}) | add // {}' employees.json > by_dept.json
