function getRow(lst, x) {
  const out = [];
  lst.forEach((row, i) => {
    for (let j = row.length - 1; j >= 0; j--) if (row[j] === x) out.push([i, j]);
  });
  return out;
}

module.exports = { getRow };
