// Long texts in the Markdown renderer (issue 21: "linear in the text's size and yields between
// chunks, so Ctrl-C is honoured at any time"): no part is long to parse (split.ts cuts a block
// that grows past SPLIT_AT, and puts a line too long to parse in a part of its own), a line that
// long is shown as written a slice of rows at a time (written.ts), and a stream lays it out
// across turns of the event loop, stopping when Ctrl-C aborts; in the pretty view a long text is
// laid out as it is shown, so its first rows show at once. Structure, not timings: what is
// measured is in `npm run bench:render`.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { displayWidth } from '../../src/io/width.js';
import { MarkdownStream, PLAIN_THEME, renderMarkdown } from '../../src/render/markdown/index.js';
import { partSlices } from '../../src/render/markdown/render.js';
import { SPLIT_AT, splitParts } from '../../src/render/markdown/split.js';
import { AT_ONCE } from '../../src/render/markdown/stream.js';
import { LONG_LINE, shownAsWritten, writtenRows } from '../../src/render/markdown/written.js';
import { applyAnswer, initialRunState } from '../../src/render/reducer.js';
import { createRunView } from '../../src/render/views.js';
import { readJobAnswer } from '../../src/service/job.js';
import { terminalIO } from '../helpers/terminal.js';

const STEP = '1. **Create `about.html`**: the About page\n   - a hero with the *tagline*\n   - a link in the nav\n';
const lines = (s: string) => s.replace(/\n$/, '').split('\n');

/** Turns of the event loop while `work` runs (each setImmediate that got in). */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  done = true;
  return turns;
}

describe('no part is long to parse', () => {
  it('a paragraph, a list and a quote that grow past SPLIT_AT are cut between lines, never inside a fence', () => {
    const paragraph = 'A sentence of the agent that goes on and on.\n'.repeat(2000);
    const list = STEP.repeat(1000).replace(/^1\. /gm, '   continued\n1. ');
    const quote = '> quoted words of the service\n'.repeat(2000);
    const fence = `\`\`\`html\n${'<p>code</p>\n'.repeat(5000)}\`\`\`\nAfter.\n`;
    for (const text of [paragraph, list, quote]) {
      const parts = splitParts(text);
      expect(parts.join('')).toBe(text);
      expect(parts.length).toBeGreaterThan(1);
      for (const p of parts) expect(p.length).toBeLessThan(SPLIT_AT + 200);
    }
    const parts = splitParts(fence);
    expect(parts.join('')).toBe(fence);
    // The fence is one part, whole; what follows it another.
    expect(parts[0]).toMatch(/^```html\n[\s\S]*\n```\n$/);
    expect(parts[1]).toBe('After.\n');
  });

  it('a line too long to parse is a part of its own, shown as written', () => {
    const long = `${'word '.repeat(LONG_LINE / 4)}end`;
    const text = `Before it.\n${long}\nAfter it.\n`;
    const parts = splitParts(text);
    expect(parts).toEqual(['Before it.\n', `${long}\n`, 'After it.\n']);
    expect(shownAsWritten(parts[1] as string)).toBe(true);
    expect(shownAsWritten(STEP.repeat(2000))).toBe(false);
  });
});

