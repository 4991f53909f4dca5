// `sitebuilder doctor` over the shape fuzzer (`--shapes random:SEED`, docs/emulator.md "Random
// shapes"): whatever the seed, it writes nothing, makes at most five counted calls, reports every
// field of the catalogue as found, not found or not checked in a document of the same keys, and a
// field the seed moved is reported not found, or found where the seed put it: never where it
// was. `GET /_emulator/shapes` (`moved`) says where each went. Every argument the seed took
// otherwise (renamed, ours dropped, made required) is a finding, and nothing else is; a terminal
// of 40 columns names each, cutting nothing. A failing seed is in the message;
// `SITEBUILDER_FUZZ_SEEDS=7 npx vitest run test/fuzz/doctor.test.ts` replays it.
import { afterEach, describe, expect, it } from 'vitest';
import { methodInfo } from '../../src/api/method-index.js';
import { FakeClock } from '../../src/clock.js';
import type { DoctorReport } from '../../src/commands/doctor/report.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import type { ArgChoice } from '../../src/emulator/shapes/random/arguments.js';
import type { RandomShapes } from '../../src/emulator/shapes/random/index.js';
import { EVENT_SOURCES } from '../../src/service/doctor-probe.js';
import { checkReport } from '../helpers/doctor-report.js';
import { run } from '../helpers/run.js';

const SEEDS = process.env.SITEBUILDER_FUZZ_SEEDS
  ? process.env.SITEBUILDER_FUZZ_SEEDS.split(',').map(Number)
  : [1, 3, 7, 13, 16, 31, 42, 99];

/** The emulator's record kinds (src/emulator/shapes/random/records.ts) of the resources doctor reads. */
const KINDS: Record<string, string> = {
  'workspace record': 'workspace',
  'site record': 'site',
  'message record': 'message',
  'storage backup': 'storage backup',
  'publish record': 'deployment',
  'token record': 'GET /v1/token:',
  tool: 'GET /v1/tools:[]',
};

/** A path's keys in one spelling: the model matches a name in any case or word separation. */
const loose = (path: string) => path.replace(/[_-]/g, '').toLowerCase();

interface Move {
  /** The field's path in its record as the emulator's default shapes place it, and where the seed put it. */
  from: string;
  to: string;
}

/** The seed's moves of the records of one resource (and of one event kind's data), as paths in the record. */
function movesOf(moved: Record<string, string>, resource: string, field: string): Move[] {
  const bases =
    resource === 'job event data'
      ? EVENT_SOURCES[field as keyof typeof EVENT_SOURCES].kinds.map((k) => `get_job:event ${k}:`)
      : KINDS[resource]
        ? [KINDS[resource]]
        : [];
  return Object.entries(moved).flatMap(([key, to]) => {
    const cut = key.lastIndexOf(' ');
    const [kind, name] = [key.slice(0, cut), key.slice(cut + 1)];
    for (const base of bases) {
      // A kind nested in the record (`GET /v1/token:rateLimit`): its fields are under that path.
      if (kind !== base && !(base.endsWith(':') && kind.startsWith(base)) && !kind.startsWith(`${base}:`)) continue;
      const nested = kind.slice(base.length).replace(/^:/, '');
      const prefix = nested ? `${nested}.` : '';
      return [{ from: `${prefix}${name}`, to: `${prefix}${to}` }];
    }
    return [];
  });
}

/**
 * The arguments the seed took otherwise (`describe().arguments`: a name of its own, ours no longer
 * taken, required where ours is not) are the ones doctor says the description contradicts: each
 * of them found, and no finding on a method the seed left as ours.
 */
function checkArguments(report: DoctorReport, shapes: RandomShapes, label: string): number {
  const taken = shapes.describe().arguments as Record<string, ArgChoice[]>;
  const found = (method: string, argument: string, problem: string) =>
    report.arguments.find((a) => a.method === method && a.argument === argument && a.problem === problem);
  const expected: string[] = [];
  for (const [method, choices] of Object.entries(taken))
    for (const c of choices) {
      if (c.theirs !== c.ours) expected.push(`${method} ${c.theirs} unknown`);
      if (!c.oursTaken) expected.push(`${method} ${c.ours} not described`);
      if (c.theirs === c.ours && c.required && methodInfo(method)?.schema.required?.includes(c.ours) !== true)
        expected.push(`${method} ${c.ours} required`);
    }
  for (const e of expected) {
    const [method, argument, ...problem] = e.split(' ');
    expect(found(method, argument, problem.join(' ')), `${label}: ${e}\n${JSON.stringify(report.arguments)}`).toEqual(
      expect.objectContaining({ sources: expect.arrayContaining(['openapi']) }),
    );
  }
  const untouched = report.arguments.filter((a) => !(a.method in taken));
  expect(untouched, `${label}: findings on methods the seed left as ours`).toEqual([]);
  return expected.length;
}

let emu: RunningEmulator | undefined;
let renamed = 0;
afterEach(() => emu?.close());

describe.each(SEEDS)('doctor against random:%i', (seed) => {
  it('writes nothing, counts at most five calls, reports every field in the same document; a moved field is never found where it was', async () => {
    const clock = new FakeClock();
    emu = await startEmulator({ port: 0, clock, shapes: `random:${seed}` as never });
    const env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
    const r = await run(['doctor', '--json'], { env, clock });
    const label = `random:${seed}`;
    expect(r.stderr, label).not.toMatch(/\n\s+at |Unexpected error/);
    const report = JSON.parse(r.stdout) as DoctorReport;
    expect(r.code, `${label}\n${JSON.stringify(report.calls.filter((c) => c.error))}`).toBe(report.exitCode);

    const log = emu.control.log();
    expect(
      log.filter((e) => e.verb === 'POST' && methodInfo(e.method ?? '')?.write !== false),
      label,
    ).toEqual([]);
    expect(log.filter((e) => e.counted).length, label).toBeLessThanOrEqual(5);
    expect(
      log.filter((e) => e.verb === 'GET').map((e) => e.path),
      label,
    ).toEqual(['/v1/token', '/v1/tools', '/v1/openapi.json']);
    checkReport(report, label);

    const moved = (emu.emulator.shapes as RandomShapes).describe().moved as Record<string, string>;
    let compared = 0;
    for (const f of report.fields) {
      for (const move of movesOf(moved, f.resource, f.field)) {
        if (!f.looked.some((p) => loose(p) === loose(move.from))) continue;
        compared++;
        if (f.status !== 'found' || loose(move.to) === loose(move.from)) continue;
        for (const p of f.paths)
          expect(
            loose(p),
            `${label}: ${f.resource} ${f.field} moved ${move.from} → ${move.to}, found at ${p}`,
          ).not.toBe(loose(move.from));
      }
    }
    expect(compared, `${label}: fields the seed moved that doctor reported`).toBeGreaterThan(0);
    renamed += checkArguments(report, emu.emulator.shapes as RandomShapes, label);

    // On a terminal of 40 columns: each finding said, by the argument's name, and nothing cut.
    const tty = await run(['doctor'], { env, clock, tty: true, columns: 40 });
    expect(tty.code, label).toBe(report.exitCode);
    expect(tty.stdout, label).not.toContain('…');
    const flat = tty.stdout.replace(/\s+/g, ' ');
    for (const a of report.arguments)
      expect(flat, `${label}: ${a.method} ${a.argument}`).toContain(`\`${a.argument}\``);
  });
});

describe('doctor against the seeds above', () => {
  it('found arguments the seeds took otherwise (else the check above proves nothing)', () => {
    if (SEEDS.length >= 4) expect(renamed).toBeGreaterThan(0);
  });
});
