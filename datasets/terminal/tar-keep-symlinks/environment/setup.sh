#!/bin/bash
cd /app/app
ln -s releases/v2 current
ln -s ../shared/config.ini releases/v2/config.ini
ln -s /etc/hostname host-link
