function validDate(date) {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(date.trim());
  if (!m) return false;
  const month = Number(m[1]);
  const day = Number(m[2]);
  if (month < 1 || month > 12 || day < 1) return false;
  if ([1, 3, 5, 7, 8, 10, 12].includes(month)) return day <= 31;
  if ([4, 6, 9, 11].includes(month)) return day <= 30;
  return day <= 29;
}

module.exports = { validDate };
