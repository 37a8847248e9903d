function simplify(x, n) {
  const [a, b] = x.split('/').map(Number);
  const [c, d] = n.split('/').map(Number);
  return (a * c) % (b * d) === 0;
}

module.exports = { simplify };
