#!/bin/bash
got=$(tr -d '[:space:]' < /app/count.txt 2>/dev/null)
if [ "$got" = 4 ]; then r=1.0; else r=0.0; fi
printf '{"reward": %s}' "$r" > /logs/verifier/reward.json
