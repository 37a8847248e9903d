function oddCount(lst) {
  return lst.map((s) => {
    const n = [...s].filter((d) => Number(d) % 2 === 1).length;
    return `the number of odd elements ${n}n the str${n}ng ${n} of the ${n}nput.`;
  });
}

module.exports = { oddCount };
