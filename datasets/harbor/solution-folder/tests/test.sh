#!/bin/bash
if grep -qx 'mode=fast' /app/conf/app.ini 2>/dev/null; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
