function smallestChange(arr) {
  let n = 0;
  for (let i = 0, j = arr.length - 1; i < j; i++, j--) if (arr[i] !== arr[j]) n += 1;
  return n;
}

module.exports = { smallestChange };
