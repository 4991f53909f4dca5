// The agent's Markdown nested absurdly deep is shown as written, never parsed (src/render/markdown/
// depth.ts): marked's lexer recurses once a level, so quotes, lists or emphasis nested thousands of
// levels would exhaust the stack, and a list of 2,000 levels takes a minute. Each hostile text,
// at 100,000 levels, renders in every entry (a whole text, a stream, one line), naming the depth.
import { describe, expect, it } from 'vitest';
import { markdownTooDeep } from '../../src/render/markdown/depth.js';
import { MarkdownStream, PLAIN_THEME, renderInline, renderMarkdown } from '../../src/render/markdown/index.js';

const N = 100_000;
const HOSTILE: Array<[string, string]> = [
  ['quotes', `${'>'.repeat(N)} deep\n`],
  ['spaced quotes', `${'> '.repeat(N)}deep\n`],
  ['a list', Array.from({ length: 3_000 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n')],
  ['a list of quotes', Array.from({ length: 3_000 }, (_, i) => `${'  '.repeat(i)}- > x`).join('\n')],
  ['nested emphasis', `${'*a '.repeat(N)}b${' c*'.repeat(N)}`],
  ['nested emphasis over lines', `${'*a\n'.repeat(5_000)}b${'\nc*'.repeat(5_000)}`],
];

describe('Markdown nested too deep to parse', () => {
  it.each(HOSTILE)('%s: rendered as written, after a line naming the depth', (_what, text) => {
    const rows = renderMarkdown(text, 80, PLAIN_THEME);
    expect(rows.slice(0, 2).join(' ')).toMatch(
      /^\(Markdown with (quotes nested|lists nested over 32|over 1,000 emphasis).*: shown as written\)/,
    );
    // As written: every line of the text is there (a word wider than the terminal is left whole, width.ts).
    expect(rows.length).toBeGreaterThanOrEqual(text.trimEnd().split('\n').length);
    const stream = new MarkdownStream(PLAIN_THEME);
    for (const line of text.split('\n')) stream.line(line);
    stream.close();
    expect(stream.rows(80).rows.length).toBeGreaterThan(0);
    expect(typeof renderInline(text.slice(0, 200_000), PLAIN_THEME)).toBe('string');
  });

  it('names the depth it found', () => {
    expect(markdownTooDeep(`${'>'.repeat(5000)} x`)).toBe('quotes nested 5,000 levels deep');
    expect(markdownTooDeep(`${' '.repeat(200)}- x`)).toBe(
      'lists nested over 32 levels deep (a line indented 200 columns)',
    );
  });

  it('leaves ordinary Markdown, deep code in a fence and snake_case ids to the parser', () => {
    const ordinary = [
      '> quoted\n> > twice',
      '- a\n  - b\n    - c',
      `\`\`\`\n${' '.repeat(400)}deeply indented code\n\`\`\``,
      Array.from({ length: 2_000 }, (_, i) => `site_${i}_bakery`).join(' '),
      '**bold** and _em_ and *more*',
    ];
    for (const text of ordinary) expect(markdownTooDeep(text), text.slice(0, 40)).toBeUndefined();
    expect(renderMarkdown('> quoted\n> > twice', 80, PLAIN_THEME).join('\n')).not.toContain('shown as written');
  });
});
