const format = require('./lib/format');

let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const orders = JSON.parse(input);
  let total = 0;
  for (const o of orders) {
    const amount = o.qty * o.price;
    total += amount;
    console.log(`${format.pad(o.sku, 10)}${format.currency(amount)}`);
  }
  console.log(`${format.pad('TOTAL', 10)}${format.currency(total)}`);
});