describe('a line shown as written', () => {
  it('is cut into rows of the width between words, a word wider than a row into rows of the width', () => {
    const text = `${'x'.repeat(1000)} short words here ${'é'.repeat(300)} 字字字字字字字字字字字字 end\n`;
    for (const width of [79, 39, 10]) {
      const rows = [...writtenRows(text, width)].flat();
      for (const r of rows) expect(displayWidth(r), r).toBeLessThanOrEqual(width);
      expect(rows.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      // Words whole where they fit: no row ends inside "short", "words" or "here".
      expect(rows.join('\n')).toMatch(/\bshort words here\b|\bshort\n|\bwords\n|\bhere\n/);
    }
    expect([...writtenRows(`${'x'.repeat(1_000_000)}\n`, 79)].flat()).toEqual(
      Array.from({ length: Math.ceil(1_000_000 / 79) }, (_, i) => 'x'.repeat(Math.min(79, 1_000_000 - i * 79))),
    );
  });

  it('comes a slice at a time: a megabyte in many slices, the same rows as rendered at once', () => {
    for (const line of ['x'.repeat(1_000_000), 'word '.repeat(200_000)]) {
      const slices = [...partSlices(`${line}\n`, 79, PLAIN_THEME)];
      expect(slices.length).toBeGreaterThan(30);
      expect(slices.flat()).toEqual(renderMarkdown(line, 79, PLAIN_THEME));
    }
  });
});

describe('a stream lays a long text out across turns of the event loop', () => {
  it('a 1 MB line and a 1 MB plan let the event loop in between slices, and rows stay the same', async () => {
    for (const text of [`Working.\n${'x'.repeat(1_000_000)}\n`, `## Plan\n\n${STEP.repeat(12_500)}`]) {
      const doc = new MarkdownStream(PLAIN_THEME);
      for (const line of lines(text)) doc.line(line);
      doc.close();
      const turns = await turnsDuring(() => doc.prepare(79, undefined, 0));
      expect(turns).toBeGreaterThan(30);
      expect(doc.rows(79).rows).toEqual(renderMarkdown(text, 79, PLAIN_THEME));
    }
  });

  it('stops when aborted, leaving the rest not laid out', async () => {
    const doc = new MarkdownStream(PLAIN_THEME);
    doc.line('x'.repeat(1_000_000));
    doc.close();
    const abort = new AbortController();
    let turns = 0;
    const tick = () => {
      if (++turns === 3) abort.abort();
      else setImmediate(tick);
    };
    setImmediate(tick);
    expect(await doc.prepare(79, abort.signal, 0)).toBe(false);
    expect(doc.pending(79)).toBeGreaterThan(0);
  });

  it('a long line still coming is not laid out until it is complete', () => {
    const doc = new MarkdownStream(PLAIN_THEME);
    doc.line('Working.');
    doc.setTail('y'.repeat(LONG_LINE + 1));
    expect(doc.rows(79).rows).toEqual(['Working.']);
    doc.setTail('y y');
    expect(doc.rows(79).rows).toEqual(['Working.', 'y y']);
  });
});

describe('a long text is laid out as it is shown', () => {
  // Over twice what is laid out at once, and more words than the playback paces before it
  // lets the event loop in (its fake clock's waits take no time).
  const plan = `## Plan\n\n${STEP.repeat(1600)}`;
  const line = `Working.\n${'word '.repeat(30_000)}\nDone.\n`;

  it('rows() lays out a bounded first slice, more() a slice more, until it is all there', () => {
    for (const text of [plan, line]) {
      const doc = new MarkdownStream(PLAIN_THEME);
      for (const l of lines(text)) doc.line(l);
      doc.close();
      const first = doc.rows(79).rows.length;
      expect(first).toBeGreaterThan(0);
      expect(doc.pending(79)).toBeGreaterThan(text.length - 2 * AT_ONCE);
      // Asked again, nothing more is laid out: only more() goes on.
      expect(doc.rows(79).rows).toHaveLength(first);
      let slices = 0;
      let before = doc.version;
      while (doc.more(79)) {
        expect(doc.version).toBeGreaterThan(before);
        before = doc.version;
        slices++;
      }
      expect(slices).toBeGreaterThan(5);
      expect(doc.pending(79)).toBe(0);
      expect(doc.rows(79).rows).toEqual(renderMarkdown(text, 79, PLAIN_THEME));
    }
  });

  /** A pretty view on a terminal that gets `text` in one answer and plays it; `during` runs at each turn of the event loop. */
  async function played(
    text: string,
    columns: number,
    during?: (turns: number, t: ReturnType<typeof terminalIO>) => void,
  ) {
    const t = terminalIO({ columns, rows: 40 });
    const clock = new FakeClock();
    const view = createRunView(t.io, clock, 'pretty');
    await view.begin('site_bakery', 'job_1');
    const events = [{ event: 'text', data: { text } }];
    const applied = applyAnswer(initialRunState('job_1'), readJobAnswer({ state: 'running', events }));
    let turns = 0;
    let playing = true;
    const tick = () => {
      if (!playing) return;
      during?.(++turns, t);
      setImmediate(tick);
    };
    setImmediate(tick);
    view.answer(applied, events);
    await view.play?.(clock.now() + 3000);
    playing = false;
    view.stop();
    view.end({ state: applied.state, outcome: 'detached', exitCode: 0, elapsedMs: 1 });
    return { t };
  }

  it.each([80, 40])('at %i columns: its first row shows at once, then the whole text as rendered', async (columns) => {
    for (const text of [plan, line]) {
      let firstRowAt: number | undefined;
      const rendered = renderMarkdown(text, columns - 1, PLAIN_THEME);
      const first = rendered[0] as string;
      const { t } = await played(text, columns, (n, t) => {
        if (firstRowAt === undefined && t.bytes().includes(first)) firstRowAt = n;
      });
      // Laid out as it is shown: the first rows are on the screen before the rest is laid out
      // (a text laid out whole first kept the event loop turning many times before its first row).
      expect(firstRowAt).toBe(1);
      const screen = t.terminal().logicalLines();
      const at = screen.indexOf(first);
      expect(screen.slice(at, at + rendered.length)).toEqual(rendered);
    }
  });

  it('a resize while it lays out: the rest at the new width, from the letters shown, nothing lost, nothing twice', async () => {
    const letters = (rows: string[]) => rows.join(' ').replace(/[^\p{L}\p{N}]/gu, '');
    const wide = plan.replaceAll('the About page', 'the About page, with the story of the bakery and its bakers');
    const { t } = await played(wide, 80, (n, t) => {
      if (n === 4) t.resize(40);
    });
    const screen = t.terminal().logicalLines();
    const at = screen.indexOf('Plan');
    const shown = screen.slice(
      at,
      screen.findIndex((r) => r.startsWith('Stopped following')),
    );
    const [got, want] = [letters(shown), letters(renderMarkdown(wide, 79, PLAIN_THEME))];
    // Compared by length and first difference: a failure prints a few letters, not 400,000.
    const differ = [...want].findIndex((ch, i) => got[i] !== ch);
    expect({ length: got.length, differ, near: got.slice(differ, differ + 40) }).toEqual({
      length: want.length,
      differ: -1,
      near: got.slice(-1, 39),
    });
    // Rows of both widths: the resize came while it played.
    expect(shown.some((r) => displayWidth(r) > 39)).toBe(true);
    expect(shown.slice(-20).every((r) => displayWidth(r) <= 39)).toBe(true);
  });
});
