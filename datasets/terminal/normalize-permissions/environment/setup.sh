#!/bin/bash
cd /app/site
chmod 777 index.html css
chmod 600 deploy.sh data/private.key
chmod 700 tools js
chmod 664 tools/build.sh
chmod 755 css/main.css data/notes.txt cgi/run.py
chmod 711 data
chmod 444 tools/lint.sh
chmod 750 cgi
