#!/bin/bash
set -e
cd /app
tar czf app.tar.gz app
