#!/usr/bin/env node
// Runs a command and says which processes of its tree spent its CPU time: `npm run bench --
// --tests` (scripts/bench-cli.ts) runs the test suite under it, so that the bench prints where
// the suite's time goes (the control planes of the API-server tests, the jest workers, the
// type check and lint, what the tests run) beside the total GNU time reports.
//
//   node scripts/cpu-by-process.mjs --out FILE [--interval-ms 500] -- COMMAND [ARGS...]
//
// Linux only: every interval it reads /proc/PID/stat (utime + stime) and /proc/PID/cmdline of
// each process descended from COMMAND, and keeps following a process after it is re-parented
// (a server whose watchdog died). A process is counted with what it had used at the last
// sample before it exited, so a process shorter than the interval is missed and a longer one
// loses its last moments: the caller compares the sum with GNU time's total and reports the
// difference as unattributed. This sampler's own CPU is not in COMMAND's tree, so GNU time run
// inside it does not count it. Exits with COMMAND's exit code; FILE is JSON:
//   { supported, intervalMs, rows: [{ group, name, cpuS, processes }] } (rows that used
// some CPU, the largest first)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const args = process.argv.slice(2);
const sep = args.indexOf('--');
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i < sep ? args[i + 1] : fallback;
};
const out = opt('--out');
const intervalMs = Number(opt('--interval-ms', '500'));
if (sep < 0 || !out || sep === args.length - 1 || !(intervalMs > 0)) {
  process.stderr.write('usage: node scripts/cpu-by-process.mjs --out FILE [--interval-ms N] -- COMMAND [ARGS...]\n');
  process.exit(2);
}
const command = args.slice(sep + 1);

/** What a process is, from its command line: [group, name]. `underWorker`: a jest worker is among its ancestors. */
function classify(cmdline, underWorker) {
  // A process that set its title (npm does: "npm exec jest ...") has it as one string.
  const argv = cmdline.length === 1 ? cmdline[0].split(' ') : cmdline;
  const exe = path.basename(argv[0] ?? '?');
  if (['kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler'].includes(exe)) return ['control planes (API-server tests)', exe];
  let name = exe;
  if (exe === 'node' || exe === 'nodejs') {
    // Node's own options come before the script (the first other argument; an option's value is
    // not one); `node -e CODE` is named so, but not a script's own -p (tsc's project).
    const valued = ['-r', '--require', '--import', '--loader', '--cpu-prof-dir', '--cpu-prof-interval'];
    let at = 1;
    while (at < argv.length && (argv[at].startsWith('-') || valued.includes(argv[at - 1]))) at++;
    const evals = argv.slice(1, at).some((a) => ['-e', '--eval', '-p', '--print'].includes(a));
    const script = evals ? '' : argv[at] ?? '';
    if (/jest-worker\/build\/(workers\/)?processChild\.js$/.test(script)) return ['jest', 'workers (the tests, with the CLI and synths they run in-process)'];
    if (/(^|\/)jest(\.js)?$/.test(script) || /\/jest\/bin\//.test(script)) return ['jest', 'main process'];
    name = evals ? '-e' : path.basename(script);
    if (name === 'npm-cli.js' || name === 'npx-cli.js') name = name.replace('-cli.js', '');
    if (/ts-node/.test(script)) name = `ts-node ${path.basename(argv.slice(2).find((a) => !a.startsWith('-')) ?? '')}`.trim();
    name = `node ${name}`.trim();
  } else if (exe === 'npm' || exe === 'npx') {
    name = argv.slice(0, 2).join(' ');
  }
  return underWorker ? ['run by the tests', name] : ['the test task (checks, npm, projen)', name];
}

const ticks = 100; // USER_HZ: 100 on every Linux this runs on (sysconf is not reachable from Node).
const supported = fs.existsSync('/proc/self/stat');
/** "pid:start time" (a pid the kernel gives out again is another process) -> { cpuS, group, name } as last seen. */
const seen = new Map();

function stat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpuS: (Number(f[11]) + Number(f[12])) / ticks, key: `${pid}:${f[19]}` };
  } catch {
    return undefined;
  }
}

function sample(root) {
  const procs = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = stat(d);
    if (st) procs.set(Number(d), st);
  }
  const ppid = (pid) => procs.get(pid)?.ppid;
  const workers = new Set();
  const inTree = (pid) => {
    // A descendant of root, or one we followed before (re-parented since).
    for (let p = pid, hops = 0; p && hops < 64; p = ppid(p), hops++) if (p === root || seen.has(procs.get(p)?.key)) return true;
    return false;
  };
  const underWorker = (pid) => {
    for (let p = ppid(pid), hops = 0; p && hops < 64; p = ppid(p), hops++) if (workers.has(p) || seen.get(procs.get(p)?.key)?.name.startsWith('workers')) return true;
    return false;
  };
  for (const [pid, st] of procs) {
    if (!inTree(pid)) continue;
    let argv;
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      continue;
    }
    if (!argv.length) continue;
    const [group, name] = classify(argv, underWorker(pid));
    if (name.startsWith('workers')) workers.add(pid);
    seen.set(st.key, { cpuS: st.cpuS, group, name });
  }
}

const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
let timer;
if (supported) timer = setInterval(() => sample(child.pid), intervalMs);
child.on('exit', (code, signal) => {
  if (timer) clearInterval(timer);
  const rows = new Map();
  for (const { cpuS, group, name } of seen.values()) {
    const key = `${group}\0${name}`;
    const r = rows.get(key) ?? { group, name, cpuS: 0, processes: 0 };
    r.cpuS += cpuS;
    r.processes++;
    rows.set(key, r);
  }
  const sorted = [...rows.values()].sort((a, b) => b.cpuS - a.cpuS || (a.name < b.name ? -1 : 1)).map((r) => ({ ...r, cpuS: Math.round(r.cpuS * 100) / 100 })).filter((r) => r.cpuS > 0);
  fs.writeFileSync(out, `${JSON.stringify({ supported, intervalMs, rows: sorted }, null, 2)}\n`);
  process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0));
});
