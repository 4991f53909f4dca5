// The service model's core (src/service/): fields found under their paths or said unread with
// where they were looked for, text read in every general form, the one time parser and the one
// newest-first, and the event readers over shapes no alias list knows.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { createTestIO } from '../../src/io/io.js';
import { applyAnswer, initialRunState, outcomeOf, planOf } from '../../src/render/reducer.js';
import { TextRunView } from '../../src/render/views.js';
import { pendingOf } from '../../src/commands/shared/run/next-steps.js';
import {
  readFileEvent,
  readQuestion,
  readTextEvent,
  readTodosEvent,
  readErrorMessage,
} from '../../src/service/events.js';
import { catalogueFields, probe, probeAnswer } from '../../src/service/catalogue.js';
import { readJobAnswer } from '../../src/service/job.js';
import { describeUnread, field, isUnread, locate, readField, readRecord, resource } from '../../src/service/read.js';
import { newestFirst, parseTime } from '../../src/service/time.js';
import { asId, asWebAddress, readText } from '../../src/service/values.js';

describe('fields: found where looked for, or unread saying where', () => {
  const f = field('the address', ['url', 'links.public', '*.url', '.'], asWebAddress);

  it('takes the first path that holds a value of the type, nested and whole-value paths too', () => {
    expect(locate({ url: 'https://a.example/' }, f)).toEqual({ path: 'url', value: 'https://a.example/' });
    // A value of another type at the first path: the next is tried.
    expect(locate({ url: 'logo.png', links: { public: 'https://b.example/x' } }, f)).toEqual({
      path: 'links.public',
      value: 'https://b.example/x',
    });
    expect(locate('https://c.example/', f)).toEqual({ path: '.', value: 'https://c.example/' });
  });

  it('takes a value one level down only when every match agrees', () => {
    expect(locate({ file: { url: 'https://d.example/f' } }, f)?.value).toBe('https://d.example/f');
    expect(locate({ a: { url: 'https://d.example/1' }, b: { url: 'https://d.example/2' } }, f)).toBeUndefined();
    expect(locate({ a: { url: 'https://d.example/1' }, b: { url: 'https://d.example/1' } }, f)?.path).toBe('*.url');
  });

  it('an unread value keeps the raw value and names the paths, never a stand-in', () => {
    const raw = { fileRef: { href: 'https://e.example/' } };
    const r = readField(raw, f);
    expect(isUnread(r)).toBe(true);
    expect(r).toMatchObject({ what: 'the address', looked: ['url', 'links.public', '*.url', '.'], raw });
    expect(describeUnread(r as never, 'data.')).toBe(
      'the address: looked for data.url, data.links.public, data.*.url, data; data held an object with fileRef',
    );
  });

  it('a resource reads every field and probes where each was found (what doctor reports)', () => {
    const res = resource('thing', 'get_thing data', {
      id: field('the id', ['_id', 'id'], asId, ['_id']),
      address: f,
    });
    const r = readRecord(res, { id: 7 });
    expect(r.id).toBe('7');
    expect(isUnread(r.address)).toBe(true);
    expect(probe(res, { id: 7 })).toEqual([
      { field: 'id', what: 'the id', stated: false, looked: ['_id', 'id'], found: 'id' },
      { field: 'address', what: 'the address', stated: false, looked: f.paths, found: null },
    ]);
  });
});

describe('text, read generally', () => {
  it('reads a string, content blocks, and objects wrapping the text, in order', () => {
    expect(readText('plain')).toBe('plain');
    expect(readText([{ type: 'text', text: 'a' }, 'b', { type: 'image', source: {} }])).toBe('ab');
    expect(readText({ delta: { text: 'wrapped' } })).toBe('wrapped');
    expect(readText({ message: { content: [{ type: 'text', text: 'deep' }] } })).toBe('deep');
    expect(readText({ content: [{ type: 'output_text', value: 'v' }] })).toBe('v');
  });

  it('reads nothing where a part cannot be read: never a part shown as the whole', () => {
    expect(readText([{ type: 'text', text: 'a' }, { zz: 1 }])).toBeUndefined();
    expect(readText({ payload: 'x' })).toBe('x');
    expect(readText({ a: 'x', b: 'y' })).toBeUndefined();
    expect(readText(42)).toBeUndefined();
  });
});

