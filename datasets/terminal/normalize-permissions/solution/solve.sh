#!/bin/bash
set -e
cd /app
find site -type d -exec chmod 755 {} +
find site -type f -name '*.sh' -exec chmod 755 {} +
find site -type f ! -name '*.sh' -exec chmod 644 {} +
