#!/bin/bash
wc -l < /app/data.csv | tr -d ' ' > /app/count.txt
