function iscube(a) {
  a = Math.abs(a);
  const r = Math.round(Math.cbrt(a));
  return r * r * r === a;
}

module.exports = { iscube };
