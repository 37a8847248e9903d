function carRaceCollision(n) {
  return n * n;
}

module.exports = { carRaceCollision };
