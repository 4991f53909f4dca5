// The pretty view's live block (docs/real-service.md "Rendering a run"): the scrollback stays
// append-only and one block at the bottom holds the task list and the spinner. Every test plays
// the bytes the CLI wrote (stdout and stderr, in order, resizes included) into a small terminal
// emulator (test/helpers/terminal.ts) and reads what a person would see: the block where it
// belongs, each line once, no stale copy of a block at any width down to 40 columns and below.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { type Clock, FakeClock } from '../../src/clock.js';
import { applyAnswer, initialRunState, type RunState } from '../../src/render/reducer.js';
import { createRunView } from '../../src/render/views.js';
import { todoBlock } from '../../src/render/format.js';
import type { RunView } from '../../src/render/run-view.js';
import { terminalIO, VirtualTerminal } from '../helpers/terminal.js';
import { readJobAnswer } from '../../src/service/job.js';

/** A get_job answer as the service sends it, read by the model, applied. */
const apply = (s: Parameters<typeof applyAnswer>[0], raw: unknown) => applyAnswer(s, readJobAnswer(raw));

const ev = (event: string, data: unknown) => ({ event, data });
const todos = (...statuses: string[]) =>
  ev('todos', {
    items: statuses.map((status, i) => ({
      id: `t${i}`,
      title: `Write the ${['home', 'about', 'contact'][i]} page`,
      status,
    })),
  });
const LONG =
  'I will update Sunrise Bakery with an about page that tells the story of the family, and a contact page with a map.\n';

/** Three answers of a run: text, a task list that changes, steps and file changes; then its end. */
const ANSWERS = [
  [ev('text', { text: LONG }), todos('in_progress', 'pending', 'pending')],
  [
    ev('tool_call', { id: 'c1', name: 'write_file', input: { path: 'index.html' } }),
    ev('file_changed', { path: 'index.html', action: 'modified' }),
    todos('done', 'in_progress', 'pending'),
    ev('credits_used', { credits: 2 }),
  ],
  [
    ev('tool_call', { id: 'c2', name: 'write_file', input: { path: 'about.html' } }),
    ev('file_changed', { path: 'about.html', action: 'created' }),
    todos('done', 'done', 'in_progress'),
    ev('text', { text: 'The about page is written; now the contact page.\n' }),
  ],
];
const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;

interface Followed {
  view: RunView;
  state: RunState;
  clock: FakeClock;
}

/** Begins a view and feeds it `n` answers, each played back over a 3 s wait. */
async function follow(
  io: ReturnType<typeof terminalIO>['io'],
  n: number,
  clock = new FakeClock(),
  sleep?: Clock,
): Promise<Followed> {
  const view = createRunView(io, sleep ?? clock, 'pretty');
  await view.begin('site_bakery', 'job_1');
  let state = initialRunState('job_1');
  for (const events of ANSWERS.slice(0, n)) {
    const applied = apply(state, { state: 'running', events });
    state = applied.state;
    view.answer(applied, events);
    await view.play?.(clock.now() + 3000);
  }
  return { view, state, clock };
}

