// A journey run against the default shapes and against a seed, and the invariants the issue asks
// of every seed (issue 19, item 4), each as a list of violations (empty when it holds):
//   writes     the request log's successful writes are the default's (fewer where the journey
//              cannot be completed safely, never other ones; all of them for a journey that can);
//   shown      what the emulator sent as text, tasks or files, that the default shapes' run
//              printed, is printed or said unread ("… sitebuilder cannot read"), nothing is
//              printed as "[object Object]", and a stdout value (an address) is the service's or
//              nothing, with a word on stderr;
//   commands   every follow-up command printed, run as printed (in a fork of the world at that
//              point), sends the writes the same command sends against the default shapes, or
//              nothing with exit 2;
//   templates  a printed command with a placeholder ('…', N) sends nothing and exits 2 (against
//              the default shapes too);
//   crashes    no stack trace, no "Unexpected error".
import { isDeepStrictEqual } from 'node:util';
import { Arguments } from '../../src/emulator/shapes/random/arguments.js';
import { Draw } from '../../src/emulator/shapes/random/draw.js';
import type { SentItem } from '../../src/emulator/shapes/random/index.js';
import type { ShapesName } from '../../src/emulator/shapes/types.js';
import type { Journey } from './journeys.js';
import { hasPlaceholder, type Printed, printedCommands } from './printed.js';
import { type CliRun, type Forkable, World, type Write } from './world.js';

export const INVARIANTS = ['writes', 'shown', 'commands', 'templates', 'crashes'] as const;
export type Invariant = (typeof INVARIANTS)[number];
export type Violations = Record<Invariant, string[]>;

export interface Step {
  run: CliRun;
  /** What the emulator sent during the step: sent.items[from, to) of the random shapes. */
  sent: [number, number];
  /** The runs the step started (the ones it follows). */
  started: Set<string>;
  contract: boolean;
  printed: Printed[];
  /** The world right after the step (kept where a printed command is to be tried). */
  fork?: Forkable;
}

export interface JourneyRecord {
  world: World;
  steps: Step[];
  since: number;
  /** Runs of printed commands in forks. */
  tried: CliRun[];
}

/** Runs a journey in a fresh world; forks after the steps listed (all: every step). */
export async function runJourney(
  journey: Journey,
  shapes: ShapesName,
  forkAt: 'all' | 'printed',
): Promise<JourneyRecord> {
  const world = await World.start(shapes);
  world.random?.sent.clear();
  const rec: JourneyRecord = { world, steps: [], since: world.seq(), tried: [] };
  await journey.run({
    world,
    async step(argv, options) {
      const from = world.random?.sent.items.length ?? 0;
      const before = new Set(world.jobIds());
      const run = await world.cli(argv);
      const started = new Set(world.jobIds().filter((j) => !before.has(j)));
      const sent: [number, number] = [from, world.random?.sent.items.length ?? 0];
      const printed = printedCommands(`${run.stdout}\n${run.stderr}`).filter((p) => p.words);
      const step: Step = { run, sent, started, contract: Boolean(options?.stdoutContract), printed };
      if (forkAt === 'all' || printed.length) step.fork = world.freeze();
      rec.steps.push(step);
      return run;
    },
  });
  return rec;
}

const key = (w: Write) => JSON.stringify(w);
const show = (ws: Write[]) => ws.map((w) => `${w.method} ${JSON.stringify(w.args)}`).join('; ') || 'none';

