function cycpatternCheck(a, b) {
  for (let i = 0; i < b.length; i++) {
    if (a.includes(b.slice(i) + b.slice(0, i))) return true;
  }
  return b.length === 0;
}

module.exports = { cycpatternCheck };
