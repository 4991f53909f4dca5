// The random shapes' choices one by one, each on a seed that draws it: determinism, job states
// the reference does not list, arguments refused or required (and the service's description
// saying so), orders inside a page, ids as numbers, time formats, refusals, the catalogue's
// coverage over many seeds, and the switch (`random:SEED` from the command line, the variable,
// the control API's description of a seed).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { idPattern, parseShapesName, ShapesError, shapesFromEnv } from '../../src/emulator/index.js';
import { createTestIO } from '../../src/io/io.js';
import { Arguments } from '../../src/emulator/shapes/random/arguments.js';
import {
  FILE_FORMS,
  ID_FORMS,
  STATES_AFTER,
  STATES_BEFORE,
  TEXT_FORMS,
  TEXT_KEYS,
  TIME_FORMATS,
  TODO_FORMS,
} from '../../src/emulator/shapes/random/catalogue.js';
import { Draw } from '../../src/emulator/shapes/random/draw.js';
import { randomShapes } from '../../src/emulator/shapes/random/index.js';
import { RecordShaper } from '../../src/emulator/shapes/random/records.js';
import { Names } from '../../src/emulator/shapes/random/names.js';
import { formatTime, idFormOf, Times } from '../../src/emulator/shapes/random/values.js';
import { waitFor } from '../helpers/wait-for.js';
import { harness, send } from './helpers.js';
import { anyTime, pairs, START, twins } from './random-twins.js';

/** The first seed from 1 on whose choices pass the test. */
function seedWhere(test: (seed: number) => boolean): number {
  for (let s = 1; s < 2000; s++) if (test(s)) return s;
  throw new Error('no seed draws it');
}
const describeOf = (seed: number) => randomShapes(seed).describe() as any;
const argsOf = (seed: number, method: string) => new Arguments(new Draw(seed)).of(method)?.choices ?? [];