function finish({ view, state, clock }: Followed): void {
  const applied = apply(state, { state: 'succeeded', events: [], creditsCharged: 4 });
  view.answer(applied, []);
  view.stop();
  view.end({ state: applied.state, outcome: 'succeeded', exitCode: 0, elapsedMs: clock.now(), runMs: 9000 });
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
/** The transcript the three answers print: text, steps, file changes (the task list is the block's). */
const TRANSCRIPT = squash(
  `${LONG} › write_file index.html ~ index.html › write_file about.html + about.html The about page is written; now the contact page.`,
);

const count = (lines: string[], test: RegExp) => lines.filter((l) => test.test(l)).length;

describe.each([80, 40, 25])('the live block at %i columns', (columns) => {
  it('holds the task list above the spinner, updated in place, below an append-only transcript', async () => {
    const t = terminalIO({ columns });
    const f = await follow(t.io, 2);
    const vt = t.terminal();
    const lines = vt.lines();
    const screen = vt.screen();
    // The bottom of the screen: the task list as it is now, then the spinner with the credits.
    expect(screen.slice(-5, -1)).toEqual(
      ['Tasks 1/3', '  ✓ Write the home page', '  ▸ Write the about page', '  ○ Write the contact page'].map((l) =>
        l.slice(0, columns - 1),
      ),
    );
    expect(screen.at(-1)).toMatch(/^. The agent is work/);
    if (columns >= 40) expect(screen.at(-1)).toMatch(/^. The agent is working \d+s · 2 credits$/);
    // Each row fits: nothing the terminal had to wrap.
    for (const l of lines) expect(l.length).toBeLessThan(columns);
    // One block, no stale copy of it or of the spinner anywhere in the scrollback.
    expect(count(lines, /^Tasks/)).toBe(1);
    expect(count(lines, SPINNER)).toBe(1);
    expect(count(lines, /✓ Write the home page/)).toBe(1);
    // The transcript above it: the text played back whole, the step and the file change.
    const text = lines.slice(0, lines.indexOf('Tasks 1/3'));
    expect(text.join(' ')).toBe(`${LONG.trim()} › write_file index.html ~ index.html`);
    const third = apply(f.state, { state: 'running', events: ANSWERS[2] });
    f.view.answer(third, ANSWERS[2]);
    await f.view.play?.(f.clock.now() + 3000);
    f.state = third.state;
    expect(t.terminal().screen().slice(-5, -1)).toEqual(
      ['Tasks 2/3', '  ✓ Write the home page', '  ✓ Write the about page', '  ▸ Write the contact page'].map((l) =>
        l.slice(0, columns - 1),
      ),
    );
    finish(f);
    const after = t.terminal();
    // At the end, the task list as it ended goes to the scrollback once; no spinner is left.
    expect(count(after.lines(), SPINNER)).toBe(0);
    expect(count(after.lines(), /^Tasks/)).toBe(1);
    const logical = after.logicalLines();
    expect(logical.slice(-5)).toEqual([
      'Tasks',
      '  ✓ Write the home page',
      '  ✓ Write the about page',
      '  ▸ Write the contact page',
      '✓ Done in 9s · 4 credits',
    ]);
    expect(squash(logical.slice(0, -5).join(' '))).toBe(TRANSCRIPT);
  });

  it.each([
    [40, 100],
    [30, 80],
    [60, 24],
  ])(
    'follows resizes during the run (to %i, then %i columns): the block redrawn at the new width, no stale copies',
    async (a, b) => {
      const t = terminalIO({ columns });
      const clock = new FakeClock();
      // The window is resized while the long first line plays, then while the third answer plays.
      let sleeps = 0;
      const resizing: Clock = {
        now: () => clock.now(),
        sleep: async (ms, signal) => {
          sleeps++;
          if (sleeps === 3) t.resize(a);
          if (sleeps === 26) t.resize(b);
          return clock.sleep(ms, signal);
        },
      };
      const f = await follow(t.io, 3, clock, resizing);
      expect(sleeps).toBeGreaterThan(26);
      const vt = t.terminal();
      const lines = vt.lines();
      expect(count(lines, /^Tasks/)).toBe(1);
      expect(count(lines, SPINNER)).toBe(1);
      expect(vt.screen().slice(-3, -1)).toEqual(
        ['  ✓ Write the about page', '  ▸ Write the contact page'].map((l) => l.slice(0, b - 1)),
      );
      expect(vt.screen().at(-1)).toMatch(
        b >= 40 ? /^. The agent is working \d+s · 2 credits$/ : /^. The agent is work/,
      );
      for (const l of vt.screen().slice(-4)) expect(l.length).toBeLessThan(b);
      // Every word once, in order, whatever rows the line being played at the resize ended in.
      const logical = vt.logicalLines();
      expect(squash(logical.slice(0, logical.indexOf('Tasks 2/3')).join(' '))).toBe(TRANSCRIPT);
      finish(f);
      const after = t.terminal();
      expect(count(after.lines(), SPINNER)).toBe(0);
      expect(count(after.lines(), /^Tasks/)).toBe(1);
      expect(squash(after.logicalLines().slice(0, -5).join(' '))).toBe(TRANSCRIPT);
    },
  );
});

describe('where the terminal cannot redraw, lines are appended', () => {
  const noMoves = (bytes: string) => {
    expect(bytes).not.toMatch(/\u001b\[\d*[AJK]/);
    expect(bytes).not.toContain('\r');
  };

  it.each([
    ['TERM=dumb', { columns: 80, dumb: true }],
    ['under 20 columns', { columns: 15 }],
    ['a size of 0', { columns: 0 }],
    ['an absurd size', { columns: 100_000 }],
  ])(
    '%s: the task list and each change of it as lines, the spinner’s labels as lines, no cursor movement',
    async (_what, o) => {
      const t = terminalIO(o);
      const f = await follow(t.io, 3);
      finish(f);
      const bytes = t.bytes();
      noMoves(bytes);
      const lines = bytes.split('\n');
      expect(count(lines, /^Tasks$/)).toBe(1);
      expect(lines).toContain('  ✓ Write the home page');
      expect(lines).toContain('  ✓ Write the about page');
      // Under 20 columns the label wraps like any prose on stderr: counted by its first words.
      expect(count(lines, /The agent is/)).toBe(1);
      // The end line too, as a sentence: read with its wrapping undone.
      expect(
        bytes
          .trimEnd()
          .split(/\n(?=\S)/)
          .at(-1)
          ?.replace(/\n\s+/g, ' '),
      ).toBe('✓ Done in 9s · 4 credits');
    },
  );
});

describe('the task list of the block', () => {
  const list = (n: number, done: number) =>
    Array.from({ length: n }, (_, i) => ({
      key: `t${i}`,
      title: `Task ${i + 1}`,
      status: i < done ? ('done' as const) : i === done ? ('in_progress' as const) : ('pending' as const),
    }));
  const c = new Chalk({ level: 0 });

  it('fits the room it is given, from the last task done on, and counts what it leaves out', () => {
    expect(todoBlock(list(3, 1), c, 12)).toEqual(['Tasks 1/3', '  ✓ Task 1', '  ▸ Task 2', '  ○ Task 3']);
    const long = todoBlock(list(15, 5), c, 12);
    expect(long).toHaveLength(12);
    expect(long.slice(0, 3)).toEqual(['Tasks 5/15', '  ✓ Task 5', '  ▸ Task 6']);
    expect(long.at(-1)).toBe('  … 4 done, 1 more');
    const nearEnd = todoBlock(list(12, 11), c, 8);
    expect(nearEnd).toEqual([
      'Tasks 11/12',
      ...[7, 8, 9, 10, 11].map((i) => `  ✓ Task ${i}`),
      '  ▸ Task 12',
      '  … 6 done',
    ]);
    expect(todoBlock(list(20, 0), c, 4)).toEqual(['Tasks 0/20', '  ▸ Task 1', '  ○ Task 2', '  … 18 more']);
  });
});

describe('IO.liveBlock', () => {
  it('keeps what is written above the block, cuts long lines, and never draws more rows than the terminal has', () => {
    const t = terminalIO({ columns: 40, rows: 6 });
    t.io.liveBlock(['one', 'two', 'x'.repeat(100), 'four', 'five', 'six', 'seven']);
    t.io.outLine('a line of text');
    t.io.liveBlock(['only', 'two now']);
    t.io.errLine('a line on stderr');
    const vt = t.terminal();
    expect(vt.lines()).toEqual(['a line of text', 'a line on stderr', 'only', 'two now']);
    t.io.liveBlock(['one', 'two', 'x'.repeat(100), 'four', 'five', 'six', 'seven']);
    // Six rows: the last five lines of the block, each cut to 39 columns.
    expect(t.terminal().screen()).toEqual(['a line on stderr', 'x'.repeat(39), 'four', 'five', 'six', 'seven']);
    t.io.liveBlock(undefined);
    expect(t.terminal().lines()).toEqual(['a line of text', 'a line on stderr']);
  });

  it('keeps room on its last row for the ^C a terminal echoes there: no copy of the block is left behind', () => {
    const t = terminalIO({ columns: 40, rows: 4 });
    t.io.errLine('a');
    t.io.errLine('b');
    t.io.liveBlock(['first', 'y'.repeat(100)]);
    expect(t.terminal().screen().at(-1)).toBe('y'.repeat(37));
    // Ctrl-C: the terminal echoes ^C at the cursor, then the process erases the block.
    t.io.stderr.write('^C');
    t.io.liveBlock(undefined);
    t.io.errLine('after');
    expect(t.terminal().lines()).toEqual(['a', 'b', 'after']);
  });

  it('a change of the last row alone (a spinner’s tick) redraws that row alone', () => {
    const t = terminalIO({ columns: 40 });
    t.io.liveBlock(['Tasks 0/2', '  ○ one', '⠋ working 1s']);
    const before = t.bytes().length;
    t.io.liveBlock(['Tasks 0/2', '  ○ one', '⠙ working 2s']);
    expect(t.bytes().slice(before)).toBe('\r\u001b[2K⠙ working 2s');
    t.io.liveBlock(['Tasks 1/2', '  ✓ one', '⠹ working 3s']);
    expect(t.terminal().lines()).toEqual(['Tasks 1/2', '  ✓ one', '⠹ working 3s']);
  });

  it('clears the rows a narrower terminal wrapped its lines onto', () => {
    const t = terminalIO({ columns: 80 });
    t.io.outLine('before');
    t.io.liveBlock(['a'.repeat(70), 'b'.repeat(70), 'spinner']);
    t.resize(30);
    expect(t.terminal().lines()).toEqual(['before', 'a'.repeat(29), 'b'.repeat(29), 'spinner']);
    t.io.liveBlock(undefined);
    t.io.outLine('after');
    expect(t.terminal().lines()).toEqual(['before', 'after']);
  });

  it('the terminal emulator of these tests wraps, rewraps and clears as a terminal does', () => {
    const vt = new VirtualTerminal(10, 4);
    vt.write('0123456789abc\nnext\r\u001b[2Kover');
    expect(vt.lines()).toEqual(['0123456789', 'abc', 'over']);
    vt.resize(5);
    expect(vt.lines()).toEqual(['01234', '56789', 'abc', 'over']);
    vt.write('\u001b[1A\r\u001b[2K');
    expect(vt.lines()).toEqual(['01234', '56789', '', 'over']);
    expect(() => vt.write('\u001b[5C')).toThrow(/unexpected escape/);
  });
});
