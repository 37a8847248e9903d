#!/bin/bash
set -e
mkdir -p /tmp/s && cd /tmp/s
mkdir -p "$(dirname 'app-1.0/README')" && echo YXBwIDEuMAo= | base64 -d > 'app-1.0/README'
mkdir -p "$(dirname 'app-1.0/src/a.py')" && echo QSA9IDEK | base64 -d > 'app-1.0/src/a.py'
mkdir -p "$(dirname 'app-1.0/src/b.py')" && echo QiA9IDEK | base64 -d > 'app-1.0/src/b.py'
mkdir -p "$(dirname 'app-1.0/src/old.py')" && echo T0xECg== | base64 -d > 'app-1.0/src/old.py'
mkdir -p "$(dirname 'app-1.0/conf/x.ini')" && echo eD0xCg== | base64 -d > 'app-1.0/conf/x.ini'
mkdir -p "$(dirname 'app-1.0/docs/guide.md')" && echo Z3VpZGUK | base64 -d > 'app-1.0/docs/guide.md'
mkdir -p "$(dirname 'app-1.0/docs/api.md')" && echo YXBpCg== | base64 -d > 'app-1.0/docs/api.md'
mkdir -p "$(dirname 'app-1.1/README')" && echo YXBwIDEuMQo= | base64 -d > 'app-1.1/README'
mkdir -p "$(dirname 'app-1.1/src/a.py')" && echo QSA9IDEK | base64 -d > 'app-1.1/src/a.py'
mkdir -p "$(dirname 'app-1.1/src/b.py')" && echo QiA9IDIK | base64 -d > 'app-1.1/src/b.py'
mkdir -p "$(dirname 'app-1.1/src/new.py')" && echo TkVXCg== | base64 -d > 'app-1.1/src/new.py'
mkdir -p "$(dirname 'app-1.1/conf/x.ini')" && echo eD0xCg== | base64 -d > 'app-1.1/conf/x.ini'
mkdir -p "$(dirname 'app-1.1/docs/guide.md')" && echo Z3VpZGUgdjIK | base64 -d > 'app-1.1/docs/guide.md'
mkdir -p "$(dirname 'app-1.1/docs/howto.md')" && echo aG93dG8K | base64 -d > 'app-1.1/docs/howto.md'
mkdir -p "$(dirname 'app-1.1/conf/y.ini')" && echo eT0xCg== | base64 -d > 'app-1.1/conf/y.ini'
mkdir app-1.1/empty-dir
tar czf /app/v1.tar.gz app-1.0 && tar czf /app/v2.tar.gz app-1.1
cd /app && rm -rf /tmp/s
