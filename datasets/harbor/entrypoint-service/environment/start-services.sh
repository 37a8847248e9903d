#!/bin/sh
cd /srv/status && python3 -m http.server 7000 > /tmp/status.log 2>&1 &
exec "$@"
