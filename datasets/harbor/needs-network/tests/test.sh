#!/bin/bash
if grep -qi '<html' /app/page.html 2>/dev/null; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
