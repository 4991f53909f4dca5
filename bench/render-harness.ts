// The measured part of bench/render.mjs (bundled by it with esbuild): the Markdown renderer's
// throughput, a streamed plan in the pretty view against the same text printed raw
// (--no-markdown), a 1 MB line without a space, a 10 MB plan, the longest stretch the renderer
// keeps the event loop (what a Ctrl-C waits at most), and the CPU and wall time from an answer
// to its first row on the terminal and to its last. Wall time of this process unless said; the
// clock of the view is a FakeClock, so playback waits take no time.
import { FakeClock } from '../src/clock.js';
import { readBrief } from '../src/emulator/domains/chat/agent/brief.js';
import { scriptRun } from '../src/emulator/domains/chat/agent/script.js';
import { createTestIO } from '../src/io/io.js';
import { PLAIN_THEME, renderMarkdown, renderMarkdownAsync, themeFor } from '../src/render/markdown/index.js';
import { applyAnswer, initialRunState } from '../src/render/reducer.js';
import { readJobAnswer } from '../src/service/job.js';
import { createRunView } from '../src/render/views.js';

type Ev = { event: string; data: Record<string, unknown> };

/** The scripted agent's plan: its events, and its text. */
export function planEvents(): Ev[] {
  const run = scriptRun({
    prompt: 'Make it blue, and add an about page, a team page, a gallery page and a contact page',
    mode: 'plan',
    siteName: 'Sunrise Bakery',
    files: { 'index.html': '<html></html>', 'styles.css': 'body{}' },
    brief: readBrief('A bakery in town', 'Sunrise Bakery'),
    notes: [],
    awaiting: null,
    fresh: false,
  });
  return run.script.events.map((e) => ({ event: e.event, data: e.data }));
}

const textOf = (events: Ev[]) =>
  events
    .filter((e) => e.event === 'text')
    .map((e) => e.data.text as string)
    .join('');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function time(f: () => void, runs: number): number {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** Rendering throughput (MB/s) on the plan's text repeated to about `bytes`. */
export function throughput(bytes = 2_000_000, runs = 5) {
  const one = textOf(planEvents());
  const text = one.repeat(Math.ceil(bytes / one.length));
  const ms = time(() => renderMarkdown(text, 79, PLAIN_THEME), runs);
  const io = createTestIO({ tty: true, colorLevel: 1 });
  const coloured = time(() => renderMarkdown(text, 79, themeFor(io)), runs);
  return {
    bytes: text.length,
    ms,
    mbPerS: text.length / 1e6 / (ms / 1000),
    colouredMbPerS: text.length / 1e6 / (coloured / 1000),
  };
}

/** The plan followed in the pretty view, `per` events an answer, played back; Markdown on or off. */
async function followPlan(events: Ev[], markdown: boolean, per: number): Promise<number> {
  const io = createTestIO({ tty: true, columns: 80, rows: 40, colorLevel: 1 });
  io.markdown = markdown;
  const clock = new FakeClock();
  const view = createRunView(io, clock, 'pretty');
  const t = performance.now();
  await view.begin('site_bakery', 'job_1');
  let state = initialRunState('job_1');
  for (let i = 0; i < events.length; i += per) {
    const chunk = events.slice(i, i + per);
    const applied = applyAnswer(state, readJobAnswer({ state: 'running', events: chunk }));
    state = applied.state;
    view.answer(applied, chunk);
    await view.play?.(clock.now() + 3000);
  }
  const applied = applyAnswer(state, readJobAnswer({ state: 'succeeded', events: [] }));
  view.answer(applied, []);
  await view.settle?.();
  view.stop();
  view.end({ state: applied.state, outcome: 'plan', exitCode: 11, elapsedMs: 1 });
  return performance.now() - t;
}

/** A streamed plan (12 events an answer, as a poll every 3 s brings), rendered against raw, alternating. */
export async function streamedPlan(rounds = 15) {
  const events = planEvents();
  const md: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < 3; i++) {
    await followPlan(events, true, 12);
    await followPlan(events, false, 12);
  }
  for (let i = 0; i < rounds; i++) {
    md.push(await followPlan(events, true, 12));
    raw.push(await followPlan(events, false, 12));
  }
  return { events: events.length, bytes: textOf(events).length, renderedMs: median(md), rawMs: median(raw) };
}

/** One answer of `text` in the pretty view, ended: how long until the end line. */
async function oneAnswer(text: string, markdown: boolean): Promise<number> {
  const events = [{ event: 'text', data: { text } }];
  return followPlan(events, markdown, 1);
}

export async function longTexts() {
  const line = 'x'.repeat(1_000_000);
  const one = textOf(planEvents());
  const plan = one.repeat(Math.ceil(10_000_000 / one.length));
  return {
    lineRenderedMs: await oneAnswer(line, true),
    lineRawMs: await oneAnswer(line, false),
    planBytes: plan.length,
    planRenderedMs: await oneAnswer(plan, true),
    planRawMs: await oneAnswer(plan, false),
  };
}

