function encode(message) {
  let out = '';
  for (const c of message) {
    let d = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
    if ('aeiouAEIOU'.includes(d)) d = String.fromCharCode(d.charCodeAt(0) + 2);
    out += d;
  }
  return out;
}

module.exports = { encode };
