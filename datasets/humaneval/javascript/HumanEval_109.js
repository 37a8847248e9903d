function moveOneBall(arr) {
  if (arr.length === 0) return true;
  const sorted = [...arr].sort((a, b) => a - b);
  for (let shift = 0; shift < arr.length; shift++) {
    const rotated = arr.slice(shift).concat(arr.slice(0, shift));
    if (rotated.every((x, i) => x === sorted[i])) return true;
  }
  return false;
}

module.exports = { moveOneBall };
