#!/usr/bin/env node
// Start-up benchmark: alternates bare `node -e 0` with sitebuilder commands in one run and
// prints medians and ratios. Targets (README.md "Performance"): --version, --help and
// completion ≤ 1.15 × bare Node; an API command against the emulator on loopback ≤ 1.5 ×
// (`site list --limit 5`: three calls, list_workspaces and a page of list_sites for each of two
// workspaces).
// Usage: node bench/startup.mjs [runs=30]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const runs = Number(process.argv[2] ?? 30);
const bin = new URL('../bin/sitebuilder.js', import.meta.url).pathname;
const configDir = mkdtempSync(join(tmpdir(), 'sitebuilder-bench-'));

async function startEmulator() {
  const child = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', resolve);
    child.once('exit', () => reject(new Error('the emulator exited before printing its address')));
  });
  const info = JSON.parse(line);
  return { child, baseUrl: info.baseUrl, token: info.tokens[0].token };
}

function time(cmd, args, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const emu = await startEmulator();
const env = {
  SITEBUILDER_CONFIG_DIR: configDir,
  SITEBUILDER_BASE_URL: emu.baseUrl,
  SITEBUILDER_TOKEN: emu.token,
  NO_COLOR: '1',
};
const cases = [
  { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'], budget: null },
  { name: 'sitebuilder --version', cmd: process.execPath, args: [bin, '--version'], budget: 1.15 },
  { name: 'sitebuilder --help', cmd: process.execPath, args: [bin, '--help'], budget: 1.15 },
  {
    name: 'sitebuilder site list (emulator)',
    cmd: process.execPath,
    args: [bin, 'site', 'list', '--limit', '5'],
    budget: 1.5,
  },
  // The same without V8's code cache (bin/ keeps one in dist/.cache after the first run): for information.
  {
    name: '  the same, no code cache',
    cmd: process.execPath,
    args: [bin, 'site', 'list', '--limit', '5'],
    env: { SITEBUILDER_NO_CODE_CACHE: '1' },
    budget: null,
  },
  { name: 'sitebuilder completion bash', cmd: process.execPath, args: [bin, 'completion', 'bash'], budget: 1.15 },
];
// Completing in the shell: the scripts answer without starting node (method names included).
const completions = new URL('../completions/', import.meta.url).pathname;
const bashLine =
  'COMP_WORDS=(sitebuilder api list_); COMP_CWORD=2; COMP_LINE="sitebuilder api list_"; COMP_POINT=21; _sitebuilder sitebuilder list_ api';
cases.push({
  name: 'bash: complete `api list_`',
  cmd: 'bash',
  args: ['--norc', '--noprofile', '-c', `source ${completions}sitebuilder.bash; ${bashLine}`],
  budget: 1.15,
});
if (spawnSync('fish', ['--version']).status === 0) {
  cases.push({
    name: 'fish: complete `api list_`',
    cmd: 'fish',
    args: ['--no-config', '-c', `source ${completions}sitebuilder.fish; complete -C 'sitebuilder api list_'`],
    budget: 1.15,
  });
}
const samples = new Map(cases.map((c) => [c.name, []]));
try {
  for (const c of cases) time(c.cmd, c.args, { ...env, ...c.env }); // warm the file cache (and the code cache)
  for (let i = 0; i < runs; i++)
    for (const c of cases) samples.get(c.name).push(time(c.cmd, c.args, { ...env, ...c.env }));
} finally {
  emu.child.kill('SIGTERM');
}
const base = median(samples.get('node -e 0'));
console.log(`runs: ${runs} each, alternating; node ${process.version}`);
console.log('case'.padEnd(36), 'median ms'.padStart(10), 'ratio'.padStart(7), 'budget'.padStart(7));
for (const c of cases) {
  const m = median(samples.get(c.name));
  const ratio = m / base;
  const verdict = c.budget === null ? '' : ratio <= c.budget ? 'ok' : 'OVER';
  console.log(
    c.name.padEnd(36),
    m.toFixed(1).padStart(10),
    ratio.toFixed(2).padStart(7),
    (c.budget ? `${c.budget}×` : '').padStart(7),
    verdict,
  );
}
