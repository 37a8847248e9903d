function bf(planet1, planet2) {
  const names = ['Mercury', 'Venus', 'Earth', 'Mars', 'Jupiter', 'Saturn', 'Uranus', 'Neptune'];
  const i = names.indexOf(planet1);
  const j = names.indexOf(planet2);
  if (i < 0 || j < 0 || i === j) return [];
  return i < j ? names.slice(i + 1, j) : names.slice(j + 1, i);
}

module.exports = { bf };
