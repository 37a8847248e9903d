function triangleArea(a, h) {
  return (a * h) / 2;
}

module.exports = { triangleArea };
