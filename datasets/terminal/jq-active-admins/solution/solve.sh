#!/bin/bash
set -e
cd /app
jq -r '.users | sort_by(.id)[] | select(.active and (.roles | index("admin"))) | .email' users.json > admins.txt
jq '[.users[] | select(.active) | .roles[]] | group_by(.) | map({(.[0]): length}) | add // {}' users.json > roles.json
