function doAlgebra(operator, operand) {
  // Python precedence: ** (right-assoc) > * // > + -
  const toks = [operand[0]];
  operator.forEach((op, i) => toks.push(op, operand[i + 1]));
  const pow = [];
  for (let i = toks.length - 1; i >= 0; i--) {
    if (i >= 2 && toks[i - 1] === '**') {
      let v = toks[i];
      while (i >= 2 && toks[i - 1] === '**') {
        v = toks[i - 2] ** v;
        i -= 2;
      }
      pow.unshift(v);
    } else {
      pow.unshift(toks[i]);
    }
  }
  const mul = [pow[0]];
  for (let i = 1; i < pow.length; i += 2) {
    const op = pow[i];
    const v = pow[i + 1];
    if (op === '*') mul[mul.length - 1] *= v;
    else if (op === '//') mul[mul.length - 1] = Math.floor(mul[mul.length - 1] / v);
    else mul.push(op, v);
  }
  let result = mul[0];
  for (let i = 1; i < mul.length; i += 2) result = mul[i] === '+' ? result + mul[i + 1] : result - mul[i + 1];
  return result;
}

module.exports = { doAlgebra };
