function totalMatch(lst1, lst2) {
  const total = (l) => l.reduce((a, s) => a + s.length, 0);
  return total(lst1) <= total(lst2) ? lst1 : lst2;
}

module.exports = { totalMatch };
