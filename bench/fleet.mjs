#!/usr/bin/env node
// Fleet benchmark (README.md "Performance", docs/scripting.md "Many sites at once"): the built
// binary publishes 200 sites with `publish --workspace ID --all-sites` against an emulator at a
// high --speed, then two such commands run side by side on one token. Reported from the
// emulator's request log (emulated time) and the processes themselves: calls, 429s met, the
// most calls in any minute (the service's minutes, and any 60 s), the wall time against the
// budget-bound ideal (a start and one final status a site at 240 calls a minute, or the slowest
// single publish if longer; target 1.2 ×), peak memory (max RSS) and, for two processes, each
// one's wall time. Each run has a token of its own, so its minute starts fresh.
// The CLI runs with SITEBUILDER_CLOCK_SPEED at the emulator's speed (docs/emulator.md): its poll
// floor, waits and reading of the budget's seconds all keep pace, so the batch behaves as it
// would against the service in real time, only N times faster.
// Usage: node bench/fleet.mjs [--speed N (10)] [--sites N (200)] [--json]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const bin = new URL('../bin/sitebuilder.js', import.meta.url).pathname;
const flag = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SPEED = flag('--speed', 10);
const SITES = flag('--sites', 200);
const BUDGET = 240;
const json = process.argv.includes('--json');

if (!existsSync('/usr/bin/time')) {
  console.error('bench/fleet needs GNU time for the peak memory: apt-get install time');
  process.exit(2);
}

async function startEmulator() {
  const child = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--json', '--speed', String(SPEED)], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', () => reject(new Error('the emulator exited early')));
  });
  return { child, baseUrl: JSON.parse(line).baseUrl };
}

async function control(baseUrl, verb, path, body) {
  const res = await fetch(`${baseUrl}/_emulator/${path}`, {
    method: verb,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

/** A workspace of n sites, and a token of its own for a run. */
async function prepare(baseUrl, id, n) {
  await control(baseUrl, 'POST', 'workspaces', { _id: id, name: id, plan: 'paid', siteLimit: 100_000 });
  const added = await control(baseUrl, 'POST', `workspaces/${id}/sites`, { count: n });
  return Array.isArray(added) ? added.map((s) => s._id) : [added.first._id];
}
const token = async (baseUrl, name) => (await control(baseUrl, 'POST', 'tokens', { name })).token;

/** The binary under GNU time: wall ms, max RSS, exit code, stdout lines. */
function sitebuilder(baseUrl, secret, args) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, bin, ...args], {
      env: {
        ...process.env,
        SITEBUILDER_BASE_URL: baseUrl,
        SITEBUILDER_TOKEN: secret,
        SITEBUILDER_CLOCK_SPEED: String(SPEED),
        SITEBUILDER_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sb-bench-fleet-')),
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      const lines = err.trim().split('\n');
      resolve({
        wallMs: Number(process.hrtime.bigint() - t0) / 1e6,
        rssMiB: Number(lines.pop()) / 1024,
        code,
        rows: out.trim().split('\n').filter(Boolean),
        stderr: lines.join('\n'),
      });
    });
  });
}

/** What the emulator saw of one token: calls, 429s, the most calls in a service minute and in any 60 s. */
async function seen(baseUrl, tokenName) {
  const log = (await control(baseUrl, 'GET', 'log')).filter((e) => e.token === tokenName);
  const counted = log.filter((e) => e.counted).map((e) => Date.parse(e.time));
  let serviceMinute = 0;
  let start = Number.NEGATIVE_INFINITY;
  let inMinute = 0;
  for (const t of counted) {
    if (t >= start + 60_000) {
      start = t;
      inMinute = 0;
    }
    serviceMinute = Math.max(serviceMinute, ++inMinute);
  }
  let anyMinute = 0;
  for (let i = 0, j = 0; i < counted.length; i++) {
    while (counted[i] - counted[j] >= 60_000) j++;
    anyMinute = Math.max(anyMinute, i - j + 1);
  }
  return {
    calls: log.length,
    rateLimited: log.filter((e) => e.status === 429).length,
    serviceMinute,
    anyMinute,
  };
}

