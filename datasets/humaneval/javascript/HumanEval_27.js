function flipCase(string) {
  let out = '';
  for (const c of string) {
    const up = c.toUpperCase();
    out += c === up ? c.toLowerCase() : up;
  }
  return out;
}

module.exports = { flipCase };
