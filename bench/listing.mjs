#!/usr/bin/env node
// Listing benchmark: `site list --all --json` over 10,000 and 100,000 sites of the emulator:
// the calls it makes (the emulator's request log), the wall time and the peak memory (max RSS)
// of the CLI process. The budgets: pages of 1,000 (100,000 sites in about 100 calls), streamed,
// peak memory flat (not growing with N). Usage: node bench/listing.mjs [sites…]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const bin = new URL('../bin/sitebuilder.js', import.meta.url).pathname;

async function startEmulator() {
  const child = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', () => reject(new Error('the emulator exited early')));
  });
  const info = JSON.parse(line);
  return { child, baseUrl: info.baseUrl, token: info.tokens[0].token };
}

async function control(baseUrl, path, body) {
  const res = await fetch(`${baseUrl}/_emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function listSitesCalls(baseUrl) {
  const res = await fetch(`${baseUrl}/_emulator/log?method=list_sites`);
  const body = await res.json();
  return body.data.length;
}

async function clearLog(baseUrl) {
  await fetch(`${baseUrl}/_emulator/log`, { method: 'DELETE' });
}

/** Runs the CLI under `/usr/bin/time -f %M` (max RSS, KiB) and counts the JSON elements it printed. */
function listAll(env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(
      '/usr/bin/time',
      ['-f', '%M', process.execPath, bin, 'site', 'list', '--workspace', 'ws_bench', '--all', '--json'],
      { env: { ...process.env, ...env } },
    );
    let bytes = 0;
    let elements = 0;
    child.stdout.on('data', (c) => {
      bytes += c.length;
      for (const b of c) if (b === 0x0a) elements++;
    });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`exit ${code}: ${err}`));
      resolve({
        ms: Number(process.hrtime.bigint() - t0) / 1e6,
        rssKiB: Number(err.trim().split('\n').pop()),
        bytes,
        sites: elements - 2,
      });
    });
  });
}

if (!existsSync('/usr/bin/time')) {
  console.error('bench/listing needs GNU time for the peak memory: apt-get install time');
  process.exit(2);
}
const emu = await startEmulator();
const env = {
  SITEBUILDER_BASE_URL: emu.baseUrl,
  SITEBUILDER_TOKEN: emu.token,
  SITEBUILDER_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'sb-bench-')),
};
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
try {
  await control(emu.baseUrl, 'workspaces', { _id: 'ws_bench', name: 'Bench', plan: 'paid', siteLimit: 100000 });
  console.log(
    'sites'.padStart(7),
    'calls'.padStart(6),
    'time ms'.padStart(9),
    'max RSS MiB'.padStart(12),
    'JSON MiB'.padStart(9),
  );
  let total = 0;
  for (const n of sizes.length ? sizes : [10000, 100000]) {
    if (n > total) await control(emu.baseUrl, 'workspaces/ws_bench/sites', { count: n - total });
    total = Math.max(total, n);
    await clearLog(emu.baseUrl);
    const r = await listAll(env);
    console.log(
      String(r.sites).padStart(7),
      String(await listSitesCalls(emu.baseUrl)).padStart(6),
      r.ms.toFixed(0).padStart(9),
      (r.rssKiB / 1024).toFixed(1).padStart(12),
      (r.bytes / 1048576).toFixed(2).padStart(9),
    );
  }
} finally {
  emu.child.kill('SIGTERM');
}
