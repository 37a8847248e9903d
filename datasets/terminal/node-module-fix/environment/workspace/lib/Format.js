// Formatting helpers for report.js.
function currency(x) {
  return '$' + x.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function pad(s, n) {
  return String(s).padEnd(n);
}

export default { currency, pad };
