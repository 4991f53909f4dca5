#!/usr/bin/env node
// Polling benchmark (README.md "Performance": following a run makes at most 20 calls a minute
// on an idle run, and shows events within one interval). Bundles bench/polling-harness.ts with
// esbuild, then runs the CLI in-process against an emulator on a shared fake clock: emulated
// time, exact.
// Usage: node bench/polling.mjs [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'sitebuilder-bench-polling-'));
try {
  await build({
    entryPoints: { harness: join(root, 'bench/polling-harness.ts') },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: {
      js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const { idleRun, busyRun } = await import(pathToFileURL(join(out, 'harness.js')).href);
  const idle = await idleRun(60);
  // A dense build (an event every 0.1 to 1.5 s) and a long one (6 s steps, quiet in between).
  const busy = await busyRun('Add an about page, a contact page, a gallery page, a pricing page and a faq page');
  const long = await busyRun('Add every page you can think of #long');
  const ok = idle.calls <= 20 && busy.withinOneInterval && long.withinOneInterval;
  if (process.argv.includes('--json')) console.log(JSON.stringify({ idle, busy, long, ok }));
  else {
    console.log(
      `idle run, followed ${idle.seconds} emulated seconds: ${idle.calls} get_job calls (target ≤ 20)  ${idle.calls <= 20 ? 'ok' : 'OVER'}`,
    );
    for (const [name, b] of [
      ['busy run', busy],
      ['long run', long],
    ]) {
      console.log(
        `${name}: ${b.events} events over ${(b.runMs / 1000).toFixed(1)} s in ${b.calls} calls; delay from creation to print: median ${b.medianDelayMs} ms, max ${b.maxDelayMs} ms; longest interval ${b.maxIntervalMs} ms; every event within the interval before its print: ${b.withinOneInterval ? 'yes' : 'NO'}`,
      );
    }
  }
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
