#!/usr/bin/env node
// Rendering benchmark (README.md "Performance"): the Markdown renderer's throughput (MB/s), a
// streamed plan in the pretty view against the same text printed raw (--no-markdown), side by
// side in one run, a 1 MB line without a space and a 10 MB plan shown in one answer, and the
// longest the renderer holds the event loop (a Ctrl-C waits no longer), and Ctrl-C in the pretty
// view while a 10 MB plan in one answer plays (control back after it, longest wait), and the CPU
// and wall time from an answer to its first row on the terminal and to its last, for a 10 MB and
// a 5 KB plan, rendered against raw (the floor). Bundles bench/render-harness.ts with esbuild and
// runs it in this process.
// Usage: node bench/render.mjs [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'sitebuilder-bench-render-'));
try {
  await build({
    entryPoints: { harness: join(root, 'bench/render-harness.ts') },
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
  const h = await import(pathToFileURL(join(out, 'harness.js')).href);
  const tp = h.throughput();
  const streamed = await h.streamedPlan();
  const long = await h.longTexts();
  const stall = await h.longestStall();
  const ctrlC = await h.ctrlC();
  // A typical plan first: its code not yet warmed by the long ones (the CLI renders one answer a run).
  const small = await h.firstRows(5_000, 15);
  const big = await h.firstRows(10_000_000, 3);
  if (process.argv.includes('--json'))
    console.log(JSON.stringify({ throughput: tp, streamed, long, stall, ctrlC, firstRows: [small, big] }));
  else {
    const f = (n) => n.toFixed(1);
    console.log(
      `throughput: ${f(tp.mbPerS)} MB/s without colour, ${f(tp.colouredMbPerS)} MB/s with (${(tp.bytes / 1e6).toFixed(1)} MB of plans, median of 5)`,
    );
    console.log(
      `streamed plan (${streamed.events} events, ${streamed.bytes} bytes, 12 events an answer, played back): rendered ${f(streamed.renderedMs)} ms, raw ${f(streamed.rawMs)} ms (${f(streamed.renderedMs / streamed.rawMs)} ×), medians of 15 alternating`,
    );
    console.log(
      `1 MB line without a space, one answer: rendered ${f(long.lineRenderedMs)} ms, raw ${f(long.lineRawMs)} ms`,
    );
    console.log(
      `${(long.planBytes / 1e6).toFixed(1)} MB plan, one answer: rendered ${f(long.planRenderedMs)} ms, raw ${f(long.planRawMs)} ms`,
    );
    console.log(
      `10 MB plan rendered with yields: ${f(stall.ms)} ms; the event loop waited at most ${f(stall.worstStallMs)} ms (Ctrl-C is honoured within that)`,
    );
    console.log(
      `pretty view, one answer: 1 MB line shown in ${f(ctrlC.line.ms)} ms, the event loop waited at most ${f(ctrlC.line.worstStallMs)} ms; 1 MB of words ${f(ctrlC.words.ms)} ms, at most ${f(ctrlC.words.worstStallMs)} ms`,
    );
    console.log(
      `pretty view, 10 MB plan in one answer, Ctrl-C 300 ms in: control back ${f(ctrlC.plan.abortedAfterMs ?? Number.NaN)} ms after it, ${f(ctrlC.plan.ms)} ms in all; the event loop waited at most ${f(ctrlC.plan.worstStallMs)} ms (reading the answer included)`,
    );
    for (const r of [small, big]) {
      const size = r.bytes >= 1e6 ? `${(r.bytes / 1e6).toFixed(1)} MB` : `${(r.bytes / 1e3).toFixed(1)} KB`;
      const x = (a, b) => `${f(a)} ms, raw ${f(b)} ms`;
      console.log(
        `${size} plan, one answer, from its JSON (CPU, medians of ${r.runs} alternating): first row rendered ${x(r.rendered.firstCpu, r.raw.firstCpu)}; all shown rendered ${x(r.rendered.allCpu, r.raw.allCpu)} (wall: first row ${f(r.rendered.firstWall)} ms, raw ${f(r.raw.firstWall)} ms)`,
      );
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
