function StrongestExtension(className, extensions) {
  const strength = (e) => [...e].filter((c) => /[A-Z]/.test(c)).length - [...e].filter((c) => /[a-z]/.test(c)).length;
  let best = extensions[0];
  for (const e of extensions) if (strength(e) > strength(best)) best = e;
  return `${className}.${best}`;
}

module.exports = { StrongestExtension };
