#!/bin/bash
# The verifier writes build products into the agent's /app (as Harbor's root verifier may:
# __pycache__ from py_compile), and takes its verdict from a pipe, never from a file there.
cd /app
if python3 -m py_compile /app/calc.py && [ "$(python3 /tests/check_calc.py)" = ok ] \
   && [ -d /app/__pycache__ ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
