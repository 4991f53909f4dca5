import { describe, expect, it } from 'vitest';
import { applyAnswer, initialRunState, outcomeOf, creditsOfRun } from '../../src/render/reducer.js';
import { asEvent } from '../../src/service/events.js';
import { REWRITE_ROW } from '../../src/io/live-block.js';
import { wrapRows } from '../../src/render/playback.js';
import { createRunView, TextRunView } from '../../src/render/views.js';
import { createTestIO } from '../../src/io/io.js';
import { FakeClock } from '../../src/clock.js';
import { readJobAnswer } from '../../src/service/job.js';

/** A get_job answer as the service sends it, read by the model, applied. */
const apply = (s: Parameters<typeof applyAnswer>[0], raw: unknown) => applyAnswer(s, readJobAnswer(raw));

const ev = (event: string, data: unknown) => ({ event, data });
const EVENTS = [
  ev('text', { text: 'Hello, I will build ' }),
  ev('text', { text: 'a bakery site.\nFirst ' }),
  ev('todos', {
    items: [
      { id: 't1', title: 'Layout', status: 'in_progress' },
      { id: 't2', title: 'Styles', status: 'pending' },
    ],
  }),
  ev('tool_call', { id: 'c1', name: 'write_file', input: { path: 'index.html' } }),
  ev('tool_result', { id: 'c1', ok: true, summary: 'wrote 1.2 kB' }),
  ev('file_changed', { path: 'index.html', action: 'created' }),
  ev('text', { text: 'the layout.\n' }),
  ev('todos', {
    items: [
      { id: 't1', title: 'Layout', status: 'done' },
      { id: 't2', title: 'Styles', status: 'in_progress' },
    ],
  }),
  ev('file_changed', { path: 'styles.css', action: 'modified' }),
  ev('file_deleted', { path: 'old.html' }),
  ev('mystery_kind', { foo: 1 }),
  ev('todos', {
    items: [
      { id: 't1', title: 'Layout', status: 'done' },
      { id: 't2', title: 'Styles', status: 'done' },
    ],
  }),
  ev('credits_used', { credits: 3 }),
  ev('text', { text: 'All done' }),
];

/** Feeds the events in chunks of the given sizes through a plain view; returns stdout. */
function transcript(chunks: number[], opts: { resetAfter?: number } = {}): string {
  const io = createTestIO();
  const view = new TextRunView(io, new FakeClock(), 'plain');
  let state = initialRunState('job_1');
  let i = 0;
  let cursor = 0;
  const feed = (answer: { events: unknown[] } & Record<string, unknown>) => {
    const applied = apply(state, answer);
    state = applied.state;
    view.answer(applied, answer.events as unknown[]);
  };
  for (const n of chunks) {
    const events = EVENTS.slice(i, i + n);
    i += n;
    cursor += events.length;
    feed({ state: 'running', events, cursor });
    if (opts.resetAfter !== undefined && i >= opts.resetAfter) {
      // The service replays the whole run so far with reset true.
      feed({ state: 'running', events: EVENTS.slice(0, i), cursor: cursor + i, reset: true });
      cursor += i;
      opts.resetAfter = undefined;
    }
  }
  feed({ state: 'succeeded', events: EVENTS.slice(i), cursor: cursor + EVENTS.length - i, creditsCharged: 3 });
  view.end({ state, outcome: outcomeOf(state), exitCode: 0, elapsedMs: 1000 });
  return io.stdoutText();
}

