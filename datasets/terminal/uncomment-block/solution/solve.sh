#!/bin/bash
set -e
cd /app
sed -i '/^ *# BEGIN tls$/,/^ *# END tls$/{/# BEGIN tls$/b;/# END tls$/b;s/^\( *\)# /\1/}' site.conf
