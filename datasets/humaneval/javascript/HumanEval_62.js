function derivative(xs) {
  return xs.slice(1).map((x, i) => x * (i + 1));
}

module.exports = { derivative };
