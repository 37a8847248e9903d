function skjkasdkd(lst) {
  const isPrime = (n) => {
    if (n < 2) return false;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
    return true;
  };
  let best = 0;
  for (const x of lst) if (x > best && isPrime(x)) best = x;
  let sum = 0;
  for (const c of String(best)) sum += Number(c);
  return sum;
}

module.exports = { skjkasdkd };
