#!/bin/bash
cd /app/logs
mkdir -p "$(dirname 'app.log.6')" && echo b2xkIGxpbmUgMApvbGQgbGluZSAxCm9sZCBsaW5lIDIKb2xkIGxpbmUgMwpvbGQgbGluZSA0Cm9sZCBsaW5lIDUKb2xkIGxpbmUgNgpvbGQgbGluZSA3Cm9sZCBsaW5lIDgKb2xkIGxpbmUgOQpvbGQgbGluZSAxMApvbGQgbGluZSAxMQpvbGQgbGluZSAxMgpvbGQgbGluZSAxMwpvbGQgbGluZSAxNApvbGQgbGluZSAxNQpvbGQgbGluZSAxNgo= | base64 -d > 'app.log.6'
gzip -n app.log.6