describe('reducer', () => {
  it('derives text, todos, files, credits and the outcome', () => {
    const { state } = apply(initialRunState('j'), {
      state: 'succeeded',
      events: EVENTS,
      cursor: EVENTS.length,
      creditsCharged: 3,
    });
    expect(state.text).toBe('Hello, I will build a bakery site.\nFirst the layout.\nAll done');
    expect(state.todos.map((t) => t.status)).toEqual(['done', 'done']);
    expect(state.files).toEqual([
      { path: 'index.html', op: 'added' },
      { path: 'styles.css', op: 'changed' },
      { path: 'old.html', op: 'deleted' },
    ]);
    expect(state.creditsUsed).toBe(3);
    expect(creditsOfRun(state)).toBe(3);
    expect(outcomeOf(state)).toBe('succeeded');
  });

  it('a reset drops what was derived, so a replay never doubles counts', () => {
    let s = apply(initialRunState('j'), { state: 'running', events: EVENTS.slice(0, 10), cursor: 10 }).state;
    s = apply(s, { state: 'running', events: EVENTS.slice(0, 10), cursor: 20, reset: true }).state;
    s = apply(s, { state: 'succeeded', events: EVENTS.slice(10), cursor: 24 }).state;
    expect(s.files).toHaveLength(3);
    expect(s.creditsUsed).toBe(3);
    expect(s.text.match(/Hello/g)).toHaveLength(1);
    expect(s.resets).toBe(1);
  });

  it('recognizes an ask_user question and a plan', () => {
    const q = apply(initialRunState(), {
      state: 'succeeded',
      events: [
        ev('tool_call', { name: 'ask_user', input: { question: 'Which?', options: ['a', 'b', 'c', 'd', 'e'] } }),
      ],
    }).state;
    expect(outcomeOf(q)).toBe('question');
    expect(q.question).toEqual({ question: 'Which?', options: ['a', 'b', 'c', 'd'] });
    const p = apply(initialRunState(), {
      state: 'succeeded',
      events: [ev('text', { text: 'Plan: x' }), ev('plan_approval_requested', {})],
    }).state;
    expect(outcomeOf(p)).toBe('plan');
    expect(
      apply(initialRunState(), { state: 'failed', events: [ev('error', { message: 'boom' })] }).state.errors,
    ).toEqual(['boom']);
  });

  it('never crashes on odd shapes', () => {
    const odd = [
      null,
      3,
      'x',
      { event: 'text', data: { content: 'via content' } },
      // Its kind under another name than the stated `event`: an event of a kind not known.
      { kind: 'text', content: 'not text' },
      { event: 'text' },
      { event: 'file_changed', data: 'a.txt' },
      { event: 'todos', data: ['one', 'two'] },
    ];
    const { state } = apply(initialRunState(), { state: 'running', events: odd, cursor: 'nope' });
    expect(state.text).toBe('via content');
    expect(state.files).toEqual([{ path: 'a.txt', op: 'changed' }]);
    expect(state.todos.map((t) => t.title)).toEqual(['one', 'two']);
    expect(state.cursor).toBe(odd.length);
    expect(asEvent(null).event).toBe('unknown');
  });
});