/** Whether every write of `some` is among `all` (as many times). */
export function within(some: Write[], all: Write[]): boolean {
  const left = all.map(key);
  for (const w of some) {
    const i = left.indexOf(key(w));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** Whether the journey can be completed safely against this seed: it says so, and the seed takes its writes' arguments as we send them. */
function completable(journey: Journey, r: JourneyRecord): boolean {
  const seed = r.world.random?.seed;
  if (!journey.complete || seed === undefined) return Boolean(journey.complete);
  const args = new Arguments(new Draw(seed));
  return !(journey.writesWith ?? []).some((method) => args.of(method));
}

function writes(journey: Journey, d: JourneyRecord, r: JourneyRecord): string[] {
  const [dw, rw] = [d.world.writes(d.since), r.world.writes(r.since)];
  const complete = completable(journey, r);
  const out: string[] = [];
  if (!(complete ? isDeepStrictEqual(rw, dw) : within(rw, dw)))
    out.push(`sent ${show(rw)}; against the default shapes: ${show(dw)}${complete ? ' (all can be sent safely)' : ''}`);
  // A journey that can be completed is not cut short on this side: its writes are at least sent,
  // and the service decides (it may refuse arguments it takes otherwise).
  const tried = r.world.attempts(r.since);
  const missing = journey.complete ? dw.filter((w) => !tried.includes(w.method)).map((w) => w.method) : [];
  if (missing.length) out.push(`never sent ${missing.join(', ')} (refused here, not by the service)`);
  return out;
}

/** Text as compared: no Markdown marks, no case, one space. */
export const norm = (s: string) =>
  s
    .replace(/[*_`#>|~[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
export const printedIn = (output: string, text: string) =>
  text
    .split('\n')
    .map(norm)
    .filter((line) => line.length > 1)
    .every((line) => output.includes(line));
const SAYS_UNREAD = /cannot read/i;

/**
 * Step by step: what the emulator sent during a step for the runs it started and followed (text,
 * tasks, files), or the history `message list` shows, that the same step printed against the
 * default shapes, is printed against the seed, or said unread.
 */
export function shown(d: JourneyRecord, r: JourneyRecord): string[] {
  const out: string[] = [];
  const items = r.world.random?.sent.items ?? [];
  const seen = new Set<string>();
  for (const [i, step] of r.steps.entries()) {
    const dRun = d.steps[i]?.run;
    if (!dRun) continue;
    const dOut = norm(d.world.canonical(`${dRun.stdout}\n${dRun.stderr}`));
    const rRaw = `${step.run.stdout}\n${step.run.stderr}`;
    const rOut = norm(r.world.canonical(rRaw));
    // The runs the step followed, and the history `message list` shows (not what a command read to decide).
    const shows = (item: SentItem) =>
      item.kind === 'message' ? step.run.argv[0] === 'message' : item.jobId !== null && step.started.has(item.jobId);
    for (const item of items.slice(...step.sent).filter(shows)) {
      const text = r.world.canonical(item.text);
      if (seen.has(text) || !printedIn(dOut, text) || printedIn(rOut, text) || SAYS_UNREAD.test(rRaw)) continue;
      seen.add(text);
      out.push(
        `\`${step.run.argv.join(' ')}\`: ${item.kind} ${JSON.stringify(text.slice(0, 60))} neither printed nor said unread`,
      );
    }
  }
  const rRaw = r.world.output();
  if (rRaw.includes('[object Object]')) out.push('printed "[object Object]"');
  for (const [i, step] of r.steps.entries()) {
    const dStep = d.steps[i];
    if (!step.contract || !dStep) continue;
    const [rs, ds] = [r.world.canonical(step.run.stdout.trim()), d.world.canonical(dStep.run.stdout.trim())];
    // Only where the service sent the value (a refused upload sent no address).
    const sent = items.slice(...step.sent).some((x) => x.kind === 'address' && r.world.canonical(x.text) === ds);
    // With nothing to print, stdout stays empty, stderr says what could not be read, and the exit code is not 0.
    if (!sent || rs === ds || (rs === '' && step.run.code !== 0 && SAYS_UNREAD.test(step.run.stderr))) continue;
    out.push(
      `\`${step.run.argv.join(' ')}\` printed ${JSON.stringify(rs)} on stdout and exited ${step.run.code} (the service sent ${JSON.stringify(ds)})`,
    );
  }
  return out;
}

/** Tries a printed command in a fork of the world at its step: its writes and its run. */
async function attempt(at: Forkable, words: string[], tried: CliRun[]): Promise<{ run: CliRun; writes: Write[] }> {
  const fork = await at.fork();
  const since = fork.seq();
  const run = await fork.cli(words.slice(1));
  tried.push(run);
  const result = { run, writes: fork.writes(since) };
  await fork.close();
  return result;
}

/** Every printed command with a placeholder, run as printed: it must send nothing and exit 2. */
export async function templates(rec: JourneyRecord): Promise<string[]> {
  const out: string[] = [];
  for (const step of rec.steps)
    for (const p of step.printed.filter(hasPlaceholder)) {
      const { run, writes: w } = await attempt(step.fork!, p.words!, rec.tried);
      if (w.length || run.code !== 2) out.push(`\`${p.text}\` exited ${run.code} after sending ${show(w)}`);
    }
  return out;
}

export async function commands(d: JourneyRecord, r: JourneyRecord): Promise<string[]> {
  const out: string[] = [];
  for (const [i, step] of r.steps.entries()) {
    for (const p of step.printed.filter((x) => !hasPlaceholder(x))) {
      const mine = await attempt(step.fork!, p.words!, r.tried);
      if (mine.writes.length === 0 && mine.run.code === 2) continue;
      const dFork = d.steps[i]?.fork;
      const theirs = dFork ? await attempt(dFork, d.world.local(r.world.canonical(p.words!)), d.tried) : undefined;
      if (theirs && isDeepStrictEqual(mine.writes, theirs.writes)) continue;
      out.push(
        `\`${p.text}\` exited ${mine.run.code} after sending ${show(mine.writes)}; against the default shapes it sends ${theirs ? show(theirs.writes) : '(not reached)'}`,
      );
    }
  }
  return out;
}

const CRASH =
  /Unexpected error|^\s+at \S.*:\d+:\d+\)?$|\b(TypeError|ReferenceError|RangeError|SyntaxError)\b|Cannot read properties of/m;

function crashes(r: JourneyRecord): string[] {
  return [...r.world.runs, ...r.tried]
    .filter((run) => CRASH.test(`${run.stdout}\n${run.stderr}`))
    .map((run) => `\`${run.argv.join(' ')}\`: ${(CRASH.exec(`${run.stdout}\n${run.stderr}`) ?? [''])[0]}`);
}

/** Every invariant of a journey against a seed, given the journey's default run. */
export async function check(journey: Journey, d: JourneyRecord, r: JourneyRecord): Promise<Violations> {
  return {
    writes: writes(journey, d, r),
    shown: shown(d, r),
    commands: await commands(d, r),
    templates: await templates(r),
    crashes: crashes(r),
  };
}

export async function closeRecord(rec: JourneyRecord): Promise<void> {
  for (const step of rec.steps) await step.fork?.close();
  await rec.world.close();
}
