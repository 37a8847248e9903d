#!/bin/bash
set -e
cd /app
cat > colstats.js <<'JS'
const col = process.argv[2];
let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const lines = input.split('\n').filter((l) => l.trim() !== '');
  const header = (lines[0] || '').split(',');
  const i = header.indexOf(col);
  if (col === undefined || i < 0) { console.error(`no column ${col}`); process.exit(2); }
  const v = [];
  for (const l of lines.slice(1)) {
    const f = (l.split(',')[i] || '').trim();
    if (/^-?\d+(\.\d+)?$/.test(f)) v.push(Number(f));
  }
  if (v.length === 0) { console.log('count=0'); return; }
  v.sort((a, b) => a - b);
  const n = v.length;
  const med = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  const mean = v.reduce((a, b) => a + b, 0) / n;
  console.log(`count=${n} min=${v[0].toFixed(2)} max=${v[n - 1].toFixed(2)} mean=${mean.toFixed(2)} median=${med.toFixed(2)}`);
});
JS