describe('transcript', () => {
  it('prints the same transcript whatever the chunking', () => {
    const whole = transcript([EVENTS.length]);
    for (const chunks of [
      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
      [2, 5, 7],
      [3, 0, 0, 11],
      [13, 1],
    ]) {
      expect(transcript(chunks)).toBe(whole);
    }
    expect(whole).toMatchInlineSnapshot(`
      "text	Hello, I will build a bakery site.
      text	First
      todo	in_progress	Layout
      todo	pending	Styles
      step	write_file	index.html
      result	ok	wrote 1.2 kB
      file	+	index.html
      text	the layout.
      todo	done	Layout
      todo	in_progress	Styles
      file	~	styles.css
      file	-	old.html
      event	mystery_kind	{"foo":1}
      todo	done	Styles
      text	All done
      end	succeeded	exit=0	credits=3
      "
    `);
  });

  it('a replay after a reset prints nothing twice', () => {
    const whole = transcript([EVENTS.length]);
    expect(transcript([4, 4, 6], { resetAfter: 8 })).toBe(whole);
    expect(transcript([1, 13], { resetAfter: 1 })).toBe(whole);
  });

  it('a reset that changes the output prints a note, then the new lines', () => {
    const io = createTestIO();
    const view = new TextRunView(io, new FakeClock(), 'plain');
    let s = initialRunState('j');
    const feed = (a: { events: unknown[] } & Record<string, unknown>) => {
      const applied = apply(s, a);
      s = applied.state;
      view.answer(applied, a.events as unknown[]);
    };
    feed({ state: 'running', events: [ev('text', { text: 'one\ntwo\n' })], cursor: 1 });
    feed({ state: 'running', events: [ev('text', { text: 'one\nTWO\n' })], cursor: 2, reset: true });
    expect(io.stdoutText()).toBe(
      'text\tone\ntext\ttwo\nnote\tThe agent replaced its earlier output; what follows is new.\ntext\tTWO\n',
    );
  });

  it('strips terminal control sequences from agent text, even split across pieces', () => {
    const io = createTestIO({ tty: true });
    const view = createRunView(io, new FakeClock(), 'pretty');
    const events = [
      ev('text', { text: 'safe \u001b]52;c;aGVsbG8=\u0007text \u001b[' }),
      ev('text', { text: '2Jend\r\n' }),
      ev('file_changed', { path: '\u001b[31mevil.html' }),
    ];
    const applied = apply(initialRunState(), { state: 'running', events });
    view.answer(applied, events);
    // pretty holds an answer's lines for playback until the next answer, the end, or stop.
    view.stop();
    const out = io.stdoutText();
    expect(out).not.toMatch(/\u001b|\u0007|\r/);
    expect(out).toContain('safe text');
    expect(out).toContain('evil.html');
  });

  it('pretty: a failed run says its message once, in any chunking; a failed step the run survives stays', () => {
    const events = [
      ev('tool_call', { id: 'c1', name: 'write_file', input: { path: 'a.html' } }),
      ev('tool_result', { id: 'c1', ok: false, error: 'Disk full.' }),
      ev('tool_call', { id: 'c2', name: 'write_file', input: { path: 'b.html' } }),
      ev('tool_result', { id: 'c2', ok: false, error: 'Template broken.' }),
      ev('error', { code: 'x', message: 'The agent could not finish: template broken.' }),
    ];
    const run = (chunks: number[]) => {
      const io = createTestIO({ tty: true });
      const view = new TextRunView(io, new FakeClock(), 'pretty');
      let s = initialRunState('j');
      let i = 0;
      for (const n of chunks) {
        const part = events.slice(i, (i += n));
        const applied = apply(s, { state: i === events.length ? 'failed' : 'running', events: part });
        s = applied.state;
        view.answer(applied, part);
      }
      view.end({ state: s, outcome: 'failed', exitCode: 6, elapsedMs: 4000, runMs: 4000 });
      return io.stdoutText();
    };
    const whole = run([5]);
    expect(whole).toBe(
      '› write_file a.html\n  ✗ Disk full.\n› write_file b.html\n✗ The agent could not finish: template broken.\n✗ Failed in 4s\n',
    );
    expect(run([4, 1])).toBe(whole);
    expect(run([1, 1, 1, 1, 1])).toBe(whole);
  });

  it('json view passes events through unchanged and ends with one end line', () => {
    const io = createTestIO();
    io.json = true;
    const view = createRunView(io, new FakeClock());
    const events = [...EVENTS.slice(0, 3), { event: 'brand_new', data: { x: [1] }, extra: true }];
    void view.begin('site_1', 'job_1');
    const applied = apply(initialRunState('job_1'), { state: 'succeeded', events, creditsCharged: 2 });
    view.answer(applied, events);
    view.end({ state: applied.state, outcome: 'succeeded', exitCode: 0, elapsedMs: 5 });
    const lines = io
      .stdoutText()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ type: 'start', projectId: 'site_1', jobId: 'job_1' });
    expect(lines.slice(1, 5)).toEqual(events);
    expect(lines.filter((l) => l.type === 'end')).toHaveLength(1);
    expect(lines.at(-1)).toMatchObject({
      type: 'end',
      state: 'succeeded',
      exitCode: 0,
      creditsCharged: 2,
      error: null,
      pending: null,
    });
  });
});

