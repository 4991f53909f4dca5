// The agent's Markdown on a terminal (docs/real-service.md "Markdown"): rendered at 80, 60 and 40
// columns with no raw marker and nothing past the edge; streamed in any chunking to the same
// screen (the events played into a small terminal emulator, test/helpers/terminal.ts); piped and
// NDJSON output keeping the raw text; the sanitizer keeping our hyperlinks and none of the
// service's; long texts rendered a part at a time.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { scriptRun } from '../../src/emulator/domains/chat/agent/script.js';
import { readBrief } from '../../src/emulator/domains/chat/agent/brief.js';
import { cutPieces } from '../../src/emulator/domains/chat/agent/timeline.js';
import { createTestIO } from '../../src/io/io.js';
import { forTerminal } from '../../src/io/sanitize.js';
import { displayWidth } from '../../src/io/width.js';
import { hyperlink, supportsHyperlinks } from '../../src/render/markdown/hyperlinks.js';
import {
  MarkdownStream,
  PLAIN_THEME,
  renderMarkdown,
  renderMarkdownAsync,
  renderInline,
} from '../../src/render/markdown/index.js';
import { withoutOpenMarkers } from '../../src/render/markdown/stream.js';
import { splitParts } from '../../src/render/markdown/split.js';
import { wrapRows } from '../../src/render/playback.js';
import { applyAnswer, initialRunState, type RunState } from '../../src/render/reducer.js';
import { readJobAnswer } from '../../src/service/job.js';
import { createRunView } from '../../src/render/views.js';
import { terminalIO } from '../helpers/terminal.js';

type Ev = { event: string; data: Record<string, unknown> };

