function fileNameCheck(fileName) {
  const parts = fileName.split('.');
  if (parts.length !== 2) return 'No';
  const [name, ext] = parts;
  if (!['txt', 'exe', 'dll'].includes(ext)) return 'No';
  if (name.length === 0 || !/[a-zA-Z]/.test(name[0])) return 'No';
  if ([...name].filter((c) => c >= '0' && c <= '9').length > 3) return 'No';
  return 'Yes';
}

module.exports = { fileNameCheck };
