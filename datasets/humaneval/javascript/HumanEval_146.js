function specialFilter(nums) {
  const odd = (d) => '13579'.includes(d);
  return nums.filter((n) => {
    const s = String(n);
    return n > 10 && odd(s[0]) && odd(s[s.length - 1]);
  }).length;
}

module.exports = { specialFilter };