describe('tolerant readers of the shapes the service does not show', () => {
  it('file_changed: added, changed or deleted under any of the obvious names', () => {
    const op = (data: unknown) => apply(initialRunState(), { events: [ev('file_changed', data)] }).state.files;
    expect(op({ filePath: 'a.html', changeType: 'created' })).toEqual([{ path: 'a.html', op: 'added' }]);
    expect(op({ path: 'a.html', action: 'created' })).toEqual([{ path: 'a.html', op: 'added' }]);
    expect(op({ file: 'a.html', kind: 'new' })).toEqual([{ path: 'a.html', op: 'added' }]);
    expect(op({ filePath: 'b.html', changeType: 'modified' })).toEqual([{ path: 'b.html', op: 'changed' }]);
    expect(op({ fileName: 'c.html', operation: 'removed' })).toEqual([{ path: 'c.html', op: 'deleted' }]);
    expect(op({ path: 'd.html', changeType: 'renamed' })).toEqual([{ path: 'd.html', op: 'changed' }]);
  });

  it('the end line of a failed run: code and message read from either shape, and the object as sent', () => {
    const end = (error: unknown) => {
      const io = createTestIO();
      io.json = true;
      const view = createRunView(io, new FakeClock());
      const { state } = apply(initialRunState('j'), { state: 'failed', error, events: [] });
      view.end({ state, outcome: 'failed', exitCode: 6, elapsedMs: 1 });
      return JSON.parse(io.stdoutText().trim().split('\n').at(-1)!).error;
    };
    expect(end({ code: 'agent_build_failed', message: 'Broke.' })).toEqual({
      code: 'agent_build_failed',
      message: 'Broke.',
      raw: { code: 'agent_build_failed', message: 'Broke.' },
    });
    const alt = { type: 'agent_build_failed', detail: 'Broke.', __v: 0 };
    expect(end(alt)).toEqual({ code: 'agent_build_failed', message: 'Broke.', raw: alt });
    // Nothing read is nothing said: null, never a sentence made up as the service's.
    expect(end(undefined)).toEqual({ code: null, message: null, raw: null });
  });
});

/** What a terminal shows after these bytes, given the playback's only cursor move (REWRITE_ROW). */
function screenOf(out: string): string[] {
  const rows: string[] = [];
  out.split(REWRITE_ROW).forEach((part, i) => {
    if (i > 0) rows.pop();
    rows.push(...part.split('\n').slice(0, -1));
  });
  return rows;
}

