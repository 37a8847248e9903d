function specialFactorial(n) {
  let fact = 1;
  let special = 1;
  for (let i = 1; i <= n; i++) {
    fact *= i;
    special *= fact;
  }
  return special;
}

module.exports = { specialFactorial };
