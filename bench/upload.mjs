#!/usr/bin/env node
// Upload benchmark: `sitebuilder upload` of one file of N MiB (default 100, the limit) to the
// emulator, piped: the wall time and the peak memory (max RSS) of the CLI process, several runs
// (medians). The budget: the body is streamed as it is encoded, so memory stays flat with the
// file's size. `--bin PATH` measures another build's launcher (a copy of an older checkout's
// bin/ and dist/) side by side; `--bandwidth BYTES` slows the emulator's reading of the body
// (the bandwidth fault, docs/emulator.md "Faults").
// Usage: node bench/upload.mjs [--mib 100] [--runs 3] [--bin other/bin/sitebuilder.js]…
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    mib: { type: 'string', default: '100' },
    runs: { type: 'string', default: '3' },
    bin: { type: 'string', multiple: true },
    bandwidth: { type: 'string' },
  },
});
const here = new URL('../bin/sitebuilder.js', import.meta.url).pathname;
const bins = [here, ...(values.bin ?? [])];

async function startEmulator() {
  const child = spawn(process.execPath, [here, 'emulator', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', () => reject(new Error('the emulator exited early')));
  });
  const info = JSON.parse(line);
  return { child, baseUrl: info.baseUrl, token: info.tokens[0].token };
}

/** A file of `mib` MiB of varied bytes (base64 of zeros would be no test of the encoder). */
function makeFile(mib) {
  const path = join(mkdtempSync(join(tmpdir(), 'sb-bench-upload-')), 'big.bin');
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < mib; i++) {
    for (let j = 0; j < block.length; j += 4) block.writeUInt32LE((i * 2654435761 + j * 40503) >>> 0, j);
    writeSync(fd, block);
  }
  closeSync(fd);
  return path;
}

/** Runs the CLI under `/usr/bin/time -f %M` (max RSS, KiB). */
function upload(bin, file, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, bin, 'upload', 'site_bakery', file], {
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`exit ${code}: ${err}`));
      resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, rssKiB: Number(err.trim().split('\n').pop()), out });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!existsSync('/usr/bin/time')) {
  console.error('bench/upload needs GNU time for the peak memory: apt-get install time');
  process.exit(2);
}
const mib = Number(values.mib);
const runs = Number(values.runs);
const file = makeFile(mib);
const emu = await startEmulator();
const env = {
  SITEBUILDER_BASE_URL: emu.baseUrl,
  SITEBUILDER_TOKEN: emu.token,
  SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-bench-')), 'config'),
};
try {
  console.log(`upload of ${mib} MiB, ${runs} runs alternating, medians (ranges)`);
  const results = new Map(bins.map((b) => [b, []]));
  for (let i = 0; i < runs; i++) {
    for (const bin of bins) {
      if (values.bandwidth) {
        await fetch(`${emu.baseUrl}/_emulator/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ method: 'upload_storage_file', bytesPerSecond: Number(values.bandwidth) }),
        });
      }
      results.get(bin).push(await upload(bin, file, env));
    }
  }
  for (const [bin, rs] of results) {
    const ms = rs.map((r) => r.ms);
    const rss = rs.map((r) => r.rssKiB / 1024);
    console.log(
      `${bin === here ? 'this build' : bin}: ${(median(ms) / 1000).toFixed(1)} s (${(Math.min(...ms) / 1000).toFixed(1)}–${(Math.max(...ms) / 1000).toFixed(1)}), ` +
        `max RSS ${median(rss).toFixed(0)} MiB (${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)})`,
    );
  }
} finally {
  emu.child.kill('SIGTERM');
  rmSync(file, { force: true });
}