describe('pretty playback', () => {
  const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ');
  const textAnswer = (s: ReturnType<typeof initialRunState>, lines: string[], extra: unknown[] = []) =>
    apply(s, { state: 'running', events: [...lines.map((l) => ev('text', { text: `${l}\n` })), ...extra] });

  it('plays one answer word by word over the wait, never past it, and ends showing exactly the lines', async () => {
    const clock = new FakeClock();
    const io = createTestIO({ tty: true, columns: 100 });
    const view = new TextRunView(io, clock, 'pretty');
    const applied = textAnswer(
      initialRunState('j'),
      [words(10), words(5, 10)],
      [ev('file_changed', { path: 'a.html', action: 'created' })],
    );
    view.answer(applied, []);
    expect(io.stdoutText()).toBe('');
    const t0 = clock.now();
    await view.play(t0 + 3000);
    const out = io.stdoutText();
    expect(screenOf(out)).toEqual([words(10), words(5, 10), '+ a.html']);
    // One write a word: the row grows by a word each time.
    expect(out.split(REWRITE_ROW)).toHaveLength(15 - 2 + 1);
    expect(clock.now() - t0).toBeLessThanOrEqual(3000 * 0.9);
    expect(clock.sleeps.length).toBeGreaterThanOrEqual(13);
  });

  it('shows several words a step when there are many, and everything by the next poll', async () => {
    const clock = new FakeClock();
    const io = createTestIO({ tty: true, columns: 100 });
    const view = new TextRunView(io, clock, 'pretty');
    view.answer(textAnswer(initialRunState('j'), [words(12), words(12, 12), words(12, 24)]), []);
    const t0 = clock.now();
    await view.play(t0 + 500);
    expect(clock.now() - t0).toBeLessThanOrEqual(500);
    expect(Math.min(...clock.sleeps)).toBeGreaterThanOrEqual(40);
    expect(screenOf(io.stdoutText())).toEqual([words(12), words(12, 12), words(12, 24)]);
  });

  it('the next answer prints what is left of the last one at once, first', async () => {
    const clock = new FakeClock();
    const io = createTestIO({ tty: true, columns: 100 });
    const view = new TextRunView(io, clock, 'pretty');
    let applied = textAnswer(initialRunState('j'), [words(8)]);
    view.answer(applied, []);
    const stop = new AbortController();
    const sleep = clock.sleep.bind(clock);
    let n = 0;
    clock.sleep = async (ms, signal) => {
      if (++n === 3) stop.abort(); // Ctrl-C, or the wait ended: the playback stops
      return sleep(ms, signal);
    };
    await view.play(clock.now() + 3000, stop.signal);
    applied = textAnswer(applied.state, [words(3, 8)]);
    view.answer(applied, []);
    view.end({ state: applied.state, outcome: 'succeeded', exitCode: 0, elapsedMs: 1 });
    expect(screenOf(io.stdoutText()).slice(0, 2)).toEqual([words(8), words(3, 8)]);
  });

  it('cuts a long line into rows that fit the terminal, counting wide characters twice', async () => {
    expect(wrapRows('aaa bbb ccc ddd', 8)).toEqual(['aaa bbb', 'ccc ddd']);
    expect(wrapRows('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapRows('日本語 の 文章', 7)).toEqual(['日本語', 'の 文章']);
    expect(wrapRows('', 10)).toEqual(['']);
    const clock = new FakeClock();
    const io = createTestIO({ tty: true, columns: 30 });
    const view = new TextRunView(io, clock, 'pretty');
    view.answer(textAnswer(initialRunState('j'), [words(20)]), []);
    await view.play(clock.now() + 3000);
    const rows = screenOf(io.stdoutText());
    expect(rows.join(' ')).toBe(words(20));
    for (const r of rows) expect(r.length).toBeLessThan(30);
    // Printed at once (the next answer, the end), a line is cut into the same rows.
    const flushed = createTestIO({ tty: true, columns: 30 });
    const at0 = new TextRunView(flushed, clock, 'pretty');
    const applied = textAnswer(initialRunState('j'), [words(20)]);
    at0.answer(applied, []);
    at0.stop();
    expect(flushed.stdoutText().split('\n').slice(0, -1)).toEqual(rows);
  });

  it('where the terminal cannot redraw, plays whole lines with no cursor movement', async () => {
    const clock = new FakeClock();
    const io = createTestIO({ tty: true, columns: 100 });
    const view = createRunView(io, clock, 'pretty', { redraw: false });
    view.answer(textAnswer(initialRunState('j'), [words(4), words(4, 4)]), []);
    await view.play?.(clock.now() + 3000);
    expect(io.stdoutText()).toBe(`${words(4)}\n${words(4, 4)}\n`);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('plain and NDJSON print each answer at once and have nothing to play', () => {
    const io = createTestIO();
    const plain = createRunView(io, new FakeClock());
    plain.answer(textAnswer(initialRunState('j'), ['hello there']), []);
    expect(io.stdoutText()).toBe('text\thello there\n');
    const json = createTestIO();
    json.json = true;
    expect(createRunView(json, new FakeClock()).play).toBeUndefined();
  });
});
