function parseMusic(musicString) {
  const beats = { o: 4, 'o|': 2, '.|': 1 };
  return musicString.split(' ').filter((x) => x.length > 0).map((x) => beats[x]);
}

module.exports = { parseMusic };
