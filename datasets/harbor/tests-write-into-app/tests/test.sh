#!/bin/bash
# The verifier writes its build products into the agent's /app (as Harbor's root verifier may).
mkdir -p /app/.check && cp /tests/check_calc.py /app/.check/ && cd /app \
  && python3 .check/check_calc.py > /app/.check/out.txt 2>&1
if grep -qx ok /app/.check/out.txt; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
