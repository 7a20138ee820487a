#!/usr/bin/env node
// Summarizes a V8 CPU profile (node --cpu-prof) for docs/performance.md: time by function
// (self), by file or package (self) and by function (inclusive: samples under it).
//
//   MLP_SYNTH_CACHE=0 MLP_PLATFORMS=opendatahub CDK8S_OUTDIR=/tmp/out \
//     node --cpu-prof --cpu-prof-dir=/tmp/prof scripts/app.js
//   node scripts/cpuprofile-summary.js /tmp/prof/CPU.*.cpuprofile [top=25] [inclusive top=60]
//
// Times are the profile's sample intervals (wall time while the thread ran JavaScript or was
// sampled idle): on a busy machine read them as shares, not as CPU seconds.
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = `${path.resolve(__dirname, '..')}/`;
const file = process.argv[2];
const top = Number(process.argv[3] || 40);
const p = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) || 0) + (p.timeDeltas[i] || 0));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n.id);
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const self = new Map(), mod = new Map(), incl = new Map();
const short = (u) => u.replace(/^file:\/\//, '').replace(ROOT, '').replace(/.*node_modules\//, 'nm/');
for (const n of p.nodes) {
  const t = dt.get(n.id) || 0;
  const cf = n.callFrame;
  const key = `${cf.functionName || '(anon)'} ${short(cf.url)}:${cf.lineNumber + 1}`;
  self.set(key, (self.get(key) || 0) + t);
  let m = short(cf.url) || `(${cf.functionName})`;
  m = m.replace(/^nm\/(@[^/]+\/[^/]+|[^/]+)\/.*/, 'nm/$1');
  mod.set(m, (mod.get(m) || 0) + t);
}
// inclusive per function key (count each sample once per key along stack)
for (const [id, t] of dt) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const cf = byId.get(cur).callFrame;
    const key = `${cf.functionName || '(anon)'} ${short(cf.url)}:${cf.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    incl.set(key, (incl.get(key) || 0) + t);
  }
}
const ms = (x) => (x / 1000).toFixed(0).padStart(6);
console.log(`total ${ms(total)} ms`);
const show = (title, m, n) => { console.log(`\n== ${title}`); [...m].sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) => console.log(`${ms(v)} ms ${(100 * v / total).toFixed(1).padStart(5)}%  ${k}`)); };
show('self by function', self, top);
show('self by module/file', mod, top);
show('inclusive by function', incl, Number(process.argv[4] || 60));
