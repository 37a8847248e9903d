function closestInteger(value) {
  const num = Number(value);
  const frac = Math.abs(num - Math.trunc(num));
  if (frac === 0.5) return num > 0 ? Math.ceil(num) : Math.floor(num);
  return Math.round(num);
}

module.exports = { closestInteger };
