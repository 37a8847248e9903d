#!/bin/bash
set -e
cd /app
mv lib/Format.js lib/format.js
sed -i 's/^export default /module.exports = /' lib/format.js
