// Long texts in the Markdown renderer (issue 21: "linear in the text's size and yields between
// chunks, so Ctrl-C is honoured at any time"): no part is long to parse (split.ts cuts a block
// that grows past SPLIT_AT, and puts a line too long to parse in a part of its own), a line that
// long is shown as written a slice of rows at a time (written.ts), and a stream lays it out
// across turns of the event loop, stopping when Ctrl-C aborts. Structure, not timings: what is
// measured is in `npm run bench:render`.
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/io/width.js';
import { MarkdownStream, PLAIN_THEME, renderMarkdown } from '../../src/render/markdown/index.js';
import { partSlices } from '../../src/render/markdown/render.js';
import { SPLIT_AT, splitParts } from '../../src/render/markdown/split.js';
import { LONG_LINE, shownAsWritten, writtenRows } from '../../src/render/markdown/written.js';

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
