'use strict';
// The javascript stack's judge: node:test runs the task's test files in this process, as the
// judge's uid; the answer never runs here.
//
//     node --test-reporter=tap /opt/rlvr/judge.js ANSWER_FILE TEST_FILE...
//
// `require('./<ANSWER_FILE>')` in a test file gives what answer_server.js (another process, the
// answer's own uid, holding nothing but the answer) sends back: plain data decoded here with
// this process's own prototypes, and handles for functions and objects that stay over there.
// So the answer cannot see the tests (source, names, closures), patch node:assert or node:test,
// walk async_hooks or take a heap snapshot of this process, or write to its stdout (the TAP
// report). Calls go over a pair of pipes (RLVR_RPC_FDS), one JSON document per line.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const MAX_LINE = 64 << 20;
const MAX_DEPTH = 200;
const [rfd, wfd] = (process.env.RLVR_RPC_FDS || '').split(',').map(Number);
delete process.env.RLVR_RPC_FDS;

class AnswerError extends Error {}
const BUILTIN_ERRORS = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };
const handles = new WeakMap();
let dead = '';
let pending = Buffer.alloc(0);
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function readLine() {
  const chunk = Buffer.alloc(1 << 16);
  for (;;) {
    const i = pending.indexOf(10);
    if (i >= 0) {
      const line = pending.subarray(0, i).toString('utf8');
      pending = pending.subarray(i + 1);
      return line;
    }
    let n;
    try {
      n = fs.readSync(rfd, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') { Atomics.wait(sleeper, 0, 0, 1); continue; }
      return null;
    }
    if (n === 0) return null;
    pending = Buffer.concat([pending, chunk.subarray(0, n)]);
    if (pending.length > MAX_LINE) return null;
  }
}

function writeAll(text) {
  let buf = Buffer.from(text, 'utf8');
  while (buf.length) {
    let n;
    try {
      n = fs.writeSync(wfd, buf);
    } catch (e) {
      if (e.code === 'EAGAIN') { Atomics.wait(sleeper, 0, 0, 1); continue; }
      throw e;
    }
    buf = buf.subarray(n);
  }
}

function call(op, fields) {
  if (dead) throw new AnswerError(dead);
  try {
    writeAll(JSON.stringify({ op, ...fields }) + '\n');
  } catch (e) {
    dead = `the answer process is gone (${e.code || e.message})`;
    throw new AnswerError(dead);
  }
  const line = readLine();
  if (line === null) {
    dead = 'the answer exited before the tests finished (or sent an oversized reply)';
    throw new AnswerError(dead);
  }
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    dead = 'the answer process sent a malformed reply';
    throw new AnswerError(dead);
  }
  if (msg === null || typeof msg !== 'object') throw new AnswerError('malformed reply');
  if (Object.prototype.hasOwnProperty.call(msg, 'raise')) {
    const Ctor = Object.prototype.hasOwnProperty.call(BUILTIN_ERRORS, msg.raise)
      ? BUILTIN_ERRORS[msg.raise] : AnswerError;
    throw new Ctor(String(msg.message).slice(0, 2000));
  }
  return msg;
}

function enc(x, d = 0) {
  if (d > MAX_DEPTH) throw new TypeError('value nested too deeply to pass to the answer');
  if (x === null || typeof x === 'boolean' || typeof x === 'string') return x;
  if (typeof x === 'number') {
    return Number.isFinite(x) && !Object.is(x, -0) ? x : { $: 'num', v: Object.is(x, -0) ? '-0' : String(x) };
  }
  if (x === undefined) return { $: 'undef' };
  if (typeof x === 'bigint') return { $: 'bigint', v: x.toString() };
  if (handles.has(x)) return { $: 'ref', id: handles.get(x) };
  if (Array.isArray(x)) return x.map((e) => enc(e, d + 1));
  if (x instanceof Map) return { $: 'map', v: [...x].map(([k, v]) => [enc(k, d + 1), enc(v, d + 1)]) };
  if (x instanceof Set) return { $: 'set', v: [...x].map((e) => enc(e, d + 1)) };
  const proto = typeof x === 'object' ? Object.getPrototypeOf(x) : undefined;
  if (proto === Object.prototype || proto === null) {
    return { $: 'obj', v: Object.keys(x).map((k) => [k, enc(x[k], d + 1)]) };
  }
  throw new TypeError(`cannot pass a ${typeof x} to the answer (it runs in another process)`);
}

