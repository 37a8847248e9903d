function numericalLetterGrade(grades) {
  const table = [
    [4.0, 'A+'], [3.7, 'A'], [3.3, 'A-'], [3.0, 'B+'], [2.7, 'B'], [2.3, 'B-'],
    [2.0, 'C+'], [1.7, 'C'], [1.3, 'C-'], [1.0, 'D+'], [0.7, 'D'], [0.0, 'D-'],
  ];
  return grades.map((g) => {
    if (g === 4.0) return 'A+';
    for (const [limit, letter] of table.slice(1)) if (g > limit) return letter;
    return 'E';
  });
}

module.exports = { numericalLetterGrade };
