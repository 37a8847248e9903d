'use strict';
// The answer's side of judge.js: runs as the answer's own uid, holds nothing but the answer.
//
//     node /opt/rlvr/answer_server.js ANSWER_FILE        (fds in RLVR_RPC_FDS: read,write)
//
// Everything in this process is the answer's to change, and that is fine: what goes back is
// only data the judge decodes with its own code, so a patched JSON, a getter that lies or an
// early exit here can only produce a wrong or missing value, never a pass.
const fs = require('node:fs');

const [rfd, wfd] = (process.env.RLVR_RPC_FDS || '').split(',').map(Number);
delete process.env.RLVR_RPC_FDS;
const objects = new Map();
try { fs.writeFileSync('/proc/self/oom_score_adj', '1000'); } catch (e) { /* best effort */ }
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function handleOf(x) {
  const id = objects.size + 1;
  objects.set(id, x);
  return { $: 'handle', id, kind: typeof x === 'function' ? 'function' : 'object' };
}

function enc(x, d = 0) {
  if (d > 200) throw new TypeError('value nested too deeply to send');
  if (x === null || typeof x === 'boolean' || typeof x === 'string') return x;
  if (typeof x === 'number') {
    return Number.isFinite(x) && !Object.is(x, -0) ? x : { $: 'num', v: Object.is(x, -0) ? '-0' : String(x) };
  }
  if (x === undefined) return { $: 'undef' };
  if (typeof x === 'bigint') return { $: 'bigint', v: x.toString() };
  if (Array.isArray(x)) return Array.from(x, (e) => enc(e, d + 1));
  if (x instanceof Map) return { $: 'map', v: [...x].map(([k, v]) => [enc(k, d + 1), enc(v, d + 1)]) };
  if (x instanceof Set) return { $: 'set', v: [...x].map((e) => enc(e, d + 1)) };
  const proto = typeof x === 'object' ? Object.getPrototypeOf(x) : undefined;
  if (proto === Object.prototype || proto === null) {
    return { $: 'obj', v: Object.keys(x).map((k) => [k, enc(x[k], d + 1)]) };
  }
  return handleOf(x);
}

function dec(x) {
  if (x === null || typeof x !== 'object') return x;
  if (Array.isArray(x)) return x.map(dec);
  switch (x.$) {
    case 'num': return Number(x.v);
    case 'undef': return undefined;
    case 'bigint': return BigInt(x.v);
    case 'map': return new Map(x.v.map(([k, v]) => [dec(k), dec(v)]));
    case 'set': return new Set(x.v.map(dec));
    case 'obj': return Object.fromEntries(x.v.map(([k, v]) => [k, dec(v)]));
    case 'ref': return objects.get(x.id);
    default: throw new TypeError(`unknown tag ${x.$}`);
  }
}

const MUTABLE = (a) => Array.isArray(a) || a instanceof Map || a instanceof Set
  || (a !== null && typeof a === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(a)));

function act(req) {
  const obj = objects.get(req.id);
  switch (req.op) {
    case 'import': return { value: require(process.argv[2]) };
    case 'call': {
      const args = (req.args || []).map(dec);
      const value = Reflect.apply(obj, req.self ? objects.get(req.self) : undefined, args);
      const after = {};
      args.forEach((a, i) => { if (MUTABLE(a)) after[i] = enc(a); });
      return { value, after };
    }
    case 'new': return { value: Reflect.construct(obj, (req.args || []).map(dec)) };
    case 'get': return { value: obj[req.name] };
    case 'set': obj[req.name] = dec(req.value); return { value: true };
    case 'has': return { value: req.name in obj };
    case 'iter': return { value: Array.from(obj) };
    default: throw new TypeError(`unknown op ${req.op}`);
  }
}

function reply(req) {
  try {
    const { value, after } = act(req);
    const out = { value: enc(value) };
    if (after && Object.keys(after).length) out.after = after;
    return JSON.stringify(out);
  } catch (e) {
    const name = e && typeof e === 'object' && typeof e.name === 'string' ? e.name : 'Error';
    const message = e && typeof e === 'object' ? String(e.message) : String(e);
    return JSON.stringify({ raise: name, message: message.slice(0, 2000) });
  }
}

function writeAll(text) {
  let buf = Buffer.from(text, 'utf8');
  while (buf.length) {
    try {
      buf = buf.subarray(fs.writeSync(wfd, buf));
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
}

let pending = Buffer.alloc(0);
const chunk = Buffer.alloc(1 << 16);
for (;;) {
  const i = pending.indexOf(10);
  if (i >= 0) {
    const line = pending.subarray(0, i).toString('utf8');
    pending = pending.subarray(i + 1);
    let req;
    try { req = JSON.parse(line); } catch (e) { req = { op: 'bad' }; }
    writeAll(reply(req) + '\n');
    continue;
  }
  let n;
  try {
    n = fs.readSync(rfd, chunk, 0, chunk.length, null);
  } catch (e) {
    if (e.code === 'EAGAIN') { Atomics.wait(sleeper, 0, 0, 1); continue; }
    break;
  }
  if (n === 0) break;
  pending = Buffer.concat([pending, chunk.subarray(0, n)]);
}
