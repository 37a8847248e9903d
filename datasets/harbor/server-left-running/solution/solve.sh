#!/bin/bash
cd /app/site && nohup python3 -m http.server 8000 > /tmp/server.log 2>&1 &
sleep 1
