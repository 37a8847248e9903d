#!/bin/bash
if [ "$(cat /app/key.txt 2>/dev/null)" = s3cret ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
