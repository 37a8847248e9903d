#!/bin/bash
set -e
cd /app
cd lib
git rebase -q HEAD~2 --exec 'git commit -q --amend --no-edit --author="Jane Doe <jane@example.com>"'
