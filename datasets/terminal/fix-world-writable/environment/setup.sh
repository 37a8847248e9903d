#!/bin/bash
cd /app/srv
chmod 666 index.html conf/app.conf
chmod 777 upload bin/restart.sh
chmod 4755 bin/status.sh
chmod 640 conf/secret.conf
chmod 2775 logs
chmod 757 conf
chmod 602 logs/app.log
