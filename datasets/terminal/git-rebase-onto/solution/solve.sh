#!/bin/bash
set -e
cd /app
cd web
git rebase -q --onto main old-base feature
