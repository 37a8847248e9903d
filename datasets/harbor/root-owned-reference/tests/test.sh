#!/bin/bash
# The expected file is root's (0600) and so is the verifier; the agent's answer is 0600 too.
if [ "$(id -u)" = 0 ] && cmp -s /app/sorted.txt /opt/expected/sorted.txt \
   && [ "$(stat -c %a /app/sorted.txt)" = 600 ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
