function monotonic(l) {
  let up = true;
  let down = true;
  for (let i = 1; i < l.length; i++) {
    if (l[i] < l[i - 1]) up = false;
    if (l[i] > l[i - 1]) down = false;
  }
  return up || down;
}

module.exports = { monotonic };
