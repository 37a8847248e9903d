#!/bin/bash
set -e
cd /app
cat > flatten.js <<'JS'
let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const out = {};
  const walk = (v, key) => {
    if (v !== null && typeof v === 'object' && Object.keys(v).length > 0) {
      for (const k of Object.keys(v)) walk(v[k], key === '' ? k : `${key}.${k}`);
    } else {
      out[key] = v;
    }
  };
  const doc = JSON.parse(input);
  for (const k of Object.keys(doc)) walk(doc[k], k);
  console.log(JSON.stringify(out));
});
JS
