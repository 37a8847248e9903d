function sortNumbers(numbers) {
  const names = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
  return numbers
    .split(' ')
    .filter((x) => x.length > 0)
    .sort((a, b) => names.indexOf(a) - names.indexOf(b))
    .join(' ');
}

module.exports = { sortNumbers };
