#!/bin/bash
mkdir -p /app/conf && cp /solution/app.ini /app/conf/app.ini
