function reverseDelete(s, c) {
  const kept = [...s].filter((ch) => !c.includes(ch)).join('');
  return [kept, kept === [...kept].reverse().join('')];
}

module.exports = { reverseDelete };
