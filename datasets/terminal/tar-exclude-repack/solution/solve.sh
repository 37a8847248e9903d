#!/bin/bash
set -e
cd /app
tar czf project.tar.gz --exclude=node_modules --exclude='*.log' --exclude=project/build project
