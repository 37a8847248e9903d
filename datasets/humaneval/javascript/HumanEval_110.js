function exchange(lst1, lst2) {
  const odd = lst1.filter((x) => x % 2 !== 0).length;
  const even = lst2.filter((x) => x % 2 === 0).length;
  return even >= odd ? 'YES' : 'NO';
}

module.exports = { exchange };
