#!/bin/bash
set -e
mkdir -p /tmp/s && cd /tmp/s
mkdir -p "$(dirname 'myapp-1.4/bin/run.sh')" && echo IyEvYmluL3NoCmVjaG8gcnVubmluZyBteWFwcAo= | base64 -d > 'myapp-1.4/bin/run.sh'
mkdir -p "$(dirname 'myapp-1.4/lib/core.py')" && echo VkVSU0lPTiA9ICcxLjQuMCcK | base64 -d > 'myapp-1.4/lib/core.py'
mkdir -p "$(dirname 'myapp-1.4/lib/util.py')" && echo ZGVmIGYoKToKICAgIHJldHVybiAxCg== | base64 -d > 'myapp-1.4/lib/util.py'
mkdir -p "$(dirname 'myapp-1.4/README.txt')" && echo TXlBcHAgMS40LjAK | base64 -d > 'myapp-1.4/README.txt'
mkdir -p "$(dirname 'myapp-1.4/conf/default.ini')" && echo W21haW5dCmtleSA9IHZhbHVlCg== | base64 -d > 'myapp-1.4/conf/default.ini'
chmod 755 myapp-1.4/bin/run.sh
zip -qr /app/release.zip myapp-1.4
cd /app && rm -rf /tmp/s
