#!/usr/bin/env node
// Polling benchmark (README.md "Performance"): get_job calls per busy and per idle minute (the
// service asks for a poll every few seconds at most: never under 2 s, about 3 s while busy, at
// most 20 in an idle minute), the delay from an agent event to its first printed word on a
// terminal, and the calls a message costs before send_message. Bundles bench/polling-harness.ts
// with esbuild, then runs the CLI in-process against an emulator on a shared fake clock:
// emulated time, exact.
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
    target: 'node22',
    banner: {
      js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const { idleRun, busyMinute, firstWordDelays, callsBeforeSend } = await import(
    pathToFileURL(join(out, 'harness.js')).href
  );
  const idle = await idleRun(60);
  const busy = await busyMinute();
  // A dense build (an event every 0.1 to 1.5 s) and a long one (6 s steps), on a terminal.
  const dense = await firstWordDelays(
    'Add an about page, a contact page, a gallery page, a pricing page and a faq page',
  );
  const long = await firstWordDelays('Add every page you can think of #long');
  // A plan: its Markdown in some sixty pieces, cut anywhere (docs/emulator.md), rendered as it streams.
  const plan = await firstWordDelays('--plan\u0000Make it blue, and add an about page, a team page and a contact page');
  const before = [await callsBeforeSend('default'), await callsBeforeSend('alternate')];
  const minGap = Math.min(idle.minGapMs, busy.minGapMs);
  // A text event the walk could not find on the screen is a measurement lost, not a fast one.
  const seen = [dense, long, plan].every((d) => d.unseen === 0 && d.textEvents > 0);
  const ok = idle.calls <= 20 && busy.calls <= 21 && minGap >= 2000 && before.every((b) => b.getJob <= 1) && seen;
  if (process.argv.includes('--json')) console.log(JSON.stringify({ idle, busy, dense, long, plan, before, ok }));
  else {
    const line = (label, ok, bad = 'OVER') => console.log(`${label}  ${ok ? 'ok' : bad}`);
    line(
      `busy minute (a #long run, its first 60 emulated s): ${busy.calls} get_job calls (about every 3 s; ≤ 21)`,
      busy.calls <= 21,
    );
    line(`idle minute (a stalled run, 60 emulated s): ${idle.calls} get_job calls (≤ 20)`, idle.calls <= 20);
    line(`shortest gap between two polls of a run: ${minGap} ms (≥ 2000)`, minGap >= 2000);
    for (const [name, d] of [
      ['dense build', dense],
      ['long run', long],
      ['plan', plan],
    ]) {
      line(
        `${name} on a terminal: ${d.textEvents} text events (${d.unseen} not found on the screen) over ${(d.runMs / 1000).toFixed(1)} s in ${d.calls} calls; event to its first printed word: median ${d.medianDelayMs} ms, max ${d.maxDelayMs} ms (longest wait between polls ${d.maxGapMs} ms)`,
        d.unseen === 0 && d.textEvents > 0,
        'INCOMPLETE',
      );
    }
    for (const b of before)
      line(
        `before send_message (${b.shapes} shapes, latest run known): ${b.listMessages} list_messages + ${b.getJob} get_job (≤ 1 get_job)`,
        b.getJob <= 1,
      );
  }
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