describe('the one time parser and the one newest-first', () => {
  it('reads ISO-8601, epoch milliseconds and epoch seconds, as numbers or text', () => {
    expect(parseTime('2026-11-22T12:00:00.000Z')).toBe(Date.UTC(2026, 10, 22, 12));
    expect(parseTime(1_795_000_000_000)).toBe(1_795_000_000_000);
    expect(parseTime(1_795_000_000)).toBe(1_795_000_000_000);
    expect(parseTime('1795000000')).toBe(1_795_000_000_000);
    for (const v of ['yesterday', '', null, undefined, {}, -5, Number.NaN]) expect(parseTime(v)).toBeUndefined();
  });

  it('sorts only when every record shows a time, keeping the service order for ties', () => {
    const t = (r: { at?: number }) => r.at;
    expect(newestFirst([{ at: 1 }, { at: 3 }, { at: 2 }], t).records.map(t)).toEqual([3, 2, 1]);
    const tie = [
      { at: 1, n: 'a' },
      { at: 1, n: 'b' },
    ];
    expect(newestFirst(tie, t).records.map((r) => r.n)).toEqual(['a', 'b']);
    expect(newestFirst([{ at: 1 }, {}], t)).toEqual({ records: [{ at: 1 }, {}], sorted: false });
  });
});

describe('event readers over shapes no alias list knows', () => {
  it('text: any general form, else unread', () => {
    expect(readTextEvent({ text: 'a' })).toBe('a');
    expect(readTextEvent([{ type: 'text', text: 'b' }])).toBe('b');
    expect(readTextEvent({ content: [{ type: 'text', text: 'c' }] })).toBe('c');
    expect(readTextEvent({ zq_body: { md: 'found' }, type: 'chunk' })).toBe('found');
    expect(isUnread(readTextEvent({ zq_a: 'one', zq_b: 'two' }))).toBe(true);
  });

  it('todos, files and questions: read, or unread as a whole', () => {
    expect(readTodosEvent({ tasks: [{ content: { text: 'x' }, state: 'completed' }] })).toEqual([
      { key: 'x', title: 'x', status: 'done' },
    ]);
    expect(isUnread(readTodosEvent({ entries: { a: 1 } }))).toBe(true);
    expect(readTodosEvent({ list: { entries: [{ taskId: 't1', label: 'x', state: 'done' }] } })).toEqual([
      { key: 'x', title: 'x', status: 'done' },
    ]);
    expect(isUnread(readTodosEvent({ items: [{ a: 'x', b: 'y' }] }))).toBe(true);
    expect(readFileEvent({ file: 'a.html', op: 'new' }, 'file_changed')).toEqual({ path: 'a.html', op: 'added' });
    expect(isUnread(readFileEvent({ target: { p: 'a.html' } }, 'file_changed'))).toBe(true);
    const q = readQuestion({
      name: 'ask_user',
      input: { question: [{ type: 'text', text: 'Which?' }], options: [1, { label: 'B' }] },
    });
    expect(q).toEqual({ question: 'Which?', options: ['1', 'B'] });
    expect(isUnread(readQuestion({ name: 'ask_user', input: { q: 'Which?' } })?.question)).toBe(true);
    expect(readQuestion({ name: 'write_file' })).toBeUndefined();
    expect(readErrorMessage({ error: { detail: 'Broke.' } })).toBe('Broke.');
  });
});

