#!/bin/bash
jq -r '.[].name' /app/people.json > /app/names.txt
