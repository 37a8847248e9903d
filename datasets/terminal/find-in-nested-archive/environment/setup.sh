#!/bin/bash
set -e
cd /app
mkdir -p /tmp/stage && cd /tmp/stage
mkdir -p a/etc b/var/conf c/opt
for i in 1 2 3 4 5; do printf 'LEVEL=info\nNAME=svc%s\n' $i > a/etc/svc$i.env; done
printf 'TOKEN=expired-ZZZZ\n# rotated\n' > a/etc/old.env.bak
printf 'user=app\nTOKEN_HINT=see the live config\n' > c/opt/readme.txt
printf 'MY_TOKEN=decoy-one\n' >> a/etc/svc3.env
printf 'TOKEN_OLD=decoy-two\n' > c/opt/app.env
printf 'LEVEL=warn\nTOKEN=CRNFS3L48FSCH3J9UA4T\nPORT=9000\n' > b/var/conf/live.env
printf 'PORT=9001\n' > b/var/conf/other.env
(cd a && zip -qr ../configs-a.zip .)
(cd b && tar cjf ../configs-b.tar.bz2 var)
(cd c && zip -qr ../misc.zip .)
mkdir outer && mv configs-a.zip configs-b.tar.bz2 misc.zip outer/
printf 'bundle of configs\n' > outer/MANIFEST
tar czf /app/bundle.tar.gz -C outer .
cd /app && rm -rf /tmp/stage