/** The events of the scripted agent's plan for a prompt on a site with a home page. */
function planEvents(prompt: string): Ev[] {
  const run = scriptRun({
    prompt,
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

const PLAN = planEvents('Add an about page, a team page and a contact page');
const RESTYLE = planEvents('Make it blue and dark, and add a gallery page');
const textOf = (events: Ev[]) =>
  events
    .filter((e) => e.event === 'text')
    .map((e) => e.data.text as string)
    .join('');

/** Lines a person sees that are wider than the terminal's last column and more than one word (a word alone may be folded whole). */
const tooWide = (lines: string[], width: number) =>
  lines.filter((l) => displayWidth(l.trimEnd()) > width && /\S\s+\S/.test(l.trim()));

function expectRendered(lines: string[], width: number): void {
  expect(tooWide(lines, width), lines.join('\n')).toEqual([]);
  for (const l of lines) {
    expect(l).not.toMatch(/\*\*|^\s*#{1,6}\s|```|^\s*\|.*\|\s*$/);
  }
}

describe('rendering a plan', () => {
  it.each([80, 60, 40])('at %i columns: no raw marker, nothing past the edge, numbered lines hang', (columns) => {
    for (const events of [PLAN, RESTYLE]) {
      const rows = renderMarkdown(textOf(events), columns - 1, PLAIN_THEME);
      expectRendered(rows, columns - 1);
      const text = rows.join('\n');
      expect(text).toContain('Here is my plan');
      // A numbered step that wraps goes on under its text, not under its number.
      const step = rows.findIndex((r) => /^1\. /.test(r));
      expect(step).toBeGreaterThanOrEqual(0);
      for (const r of rows.slice(
        step + 1,
        rows.findIndex((x, i) => i > step && /^2\. /.test(x)),
      ))
        expect(r).toMatch(/^ {3,}\S/);
      // The table's files, the code block behind its bar, the closing sentence.
      expect(text).toMatch(/index\.html/);
      expect(rows.some((r) => /^│ /.test(r))).toBe(true);
      expect(text.replace(/\s+/g, ' ')).toContain('Nothing was changed yet. Approve the plan to build it');
    }
  });

  it('keeps a period with its word: a wrapped line never leaves punctuation alone on a row', () => {
    const rows = renderMarkdown(`${'word '.repeat(15)}end.`, 79, PLAIN_THEME);
    expect(rows.every((r) => !/^\s*[.,;:]/.test(r))).toBe(true);
  });

  it('lays a table out as the other tables, and as blocks below their minimum', () => {
    const table =
      '| Page | File | Why |\n| --- | --- | --- |\n| About | `about.html` | the story of the family that bakes |\n';
    const wide = renderMarkdown(table, 79, PLAIN_THEME);
    expect(wide[0]).toMatch(/^Page {2,}File {2,}Why$/);
    expect(wide[1]).toMatch(/^─+$/);
    expect(wide[2]).toMatch(/^About {2,}about\.html {2,}the story/);
    const narrow = renderMarkdown(table, 24, PLAIN_THEME);
    expect(narrow).toContain('Page  About');
    for (const r of narrow) expect(displayWidth(r)).toBeLessThanOrEqual(24);
  });

  it('sets code apart and never re-wraps it: a long line is folded at the edge, marked', () => {
    const code = `\`\`\`js\nconst a = 1;\n\tindented();\nconst long = "${'x'.repeat(60)}";\n\`\`\`\n`;
    const rows = renderMarkdown(code, 39, PLAIN_THEME);
    expect(rows[0]).toBe('│ const a = 1;');
    expect(rows[1]).toBe('│     indented();');
    expect(rows[2]).toHaveLength(39);
    // Folded, not re-wrapped: the pieces put back together are the line.
    expect(rows.slice(3).every((r) => r.startsWith('↳ '))).toBe(true);
    expect(
      rows
        .slice(2)
        .map((r) => r.slice(2))
        .join(''),
    ).toBe(`const long = "${'x'.repeat(60)}";`);
    // An open fence (the text still coming) shows as code.
    expect(renderMarkdown('```css\n.a { color: red; }\n', 39, PLAIN_THEME)).toEqual(['│ .a { color: red; }']);
  });

  it('shows a link as its text and its address, or as a hyperlink where the terminal shows them', () => {
    const md = 'See [the guide](https://example.com/guide) and <https://example.com/x>.';
    expect(renderMarkdown(md, 79, PLAIN_THEME)).toEqual([
      'See the guide (https://example.com/guide) and https://example.com/x.',
    ]);
    const linked = renderMarkdown(md, 79, { ...PLAIN_THEME, link: hyperlink })[0] as string;
    // Ours survive the IO's writers; the address is not printed beside the text.
    const out = forTerminal(linked, false);
    expect(out).toContain('\u001b]8;;https://example.com/guide\u001b\\the\u001b]8;;\u001b\\');
    expect(out.replace(/\u001b\]8;;[^\u001b]*\u001b\\/g, '')).toBe('See the guide and https://example.com/x.');
    // One from the service is removed before parsing (sanitize) and by the writers alike.
    expect(forTerminal('\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\', true)).toBe('click');
    // A long address is never cut: it goes whole to a row of its own.
    const long = `Read [this](https://example.com/${'a'.repeat(50)}) now`;
    expect(renderMarkdown(long, 39, PLAIN_THEME)).toEqual([
      'Read this',
      `(https://example.com/${'a'.repeat(50)})`,
      'now',
    ]);
  });

  it('decides hyperlinks from the terminal, never inside tmux, FORCE_HYPERLINK first', () => {
    expect(supportsHyperlinks({ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' })).toBe(true);
    expect(supportsHyperlinks({ VTE_VERSION: '7600' })).toBe(true);
    expect(supportsHyperlinks({ VTE_VERSION: '7600', TMUX: '/tmp/tmux' })).toBe(false);
    expect(supportsHyperlinks({ TERM: 'xterm-256color' })).toBe(false);
    expect(supportsHyperlinks({ TERM: 'screen', FORCE_HYPERLINK: '1' })).toBe(true);
    expect(supportsHyperlinks({ WT_SESSION: 'x', FORCE_HYPERLINK: '0' })).toBe(false);
  });

  it('renders headings, emphasis, quotes, nested lists, task items, rules and escapes without their markers', () => {
    const md =
      '# Title\n\n> A *quote*, **bold** and ~~old~~ &amp; \\*literal\\*\n\n- one\n  - two\n    1. three\n- [x] done\n\n---\n';
    expect(renderMarkdown(md, 30, PLAIN_THEME)).toEqual([
      'Title',
      '',
      '┃ A quote, bold and old &',
      '┃ *literal*',
      '',
      '• one',
      '  ◦ two',
      '    1. three',
      '• [x] done',
      '',
      '─'.repeat(30),
    ]);
    expect(renderInline('## A **bold** `plan`\n\n1. step [one](http://x.example)', PLAIN_THEME)).toBe(
      'A bold plan step one (http://x.example)',
    );
  });

  it('cuts text only where each part parses as it does in the whole', () => {
    const text = textOf(PLAN) + textOf(RESTYLE);
    expect(splitParts(text).join('')).toBe(text.replace(/\r\n/g, '\n').endsWith('\n') ? text : `${text}\n`);
    const whole = renderMarkdown(text, 79, PLAIN_THEME);
    // A fence is never cut: each part holds whole fences.
    for (const p of splitParts(text.replace(/\r\n/g, '\n'))) expect((p.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect(whole.length).toBeGreaterThan(20);
  });
});

describe('the emulator agent streams its Markdown in odd pieces', () => {
  it('cuts mid-word, inside **, inside a fence and between CR and LF, the same way each time', () => {
    const text = textOf(PLAN);
    const pieces = PLAN.filter((e) => e.event === 'text').map((e) => e.data.text as string);
    expect(pieces.join('')).toBe(text);
    expect(pieces.some((p) => p.endsWith('*') && !p.endsWith('**'))).toBe(true);
    expect(pieces.some((p) => p.endsWith('\r'))).toBe(true);
    expect(pieces.some((p) => /`{1,2}$/.test(p) && !/```$/.test(p))).toBe(true);
    expect(pieces.some((p) => /\w$/.test(p))).toBe(true);
    expect(cutPieces(text)).toEqual(cutPieces(text));
    expect(text).toMatch(/^## Here is my plan$/m);
    expect(text).toMatch(/^1\. \*\*/m);
    expect(text).toMatch(/^ {3}- /m);
    expect(text).toMatch(/^\| File \| Change \| Task \|$/m);
    expect(text).toMatch(/```html\r\n/);
  });
});

/** Feeds the events to a pretty view on a terminal, `per` events an answer (each text event cut at `cut`), then ends the run. */
async function streamed(events: Ev[], columns: number, per: number, cut = 0): Promise<string[]> {
  const t = terminalIO({ columns, rows: 60 });
  const clock = new FakeClock();
  const view = createRunView(t.io, clock, 'pretty');
  await view.begin('site_bakery', 'job_1');
  let state: RunState = initialRunState('job_1');
  const all = events.flatMap((e) => {
    const text = e.data.text;
    if (e.event !== 'text' || !cut || typeof text !== 'string' || text.length <= cut) return [e];
    return [
      { event: 'text', data: { text: text.slice(0, cut) } },
      { event: 'text', data: { text: text.slice(cut) } },
    ];
  });
  for (let i = 0; i < all.length; i += per) {
    const chunk = all.slice(i, i + per);
    const applied = applyAnswer(state, readJobAnswer({ state: 'running', events: chunk }));
    state = applied.state;
    view.answer(applied, chunk);
    await view.play?.(clock.now() + 3000);
  }
  const applied = applyAnswer(state, readJobAnswer({ state: 'succeeded', events: [], creditsCharged: 1 }));
  view.answer(applied, []);
  await view.settle?.();
  view.stop();
  view.end({ state: applied.state, outcome: 'plan', exitCode: 11, elapsedMs: 1000 });
  return t.terminal().lines();
}

describe('streaming: the same events in any chunking print the same screen', () => {
  it.each([80, 40])('at %i columns, rendered as the whole text is', async (columns) => {
    const once = await streamed(PLAN, columns, PLAN.length);
    for (const [per, cut] of [
      [1, 0],
      [2, 3],
      [3, 1],
      [7, 5],
    ] as const)
      expect(await streamed(PLAN, columns, per, cut)).toEqual(once);
    const rendered = renderMarkdown(
      textOf(PLAN).replace('Let me look at the site first.\n', ''),
      columns - 1,
      PLAIN_THEME,
    );
    const at = once.indexOf(rendered[0] as string);
    expect(once.slice(at, at + rendered.length)).toEqual(rendered);
    expectRendered(once, columns - 1);
  });

  it('never shows a raw marker on its way: every screen while it streams is free of them', async () => {
    const t = terminalIO({ columns: 80, rows: 60 });
    const clock = new FakeClock();
    const view = createRunView(t.io, clock, 'pretty');
    await view.begin('site_bakery', 'job_1');
    let state = initialRunState('job_1');
    for (const e of PLAN) {
      const applied = applyAnswer(state, readJobAnswer({ state: 'running', events: [e] }));
      state = applied.state;
      view.answer(applied, [e]);
      await view.play?.(clock.now() + 3000);
      for (const l of t.terminal().lines()) expect(l).not.toMatch(/\*\*|^#|```|^\|/);
    }
    view.stop();
  });
});

describe('a resize while the plan plays', () => {
  it('lays the rest out at the new width, from the letters shown: nothing lost, nothing twice', async () => {
    const letters = (lines: string[]) => lines.join(' ').replace(/[^\p{L}\p{N}]/gu, '');
    const play = async (resizeAt?: number) => {
      const t = terminalIO({ columns: 80, rows: 60 });
      const clock = new FakeClock();
      const view = createRunView(t.io, clock, 'pretty');
      await view.begin('site_bakery', 'job_1');
      let state = initialRunState('job_1');
      for (let i = 0; i < PLAN.length; i += 8) {
        const chunk = PLAN.slice(i, i + 8);
        const applied = applyAnswer(state, readJobAnswer({ state: 'running', events: chunk }));
        state = applied.state;
        view.answer(applied, chunk);
        // Halfway through a wait: the terminal gets narrower.
        const until = clock.now() + 3000;
        if (resizeAt !== undefined && i === resizeAt) {
          const half = view.play?.(clock.now() + 1500);
          await half;
          t.resize(40);
        }
        await view.play?.(until);
      }
      const applied = applyAnswer(state, readJobAnswer({ state: 'succeeded', events: [] }));
      view.answer(applied, []);
      view.stop();
      return { lines: t.terminal().logicalLines() };
    };
    const resized = await play(16);
    // The plan's rows on the screen: those shown before the resize as laid out at 80 columns,
    // then the rest as laid out at 40 (which fit it), the first of them what was left of its row.
    const plan = textOf(PLAN).replace('Let me look at the site first.\n', '');
    const at80 = renderMarkdown(plan, 79, PLAIN_THEME);
    const at40 = renderMarkdown(plan, 39, PLAIN_THEME);
    const from = resized.lines.indexOf(at80[0] as string);
    const to = resized.lines.indexOf('The plan above waits for your approval.');
    const shown = resized.lines.slice(from, to);
    let k = 0;
    while (k < shown.length && shown[k] === at80[k]) k++;
    expect(k).toBeGreaterThan(0);
    expect(k).toBeLessThan(shown.length);
    const rest = shown.slice(k + 1);
    expect(rest.length).toBeGreaterThan(5);
    expect(rest).toEqual(at40.slice(at40.length - rest.length));
    // The row the resize cut: its start at 80 columns, then its rest, nothing twice.
    expect(letters([shown[k] as string, ...rest])).toBe(
      letters(at40).slice(-letters([shown[k] as string, ...rest]).length),
    );
  });
});

describe('raw text where scripts read it', () => {
  it('piped: the text lines are the raw Markdown, line for line; NDJSON: the events as sent', () => {
    for (const mode of ['plain', 'json'] as const) {
      const io = createTestIO();
      io.json = mode === 'json';
      const view = createRunView(io, new FakeClock(), mode);
      void view.begin('site_bakery', 'job_1');
      let state = initialRunState('job_1');
      for (const e of PLAN) {
        const applied = applyAnswer(state, readJobAnswer({ state: 'running', events: [e] }));
        state = applied.state;
        view.answer(applied, [e]);
      }
      view.end({ state, outcome: 'plan', exitCode: 11, elapsedMs: 1 });
      const out = io.stdoutText().trimEnd().split('\n');
      if (mode === 'plain') {
        const text = out.filter((l) => l.startsWith('text\t')).map((l) => l.slice(5));
        expect(`${text.join('\n')}\n`).toBe(textOf(PLAN).replace(/\r\n/g, '\n'));
      } else {
        const events = out.map((l) => JSON.parse(l)).filter((l) => l.event);
        expect(events).toEqual(PLAN);
      }
    }
  });

  it('--no-markdown (IO.markdown off): the text shows as it came', async () => {
    const t = terminalIO({ columns: 80, rows: 60 });
    t.io.markdown = false;
    const view = createRunView(t.io, new FakeClock(), 'pretty');
    await view.begin('site_bakery', 'job_1');
    const applied = applyAnswer(initialRunState('j'), readJobAnswer({ state: 'succeeded', events: PLAN }));
    view.answer(applied, PLAN);
    view.stop();
    expect(t.terminal().lines()).toContain('## Here is my plan');
  });
});

describe('the open end of a stream', () => {
  it('leaves out markers that are not closed yet, and shows nothing of a first word still coming', () => {
    expect(withoutOpenMarkers('1. **Create `about')).toBe('1. Create about');
    expect(withoutOpenMarkers('see [the guide](https://exa')).toBe('see the guide');
    expect(withoutOpenMarkers('a **b** and *c')).toBe('a **b** and c');
    expect(withoutOpenMarkers('2 * 3 is six')).toBe('2 * 3 is six');
    const s = new MarkdownStream(PLAIN_THEME);
    s.setTail('##');
    expect(s.rows(79).rows).toEqual([]);
    s.setTail('## Pla');
    expect(s.rows(79).rows).toEqual(['Pla']);
    s.line('## Plan');
    s.line('| a | b |');
    // A table waits until it is complete.
    expect(s.rows(79).rows).toEqual(['Plan']);
    s.line('| --- | --- |');
    s.line('| 1 | 2 |');
    s.line('');
    s.close();
    expect(s.rows(79).rows).toEqual(['Plan', 'a  b', '────', '1  2', '']);
  });
});

describe('long texts', () => {
  it('wraps a 1 MB line without a space in linear time, into rows of the width', () => {
    const rows = wrapRows('x'.repeat(1_000_000), 79);
    expect(rows).toHaveLength(Math.ceil(1_000_000 / 79));
    expect(rows.every((r) => r.length <= 79)).toBe(true);
    const md = renderMarkdown('y'.repeat(200_000), 79, PLAIN_THEME);
    expect(md).toHaveLength(Math.ceil(200_000 / 79));
  });

  it('renders a long text a part at a time, letting other work in, and stops when aborted', async () => {
    const text = textOf(PLAN).repeat(300);
    let turns = 0;
    const tick = setInterval(() => turns++, 0);
    const rows = await renderMarkdownAsync(text, 79, PLAIN_THEME);
    clearInterval(tick);
    expect(rows).toEqual(renderMarkdown(text, 79, PLAIN_THEME));
    expect(turns).toBeGreaterThan(0);
    const abort = new AbortController();
    abort.abort();
    expect(await renderMarkdownAsync(text, 79, PLAIN_THEME, abort.signal)).toBeUndefined();
  });
});