/** The longest the event loop waits while a 10 MB plan renders (a Ctrl-C waits no longer). */
export async function longestStall() {
  const one = textOf(planEvents());
  const plan = one.repeat(Math.ceil(10_000_000 / one.length));
  let last = performance.now();
  let worst = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  const t = performance.now();
  await renderMarkdownAsync(plan, 79, PLAIN_THEME);
  const ms = performance.now() - t;
  clearInterval(tick);
  return { ms, worstStallMs: worst };
}

/**
 * Ctrl-C while the pretty view follows a long text in one answer (a 1 MB line, a 10 MB plan):
 * the longest the event loop waits from reading the answer to the end line, and how long after
 * the abort (Ctrl-C, `afterMs` into the playback) the view gives control back.
 */
export async function viewStall(text: string, afterMs: number) {
  const io = createTestIO({ tty: true, columns: 80, rows: 40, colorLevel: 1 });
  const clock = new FakeClock();
  const view = createRunView(io, clock, 'pretty');
  await view.begin('site_bakery', 'job_1');
  let last = performance.now();
  let worst = 0;
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const abort = new AbortController();
  let abortedAt = 0;
  const timer = setTimeout(() => {
    abortedAt = performance.now();
    abort.abort();
  }, afterMs);
  const t = performance.now();
  const applied = applyAnswer(
    initialRunState('job_1'),
    readJobAnswer({ state: 'running', events: [{ event: 'text', data: { text } }] }),
  );
  view.answer(applied, []);
  await view.play?.(clock.now() + 3000, abort.signal);
  const back = performance.now();
  view.stop();
  view.end({ state: applied.state, outcome: 'detached', exitCode: 130, elapsedMs: 1 });
  const ms = performance.now() - t;
  clearTimeout(timer);
  await new Promise((r) => setImmediate(r));
  ticking = false;
  return { ms, worstStallMs: worst, abortedAfterMs: abortedAt ? back - abortedAt : undefined };
}

/** viewStall for a 1 MB line (shown whole) and a 10 MB plan (Ctrl-C 300 ms in). */
export async function ctrlC() {
  const one = textOf(planEvents());
  const plan = one.repeat(Math.ceil(10_000_000 / one.length));
  return {
    line: await viewStall(`${'x'.repeat(1_000_000)}\n`, 60_000),
    words: await viewStall(`${'word '.repeat(200_000)}\n`, 60_000),
    plan: await viewStall(plan, 300),
  };
}

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/**
 * One answer holding `text` in the pretty view, Markdown on or off: from its body (the JSON
 * the service sends, parsed here as the client does) to the first row written on the terminal,
 * and to the last (all of it shown): CPU ms of this process (its threads included) and wall ms.
 */
async function toRows(text: string, markdown: boolean) {
  const io = createTestIO({ tty: true, columns: 80, rows: 40, colorLevel: 1 });
  io.markdown = markdown;
  const clock = new FakeClock();
  const view = createRunView(io, clock, 'pretty');
  await view.begin('site_bakery', 'job_1');
  const body = JSON.stringify({
    success: true,
    message: 'ok',
    data: { jobId: 'job_1', state: 'running', events: [{ event: 'text', data: { text } }], cursor: 1 },
    code: 200,
    version: '1.0.0',
  });
  let first: { cpu: number; wall: number } | undefined;
  const stdout = io.stdout as unknown as { write: (...args: unknown[]) => boolean };
  const write = stdout.write.bind(stdout);
  stdout.write = (...args: unknown[]) => {
    first ??= { cpu: cpuMs(), wall: performance.now() };
    return write(...args);
  };
  const cpu = cpuMs();
  const wall = performance.now();
  const data = (JSON.parse(body) as { data: Record<string, unknown> }).data;
  const applied = applyAnswer(initialRunState('job_1'), readJobAnswer(data));
  view.answer(applied, []);
  await view.play?.(clock.now() + 3000);
  const all = { cpu: cpuMs() - cpu, wall: performance.now() - wall };
  view.stop();
  view.end({ state: applied.state, outcome: 'detached', exitCode: 130, elapsedMs: 1 });
  const f = first ?? { cpu: Number.NaN, wall: Number.NaN };
  return { firstCpu: f.cpu - cpu, firstWall: f.wall - wall, allCpu: all.cpu, allWall: all.wall };
}

/** toRows() for the plan repeated to about `bytes`, rendered and raw (--no-markdown, the floor) alternating, `runs` each: medians. */
export async function firstRows(bytes: number, runs: number) {
  const one = textOf(planEvents());
  const text = one.repeat(Math.ceil(bytes / one.length));
  const md: Awaited<ReturnType<typeof toRows>>[] = [];
  const raw: typeof md = [];
  for (let i = 0; i < runs; i++) {
    md.push(await toRows(text, true));
    raw.push(await toRows(text, false));
  }
  const med = (xs: typeof md) => ({
    firstCpu: median(xs.map((x) => x.firstCpu)),
    firstWall: median(xs.map((x) => x.firstWall)),
    allCpu: median(xs.map((x) => x.allCpu)),
    allWall: median(xs.map((x) => x.allWall)),
  });
  return { bytes: text.length, runs, rendered: med(md), raw: med(raw) };
}
