#!/bin/bash
if [ -s /app/key.txt ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
