'use strict';
// The one test file `node --test` runs in every javascript job (copied in as
// rlvr-suite.test.js; the job's workspace is a writable copy). It reads the public and hidden
// test files into memory and deletes them before any of their code - and so any of the
// answer's code, which they require - runs: the answer can neither read the hidden tests nor
// learn their names. node:assert and node:test are frozen first, so the answer cannot turn
// assertions into no-ops by patching them.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

for (const name of ['node:assert', 'node:assert/strict', 'node:test']) {
  Object.freeze(require(name));
}
const files = ['public.test.js', 'hidden.test.js'].map((f) => path.join(__dirname, f));
const sources = files.map((file) => [file, fs.readFileSync(file, 'utf8')]);
for (const [file] of sources) fs.unlinkSync(file);
for (const [file, source] of sources) {
  const params = ['exports', 'require', 'module', '__filename', '__dirname'];
  const run = vm.compileFunction(source, params, { filename: file });
  const mod = { exports: {} };
  run(mod.exports, createRequire(file), mod, file, path.dirname(file));
}
