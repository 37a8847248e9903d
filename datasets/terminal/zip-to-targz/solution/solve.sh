#!/bin/bash
set -e
cd /app
rm -rf /tmp/r && mkdir -p /tmp/r && unzip -q release.zip -d /tmp/r
mv /tmp/r/myapp-1.4 /tmp/r/myapp-1.4.0
tar czf myapp-1.4.0.tar.gz -C /tmp/r myapp-1.4.0
