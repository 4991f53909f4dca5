#!/usr/bin/env node
// Start-up benchmark: alternates bare `node -e 0`, the one-call node:http floor
// (bench/http-floor.cjs) and sitebuilder commands in one run, and prints medians and ratios.
// Targets: --version, --help and completion ≤ 1.15 × bare Node; `site list --workspace <id>`
// (one call, list_sites) against the emulator on loopback ≤ 1.3 × the floor, which makes the same
// call with bare node:http. Without --workspace, `site list` makes 1 + one call per workspace
// (list_sites takes one workspace): shown for information. For figures, not a pass/fail test.
// Usage: node bench/startup.mjs [runs=30]   (on another Node: /path/to/node bench/startup.mjs)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const runs = Number(process.argv[2] ?? 30);
const bin = new URL('../bin/sitebuilder.js', import.meta.url).pathname;
const floor = new URL('http-floor.cjs', import.meta.url).pathname;
const configDir = mkdtempSync(join(tmpdir(), 'sitebuilder-bench-'));
// A code cache of this run's own (filled by the warm-up round), not the user's.
const codeCacheDir = join(configDir, 'code-cache');

async function startEmulator() {
  // A fast emulated clock: the minute's budget (240 calls) renews every few milliseconds, so that
  // the runs never wait for it.
  const child = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--json', '--speed', '10000'], {
    env: { ...process.env, SITEBUILDER_CODE_CACHE_DIR: codeCacheDir },
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
  SITEBUILDER_CODE_CACHE_DIR: codeCacheDir,
  SITEBUILDER_BASE_URL: emu.baseUrl,
  SITEBUILDER_TOKEN: emu.token,
  NO_COLOR: '1',
};
// base: what the ratio is taken against (budget: the most it may be).
const cases = [
  { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
  { name: 'sitebuilder --version', cmd: process.execPath, args: [bin, '--version'], base: 'node -e 0', budget: 1.15 },
  { name: 'sitebuilder --help', cmd: process.execPath, args: [bin, '--help'], base: 'node -e 0', budget: 1.15 },
  {
    name: 'sitebuilder completion bash',
    cmd: process.execPath,
    args: [bin, 'completion', 'bash'],
    base: 'node -e 0',
    budget: 1.15,
  },
  { name: 'node:http floor (1 call)', cmd: process.execPath, args: [floor, 'ws_demo'], base: 'node -e 0' },
  {
    name: 'site list --workspace (1 call)',
    cmd: process.execPath,
    args: [bin, 'site', 'list', '--workspace', 'ws_demo'],
    base: 'node:http floor (1 call)',
    budget: 1.3,
  },
  // For information: without V8's code cache.
  {
    name: '  the same, no code cache',
    cmd: process.execPath,
    args: [bin, 'site', 'list', '--workspace', 'ws_demo'],
    env: { SITEBUILDER_NO_CODE_CACHE: '1' },
    base: 'node:http floor (1 call)',
  },
  {
    name: 'site list (1 + 1 per workspace)',
    cmd: process.execPath,
    args: [bin, 'site', 'list', '--limit', '5'],
    base: 'node -e 0',
  },
];
// Completing in the shell: the scripts answer without starting node (method names included).
const completions = new URL('../completions/', import.meta.url).pathname;
const bashLine =
  'COMP_WORDS=(sitebuilder api list_); COMP_CWORD=2; COMP_LINE="sitebuilder api list_"; COMP_POINT=21; _sitebuilder sitebuilder list_ api';
cases.push({
  name: 'bash: complete `api list_`',
  cmd: 'bash',
  args: ['--norc', '--noprofile', '-c', `source ${completions}sitebuilder.bash; ${bashLine}`],
  base: 'node -e 0',
  budget: 1.15,
});
if (spawnSync('fish', ['--version']).status === 0) {
  cases.push({
    name: 'fish: complete `api list_`',
    cmd: 'fish',
    args: ['--no-config', '-c', `source ${completions}sitebuilder.fish; complete -C 'sitebuilder api list_'`],
    base: 'node -e 0',
    budget: 1.15,
  });
}
const samples = new Map(cases.map((c) => [c.name, []]));
try {
  for (const c of cases) time(c.cmd, c.args, { ...env, ...c.env }); // warm the file cache (and the code cache)
  for (let i = 0; i < runs; i++)
    for (const c of cases) samples.get(c.name).push(time(c.cmd, c.args, { ...env, ...c.env }));
} finally {
  const exited = new Promise((resolve) => emu.child.once('exit', resolve));
  emu.child.kill('SIGTERM');
  await exited; // it may write its code cache as it exits
  rmSync(configDir, { recursive: true, force: true });
}
console.log(`runs: ${runs} each, alternating; node ${process.version} (${process.arch})`);
// ratio: of the medians; per round: the median of each round's ratio, which a machine whose load
// drifts during the run moves less.
console.log(
  'case'.padEnd(34),
  'median ms'.padStart(10),
  'ratio'.padStart(7),
  'per round'.padStart(10),
  '  against',
  'budget'.padStart(23),
);
for (const c of cases) {
  const mine = samples.get(c.name);
  const m = median(mine);
  const ratio = c.base ? m / median(samples.get(c.base)) : undefined;
  const perRound = c.base ? median(mine.map((x, i) => x / samples.get(c.base)[i])) : undefined;
  const verdict = c.budget === undefined ? '' : ratio <= c.budget ? 'ok' : 'OVER';
  console.log(
    c.name.padEnd(34),
    m.toFixed(1).padStart(10),
    (ratio === undefined ? '' : ratio.toFixed(2)).padStart(7),
    (perRound === undefined ? '' : perRound.toFixed(2)).padStart(10),
    ` ${(c.base ?? '').padEnd(25)}`,
    (c.budget ? `${c.budget}×` : '').padStart(6),
    verdict,
  );
}
