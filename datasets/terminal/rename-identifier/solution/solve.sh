#!/bin/bash
set -e
cd /app
find src -name '*.py' -exec sed -i 's/\bget_usr\b/get_user/g' {} +
