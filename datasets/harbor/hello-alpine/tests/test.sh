#!/bin/bash
if [ "$(cat /tmp/os.txt 2>/dev/null)" = alpine ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
