#!/bin/bash
if [ "$(cat /app/status.txt 2>/dev/null)" = green ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
