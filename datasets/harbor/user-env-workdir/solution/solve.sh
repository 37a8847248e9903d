#!/bin/bash
printf "%s\n" "$GREETING" > greeting.txt