describe('each choice of a seed', () => {
  it('is deterministic: the same seed answers the same calls alike; another seed differs', async () => {
    const answers = async (seed: number) => {
      const h = await harness({ clock: new FakeClock(START), shapes: `random:${seed}` });
      const out: unknown[] = [];
      for (const [m, a] of [
        ['list_sites', { workspaceId: 'ws_demo' }],
        ['list_messages', { projectId: 'site_bakery' }],
        ['send_message', { projectId: 'site_bakery', prompt: 'Add a team page with photos' }],
        ['list_backups', { projectId: 'site_bakery' }],
      ] as const)
        out.push(
          JSON.parse((await h.call(m, a)).text.replaceAll(h.emu.baseUrl, 'BASE').replace(/"requestId":"[^"]*"/, '')),
        );
      await h.close();
      return out;
    };
    const [a, b, c] = [await answers(11), await answers(11), await answers(12)];
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('a run reads states the reference does not list before and after running, and can be cancelled in them', async () => {
    const seed = seedWhere((s) => describeOf(s).states.beforeRunning && describeOf(s).states.afterRunning);
    const { beforeRunning, afterRunning } = describeOf(seed).states;
    const clock = new FakeClock(START);
    const h = await harness({ clock, shapes: `random:${seed}` });
    const start = async () =>
      (await h.call('send_message', { projectId: 'site_bakery', prompt: 'Add a blog page with three posts' })).body.data
        .jobId;
    const read = async (jobId: unknown, cursor = 0) =>
      (await h.call('get_job', { projectId: 'site_bakery', jobId: String(jobId), cursor })).body.data;
    const job = await start();
    expect((await read(job)).state).toBe(beforeRunning);
    clock.advance(1_000);
    expect((await read(job)).state).toBe('running');
    // Read to the last event (what it cost): the run then reads the after-state until it ends.
    let last = await read(job);
    for (let i = 0; i < 100 && !last.events.some((e: any) => e.event === 'credits_used'); i++) {
      clock.advance(100);
      last = await read(job);
    }
    expect(last.state).toBe(afterRunning);
    expect((await read(job, last.cursor)).state).toBe(afterRunning);
    clock.advance(60_000);
    expect((await read(job)).state).toBe('succeeded');
    // A run in the before-state is a run like any other: cancel_job stops it.
    const second = await start();
    expect((await read(second)).state).toBe(beforeRunning);
    const name = argsOf(seed, 'cancel_job').find((c) => c.ours === 'jobId')?.theirs ?? 'jobId';
    const cancel = await h.call('cancel_job', { projectId: 'site_bakery', [name]: String(second) });
    expect(cancel.status, cancel.text).toBe(200);
    expect((await read(second)).state).toBe('cancelled');
    await h.close();
  });

  it('cancel_job may require the run; a missing one is refused with 400 and nothing stops', async () => {
    const seed = seedWhere((s) => argsOf(s, 'cancel_job').some((c) => c.ours === 'jobId' && c.required));
    const name = argsOf(seed, 'cancel_job').find((c) => c.ours === 'jobId')!.theirs;
    const h = await harness({ clock: new FakeClock(START), shapes: `random:${seed}` });
    const job = (await h.call('send_message', { projectId: 'site_bakery', prompt: 'Add a blog page with posts' })).body
      .data.jobId;
    const refused = await h.call('cancel_job', { projectId: 'site_bakery' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`The argument \`${name}\` is required.`);
    expect(refused.body.data).toMatchObject({ reason: 'invalid-argument', argument: name });
    expect(h.emu.control.log({ method: 'cancel_job' })[0].status).toBe(400);
    expect((await h.call('cancel_job', { projectId: 'site_bakery', [name]: String(job) })).status).toBe(200);
    await h.close();
  });

  it('queue methods may take other names only: ours refused with 400, theirs taken, the description says so', async () => {
    const seed = seedWhere((s) =>
      argsOf(s, 'edit_queued_message').some((c) => c.ours === 'queueItemId' && !c.oursTaken),
    );
    const theirs = argsOf(seed, 'edit_queued_message').find((c) => c.ours === 'queueItemId')!.theirs;
    const h = await harness({ clock: new FakeClock(START), shapes: `random:${seed}` });
    await h.call('send_message', { projectId: 'site_bakery', prompt: 'Add a blog page with posts' });
    const queued = (await h.call('send_message', { projectId: 'site_bakery', prompt: 'Then a shop page' })).body.data;
    const edit = (args: Record<string, unknown>) =>
      h.call('edit_queued_message', { projectId: 'site_bakery', expectedVersion: queued.QueueVersion, ...args });
    const prompt = argsOf(seed, 'edit_queued_message').find((c) => c.ours === 'prompt')!;
    const ours = await edit({ queueItemId: queued.queueItemId, [prompt.theirs]: 'Then a shop page with prices' });
    expect(ours.status).toBe(400);
    expect(ours.body.message).toMatch(
      new RegExp(
        `^(edit_queued_message does not take the argument \`queueItemId\`|The argument \`${theirs}\` is required).$`,
      ),
    );
    const queue = () => (h.emu.emulator.state.domains.chat as any).sites.site_bakery.queue[0].prompt;
    expect(queue()).toBe('Then a shop page');
    const ok = await edit({ [theirs]: queued.queueItemId, [prompt.theirs]: 'Then a shop page with prices' });
    expect(ok.status, ok.text).toBe(200);
    expect(queue()).toBe('Then a shop page with prices');
    const tools = (await h.get('/v1/tools')).body.data as any[];
    const tool = tools.find((t) => Object.values(t).includes('edit_queued_message'));
    const schema = pairs(tool).find(([, v]: [string, any]) => v?.properties?.projectId)![1] as any;
    expect(Object.keys(schema.properties)).toContain(theirs);
    expect(Object.keys(schema.properties)).not.toContain('queueItemId');
    const openapi = (await h.get('/v1/openapi.json')).body.data;
    const body = openapi.paths['/v1/edit_queued_message'].post.requestBody.content['application/json'].schema;
    expect(body).toEqual(schema);
    await h.close();
  });

  it('pages come in another order where none is stated; the queue stays oldest first', async () => {
    const seed = seedWhere((s) => {
      const r = new RecordShaper(new Draw(s), new Names(new Draw(s)), new Times(new Draw(s)));
      return r.orderOf('list_storage_backups') === 'reversed' && r.orderOf('list_queued_messages') === 'kept';
    });
    const t = await twins(seed);
    const { d, r } = await t.both('list_storage_backups', { projectId: 'site_bakery' });
    const ids = Object.values(r.body.data)
      .find(Array.isArray)!
      .map((b: any) => b.backupId);
    expect(ids).toEqual(t.translate(d.body.data.items.map((b: any) => b.backupId)).reverse());
    expect(ids.length).toBeGreaterThan(2);
    await t.close();
  });

  it('ids take the seed’s form; numeric ones are JSON numbers, taken back as numbers or text', async () => {
    const seed = seedWhere((s) => idFormOf(new Draw(s), 'job') === 'number');
    const h = await harness({ clock: new FakeClock(START), shapes: `random:${seed}` });
    const sent = await h.call('send_message', { projectId: 'site_bakery', prompt: 'Add a blog page with posts' });
    const jobId = sent.body.data.jobId;
    expect(typeof jobId).toBe('number');
    expect(String(jobId)).toMatch(new RegExp(`^${idPattern('job', `random:${seed}`)}$`));
    for (const asSent of [jobId, String(jobId)])
      expect((await h.call('get_job', { projectId: 'site_bakery', jobId: asSent, cursor: 0 })).status).toBe(200);
    for (const s of [1, 2, 3, 4, 5]) {
      const form = idFormOf(new Draw(s), 'qmsg');
      expect(ID_FORMS).toContain(form);
    }
    await h.close();
  });

  it('every time format reads back as the same instant (to the second)', () => {
    const iso = '2026-11-22T12:34:56.789Z';
    for (const f of TIME_FORMATS) {
      const v = formatTime(iso, f, 330);
      expect(Math.abs(anyTime(v)! - Date.parse(iso)), `${f}: ${v}`).toBeLessThan(1000);
    }
    expect(formatTime(iso, 'isoOffset', 330)).toBe('2026-11-22T18:04:56.789+05:30');
    expect(formatTime(iso, 'rfc2822', 0)).toBe('Sun, 22 Nov 2026 12:34:56 +0000');
  });

  it('refusals keep status, message and reason; site chat error codes are spelled the seed’s way', async () => {
    const seed = seedWhere((s) => describeOf(s).chatCodes === 'prefixed');
    const h = await harness({ clock: new FakeClock(START), shapes: `random:${seed}` });
    const d = await harness({ clock: new FakeClock(START) });
    const [r, dr] = [
      await h.call('send_message', { projectId: 'site_shop', prompt: 'Add a page please now' }),
      await d.call('send_message', { projectId: 'site_shop', prompt: 'Add a page please now' }),
    ];
    expect(r.status).toBe(402);
    expect(r.body.message).toBe(dr.body.message);
    expect(r.body.data.reason).toBe(dr.body.data.reason);
    expect(r.body.data.code).toBe(`E_${dr.body.data.code.toUpperCase()}`);
    await h.close();
    await d.close();
  });

  it('over many seeds, every form of the catalogue is drawn', () => {
    const seen = new Map<string, Set<unknown>>();
    const note = (what: string, v: unknown) => {
      if (!seen.has(what)) seen.set(what, new Set());
      seen.get(what)!.add(v);
    };
    for (let s = 0; s < 400; s++) {
      const d = describeOf(s);
      note('textKey', d.events.textKey);
      note('textForm', d.events.textForm);
      note('todos', d.events.todos);
      note('files', d.events.files);
      note('before', d.states.beforeRunning);
      note('after', d.states.afterRunning);
      note('time', d.times.main);
      note('job id', d.ids.job);
      note('cancel requires the run', Boolean(d.arguments.cancel_job?.some((c: any) => c.required)));
    }
    const all = (xs: readonly unknown[]) => new Set(xs);
    expect(seen.get('textKey')).toEqual(all(TEXT_KEYS));
    expect(seen.get('textForm')).toEqual(all(TEXT_FORMS));
    expect(seen.get('todos')).toEqual(all(TODO_FORMS));
    expect(seen.get('files')).toEqual(all(FILE_FORMS));
    expect(seen.get('before')).toEqual(all([null, ...STATES_BEFORE]));
    expect(seen.get('after')).toEqual(all([null, ...STATES_AFTER]));
    expect(seen.get('time')).toEqual(all(TIME_FORMATS));
    expect(seen.get('job id')).toEqual(all(ID_FORMS));
    expect(seen.get('cancel requires the run')).toEqual(all([true, false]));
  });
});

describe('the switch', () => {
  it('random:SEED is a shapes name; other spellings are refused', () => {
    expect(parseShapesName('random:7', 'x')).toBe('random:7');
    expect(parseShapesName('random:007', 'x')).toBe('random:7');
    expect(shapesFromEnv({ SITEBUILDER_EMULATOR_SHAPES: 'random:4294967295' })).toBe('random:4294967295');
    for (const bad of ['random', 'random:', 'random:-1', 'random:x', 'random:4294967296', 'random:1.5'])
      expect(() => parseShapesName(bad, 'SITEBUILDER_EMULATOR_SHAPES'), bad).toThrow(ShapesError);
  });

  it('the control API names the seed and its choices; startEmulator takes the variable', async () => {
    const saved = process.env.SITEBUILDER_EMULATOR_SHAPES;
    process.env.SITEBUILDER_EMULATOR_SHAPES = 'random:5';
    try {
      const h = await harness({ clock: new FakeClock(START) });
      expect(h.emu.shapes).toBe('random:5');
      await h.call('list_messages', { projectId: 'site_bakery' });
      const d = (await h.control('GET', 'shapes')).body.data;
      expect(d).toMatchObject({ shapes: 'random:5', seed: 5, ids: { job: idFormOf(new Draw(5), 'job') } });
      expect(Object.keys(d)).toEqual(expect.arrayContaining(['times', 'states', 'events', 'arguments', 'moved']));
      await h.close();
    } finally {
      if (saved === undefined) delete process.env.SITEBUILDER_EMULATOR_SHAPES;
      else process.env.SITEBUILDER_EMULATOR_SHAPES = saved;
    }
  });

  it('`sitebuilder emulator --shapes random:SEED` answers in them and says so; a bad seed is a usage error', async () => {
    const io = createTestIO();
    io.stdinStream.end();
    const controller = new AbortController();
    const env = { SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-rnd-')), 'config') };
    const done = main(['emulator', '--json', '--shapes', 'random:9'], {
      io,
      env,
      clock: new FakeClock(),
      signal: controller.signal,
    });
    const line = await waitFor(() => io.stdoutText().includes('\n') && io.stdoutText().split('\n')[0], {
      what: 'the first line',
    });
    const doc = JSON.parse(line);
    expect(doc.shapes).toBe('random:9');
    const shapes = await send(doc.baseUrl, '/_emulator/shapes');
    expect(shapes.body.data.seed).toBe(9);
    controller.abort();
    expect(await done).toBe(0);
    const bad = createTestIO();
    expect(
      await main(['emulator', '--shapes', 'random:x'], { io: bad, env, signal: new AbortController().signal }),
    ).toBe(2);
    expect(bad.stderrText()).toContain('--shapes takes default, alternate or random:SEED');
  });
});
