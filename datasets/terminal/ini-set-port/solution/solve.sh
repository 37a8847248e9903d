#!/bin/bash
set -e
cd /app
sed -i '/^\[server\]$/,/^\[/{s/^port = .*/port = 8443/;s/^debug = .*/debug = false/}' config.ini