const emu = await startEmulator();
try {
  const [single] = await prepare(emu.baseUrl, 'ws_single', 1);
  await prepare(emu.baseUrl, 'ws_x', SITES);
  await prepare(emu.baseUrl, 'ws_y', SITES);
  await prepare(emu.baseUrl, 'ws_z', SITES);

  // The slowest single publish, alone (start-up included): the ideal when it is the longer.
  const one = await sitebuilder(emu.baseUrl, await token(emu.baseUrl, 'single'), ['publish', single]);
  // The budget-bound ideal: a start and one final status a site, at 240 calls an emulated minute.
  const budgetMs = (((2 * SITES) / BUDGET) * 60_000) / SPEED;
  const idealMs = Math.max(budgetMs, one.wallMs);

  const batch = await sitebuilder(emu.baseUrl, await token(emu.baseUrl, 'batch'), [
    'publish',
    '--workspace',
    'ws_x',
    '--all-sites',
  ]);
  const batchSeen = await seen(emu.baseUrl, 'batch');

  const shared = await token(emu.baseUrl, 'shared');
  const pair = await Promise.all(
    ['ws_y', 'ws_z'].map((ws) => sitebuilder(emu.baseUrl, shared, ['publish', '--workspace', ws, '--all-sites'])),
  );
  const pairSeen = await seen(emu.baseUrl, 'shared');
  const pairIdealMs = Math.max(2 * budgetMs, one.wallMs);

  const live = (r) => r.rows.filter((l) => l.split('\t')[1] === 'live').length;
  const result = {
    speed: SPEED,
    sites: SITES,
    budgetPerMinute: BUDGET,
    single: { wallMs: Math.round(one.wallMs), code: one.code },
    batch: {
      code: batch.code,
      live: live(batch),
      wallMs: Math.round(batch.wallMs),
      idealMs: Math.round(idealMs),
      ratio: +(batch.wallMs / idealMs).toFixed(2),
      rssMiB: +batch.rssMiB.toFixed(1),
      ...batchSeen,
    },
    pair: {
      codes: pair.map((r) => r.code),
      live: pair.map(live),
      wallMs: pair.map((r) => Math.round(r.wallMs)),
      idealMs: Math.round(pairIdealMs),
      ratio: +(Math.max(...pair.map((r) => r.wallMs)) / pairIdealMs).toFixed(2),
      fairness: +(Math.min(...pair.map((r) => r.wallMs)) / Math.max(...pair.map((r) => r.wallMs))).toFixed(2),
      rssMiB: pair.map((r) => +r.rssMiB.toFixed(1)),
      ...pairSeen,
    },
  };
  const ok =
    batch.code === 0 &&
    result.batch.live === SITES &&
    batchSeen.rateLimited === 0 &&
    batchSeen.serviceMinute <= BUDGET &&
    result.batch.ratio <= 1.2 &&
    pair.every((r) => r.code === 0 && live(r) === SITES) &&
    pairSeen.rateLimited === 0 &&
    pairSeen.serviceMinute <= BUDGET;
  result.ok = ok;
  if (json) console.log(JSON.stringify(result));
  else {
    const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
    const b = result.batch;
    const p = result.pair;
    console.log(
      `emulator at --speed ${SPEED} (an emulated minute is ${s(60_000 / SPEED)}); ${SITES} sites a workspace`,
    );
    console.log(`one publish alone: ${s(one.wallMs)} (start-up included)`);
    console.log(
      `publish --workspace ws_x --all-sites: exit ${b.code}, ${b.live}/${SITES} live, ${b.calls} calls, ${b.rateLimited} 429s met, ` +
        `at most ${b.serviceMinute} calls in a minute of the service (${b.anyMinute} in any 60 s; budget ${BUDGET})`,
    );
    console.log(
      `  wall ${s(b.wallMs)} against an ideal of ${s(b.idealMs)} (${2 * SITES} calls at ${BUDGET} a minute): ${b.ratio} × (target ≤ 1.2); peak memory ${b.rssMiB} MiB`,
    );
    console.log(
      `two at once on one token: exits ${p.codes.join(' and ')}, ${p.live.join(' and ')} live, ${p.calls} calls, ${p.rateLimited} 429s met, ` +
        `at most ${p.serviceMinute} calls in a minute of the service (${p.anyMinute} in any 60 s)`,
    );
    console.log(
      `  wall ${p.wallMs.map(s).join(' and ')} (the shorter ${p.fairness} of the longer) against an ideal of ${s(p.idealMs)}: ${p.ratio} ×; peak memory ${p.rssMiB.join(' and ')} MiB`,
    );
    console.log(ok ? 'ok' : 'OVER');
  }
  process.exitCode = ok ? 0 : 1;
} finally {
  emu.child.kill('SIGTERM');
}
