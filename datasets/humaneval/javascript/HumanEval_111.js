function histogram(test) {
  const counts = {};
  for (const w of test.split(' ')) if (w.length > 0) counts[w] = (counts[w] || 0) + 1;
  const best = Math.max(0, ...Object.values(counts));
  const out = {};
  if (best === 0) return out;
  for (const [k, v] of Object.entries(counts)) if (v === best) out[k] = v;
  return out;
}

module.exports = { histogram };
