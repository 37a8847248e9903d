#!/bin/bash
cd /app
touch -d '20 days ago' var/cache/x/blob00.dat
touch -d '5 days ago' var/log/blob01.dat
touch -d '1 days ago' var/blob02.dat
touch -d '6 days ago' var/cache/x/blob03.dat
touch -d '40 days ago' var/tmp/blob04.dat
touch -d '9 days ago' var/blob05.dat
touch -d '5 days ago' var/tmp/blob06.dat
touch -d '40 days ago' var/tmp/blob07.dat
touch -d '5 days ago' var/log/blob08.dat
touch -d '5 days ago' var/blob09.dat
touch -d '1 days ago' var/log/blob10.dat
touch -d '40 days ago' var/cache/x/blob11.dat
touch -d '1 days ago' var/edge-size.dat