function dec(x, d = 0) {
  if (d > MAX_DEPTH) throw new AnswerError('the answer returned a value nested too deeply');
  if (x === null || typeof x === 'boolean' || typeof x === 'string' || typeof x === 'number') return x;
  if (Array.isArray(x)) return x.map((e) => dec(e, d + 1));
  if (typeof x !== 'object') throw new AnswerError('malformed value from the answer');
  const v = x.v;
  switch (x.$) {
    case 'num': return Number(String(v));
    case 'undef': return undefined;
    case 'bigint': return BigInt(String(v));
    case 'map': return new Map(v.map(([k, e]) => [dec(k, d + 1), dec(e, d + 1)]));
    case 'set': return new Set(v.map((e) => dec(e, d + 1)));
    case 'obj': {
      const o = {};
      for (const [k, e] of v) {
        Object.defineProperty(o, String(k), { value: dec(e, d + 1), enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
    case 'handle': return handle(Number(x.id), String(x.kind));
    default: throw new AnswerError('malformed value from the answer');
  }
}

function writeBack(args, after) {
  if (!after || typeof after !== 'object') return;
  for (const [key, raw] of Object.entries(after)) {
    const target = args[Number(key)];
    const val = dec(raw);
    if (Array.isArray(target) && Array.isArray(val)) {
      target.length = 0;
      target.push(...val);
    } else if (target instanceof Map && val instanceof Map) {
      target.clear();
      for (const [k, e] of val) target.set(k, e);
    } else if (target instanceof Set && val instanceof Set) {
      target.clear();
      for (const e of val) target.add(e);
    } else if (target && typeof target === 'object' && val && typeof val === 'object') {
      for (const k of Object.keys(target)) delete target[k];
      Object.assign(target, val);
    }
  }
}

function handle(id, kind) {
  const target = kind === 'function' ? function () {} : {};
  const proxy = new Proxy(target, {
    apply(_t, thisArg, args) {
      const r = call('call', { id, self: handles.has(thisArg) ? handles.get(thisArg) : null, args: args.map((a) => enc(a)) });
      writeBack(args, r.after);
      return dec(r.value);
    },
    construct(_t, args) {
      return dec(call('new', { id, args: args.map((a) => enc(a)) }).value);
    },
    get(_t, name) {
      if (typeof name === 'symbol') {
        if (name === Symbol.iterator) return function* () { yield* dec(call('iter', { id }).value); };
        return undefined;
      }
      if (name === 'then') return undefined;
      return dec(call('get', { id, name }).value);
    },
    set(_t, name, value) {
      call('set', { id, name: String(name), value: enc(value) });
      return true;
    },
    has(_t, name) {
      return call('has', { id, name: String(name) }).value === true;
    },
  });
  handles.set(proxy, id);
  return proxy;
}

function main() {
  const [answerFile, ...testFiles] = process.argv.slice(2);
  let answer;
  let importError = null;
  try {
    answer = dec(call('import', {}).value);
  } catch (e) {
    importError = e;
  }
  const names = new Set([`./${answerFile}`, `./${answerFile.replace(/\.js$/, '')}`]);
  const { test } = require('node:test');
  for (const file of testFiles) {
    const base = createRequire(file);
    const req = (spec) => {
      if (!names.has(spec)) return base(spec);
      if (importError) throw importError;
      return answer;
    };
    try {
      const source = fs.readFileSync(file, 'utf8');
      const params = ['exports', 'require', 'module', '__filename', '__dirname'];
      const run = vm.compileFunction(source, params, { filename: file });
      const mod = { exports: {} };
      run(mod.exports, req, mod, file, path.dirname(file));
    } catch (e) {
      test(`(load ${path.basename(file)})`, () => { throw e; });
    }
  }
}

main();