describe('unread is said, never filled in', () => {
  const ev = (event: string, data: unknown) => ({ event, data });
  const PLAN = [ev('text', { zq_a: 'Step', zq_b: 'one' }), ev('plan_approval_requested', {})];

  it('a plan whose text cannot be read is no plan to show: pending.plan is null, said once', () => {
    const io = createTestIO();
    const view = new TextRunView(io, new FakeClock(), 'plain');
    const applied = applyAnswer(
      initialRunState('job_1'),
      readJobAnswer({ state: 'succeeded', events: [...PLAN, ev('text', { blob: 2 })] }),
    );
    view.answer(applied, []);
    const s = applied.state;
    expect(outcomeOf(s)).toBe('plan');
    expect(isUnread(planOf(s))).toBe(true);
    expect(pendingOf(s, 'site_1', 'job_1')).toMatchObject({ kind: 'plan', plan: null });
    const out = io.stdoutText();
    expect(out.match(/the service sent text sitebuilder cannot read; --json shows it/g)).toHaveLength(1);
    expect(out).toContain('plan\twaiting for approval\ttext not shown');
  });

  it('a plan run with no text at all is not shown as an empty plan either', () => {
    const s = applyAnswer(
      initialRunState('j'),
      readJobAnswer({ state: 'succeeded', events: [ev('plan_approval_requested', {})] }),
    ).state;
    expect(pendingOf(s, 'site_1', 'j')).toMatchObject({ plan: null });
  });

  it('pretty: one sentence; --debug names the field paths', () => {
    const io = createTestIO({ tty: true, columns: 100 });
    const lines: string[] = [];
    const view = new TextRunView(io, new FakeClock(), 'pretty', { debug: (l) => lines.push(l) });
    const applied = applyAnswer(initialRunState('j'), readJobAnswer({ state: 'running', events: PLAN.slice(0, 1) }));
    view.answer(applied, []);
    view.stop();
    expect(io.stdoutText()).toContain('the service sent text sitebuilder cannot read; --json shows it');
    expect(lines.join('\n')).toContain(
      'looked for data.text, data.content, data.delta, data.message, data.value, data;',
    );
  });
});

describe('the catalogue: what doctor asks the model', () => {
  it('every resource names where it comes from, and every field where it is looked for', () => {
    const fields = catalogueFields();
    expect(fields.length).toBeGreaterThan(80);
    for (const f of fields) expect(f.looked.length, `${f.resource}.${f.field}`).toBeGreaterThan(0);
    expect(fields.find((f) => f.resource === 'job' && f.field === 'state')).toMatchObject({ stated: true });
    expect(fields.find((f) => f.resource === 'message record' && f.field === 'time')).toMatchObject({
      stated: false,
      looked: expect.arrayContaining(['createdAt', 'created_at']),
    });
  });

  it('probes one answer: for each field, where it was found, or null', () => {
    const history = probeAnswer('list_messages', {
      items: [
        { created_at: 1_795_000_000, zq_body: 'x' },
        { created_at: 1_795_000_001, role: 'user' },
      ],
    });
    const of = (field: string) => history.find((p) => p.resource === 'message record' && p.field === field);
    expect(of('time')).toMatchObject({ found: 'created_at', records: 2 });
    expect(of('sender')).toMatchObject({ found: 'role' });
    expect(of('text')).toMatchObject({ found: null, looked: ['text', 'content', 'prompt', 'message'] });
    const run = probeAnswer('get_job', {
      state: 'succeeded',
      cursor: 2,
      events: [
        { event: 'text', data: { content: 'hi' } },
        { event: 'file_changed', data: { zq: { p: 'a' } } },
      ],
    });
    const ev = (field: string) => run.find((p) => p.resource === 'job event data' && p.field === field);
    expect(ev('text')).toMatchObject({ found: 'content', records: 1 });
    expect(ev('filePath')).toMatchObject({ found: null, records: 1 });
    expect(run.find((p) => p.resource === 'job' && p.field === 'state')).toMatchObject({
      found: 'state',
      stated: true,
    });
  });
});

describe('names in another case or word separation', () => {
  it('match their key when it is the only one so spelled, and are reported as found', () => {
    const f = field('the time', ['createdAt'], asId);
    expect(locate({ created_at: 'x' }, f)).toEqual({ path: 'created_at', value: 'x' });
    expect(locate({ CreatedAt: 'y' }, f)).toEqual({ path: 'CreatedAt', value: 'y' });
    expect(locate({ createdAt: 'z', created_at: 'w' }, f)?.value).toBe('z');
    expect(locate({ created_at: 'a', CREATED_AT: 'b' }, f)).toBeUndefined();
  });
});
