function addElements(arr, k) {
  return arr.slice(0, k).filter((x) => String(x).length <= 2).reduce((a, b) => a + b, 0);
}

module.exports = { addElements };
