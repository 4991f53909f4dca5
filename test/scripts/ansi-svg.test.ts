// The README's pictures: scripts/ansi-svg.ts turns a terminal screen (tmux capture-pane -e) into
// SVG, and docs/images/*.svg, drawn from real runs by `npm run docs:images`, are well-formed and
// still show what the README says they show. The pictures are not redrawn here (that takes a
// terminal and half a minute): a broken or stale one fails on what it shows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CELL_W, cellWidth, LINE_H, PAD, parseScreen, rowText, screensToSvg, TITLE_H } from '../../scripts/ansi-svg.js';

const ESC = '\u001b';
const svgOf = (screen: string, cols = 80) => screensToSvg([{ title: 'T', screen }], cols);
/** The <text> elements of the screen (not the title): their attributes and content. */
const texts = (svg: string) =>
  [...svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)]
    .filter((m) => !m[1].startsWith('class='))
    .map((m) => ({ attrs: m[1], text: m[2], x: Number(/ x="([\d.]+)"/.exec(` ${m[1]}`)?.[1]) }));

const unescapeXml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e as 'amp']!);

/** Throws unless the text is well-formed XML: one root, tags nested, entities and attributes as XML has them. */
function checkXml(xml: string): void {
  const TOKENS =
    /<\?xml[^>]*\?>|<!--[\s\S]*?-->|<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="(?:[^"<&]|&(?:amp|lt|gt|quot|apos);)*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/g;
  const open: string[] = [];
  let roots = 0;
  for (const m of xml.matchAll(TOKENS)) {
    const [all, closing, name, , empty] = m;
    if (all === '<' || all === '&') throw new Error(`A bare ${all} at ${m.index}`);
    if (!name) continue;
    if (closing) {
      if (open.pop() !== name) throw new Error(`</${name}> closes nothing open at ${m.index}`);
    } else {
      if (open.length === 0) roots++;
      if (!empty) open.push(name);
    }
  }
  if (open.length > 0 || roots !== 1) throw new Error(`Unclosed ${open.join(', ')}, or ${roots} roots`);
}

/** The screens a picture shows, one per window, each row its text placed at its columns. */
function screensIn(svg: string): string[][] {
  return svg
    .split('<g transform=')
    .slice(1)
    .map((panel) => {
      const rows: string[] = [];
      for (const m of panel.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)<\/text>/g)) {
        const col = Math.round((Number(m[1]) - PAD) / CELL_W);
        const row = Math.round((Number(m[2]) - TITLE_H - PAD - LINE_H * 0.75) / LINE_H);
        rows[row] = (rows[row] ?? '').padEnd(col) + unescapeXml(m[3]);
      }
      return Array.from(rows, (line) => line ?? '');
    });
}

describe('ANSI screen to SVG', () => {
  it('draws the 16, 256 and RGB colours as fills, and default text without one', () => {
    const t = texts(svgOf(`${ESC}[32mok${ESC}[39m plain ${ESC}[91ma${ESC}[38;5;196mb${ESC}[38;2;1;2;3mc${ESC}[0m`));
    expect(t.map((x) => [x.text, /fill="([^"]+)"/.exec(x.attrs)?.[1]])).toEqual([
      ['ok', '#0dbc79'],
      [' plain ', undefined],
      ['a', '#f14c4c'],
      ['b', '#ff0000'],
      ['c', '#010203'],
    ]);
  });

  it('draws bold, dim, italic and underline, and carries a style from one row to the next until reset', () => {
    const t = texts(svgOf(`${ESC}[1mB${ESC}[22m${ESC}[2mD${ESC}[0m ${ESC}[3;4mIU\nnext${ESC}[0m after`));
    expect(t.find((x) => x.text === 'B')?.attrs).toContain('font-weight="bold"');
    expect(t.find((x) => x.text === 'D')?.attrs).toContain('opacity="0.6"');
    expect(t.find((x) => x.text === 'D')?.attrs).not.toContain('bold');
    for (const text of ['IU', 'next']) {
      expect(t.find((x) => x.text === text)?.attrs).toMatch(/font-style="italic".*text-decoration="underline"/);
    }
    expect(t.find((x) => x.text === ' after')?.attrs).not.toMatch(/italic|underline/);
  });

  it('swaps the colours of reverse text: the background drawn in the text colour', () => {
    const svg = svgOf(`${ESC}[7;33m sel ${ESC}[0m`);
    expect(svg).toMatch(/<rect x="14" y="\d+" width="42" height="\d+" fill="#e5e510"\/><text [^>]*fill="#1e1e1e">/);
  });

  it('escapes < & " and \' in text and in the title', () => {
    const svg = screensToSvg([{ title: 'a <b> & "c"', screen: `if a < b && c > "d" 'e'` }], 80);
    expect(texts(svg)[0].text).toBe('if a &lt; b &amp;&amp; c &gt; &quot;d&quot; &apos;e&apos;');
    expect(svg).toContain('>a &lt;b&gt; &amp; &quot;c&quot;</text>');
    expect(() => checkXml(svg)).not.toThrow();
  });

  it('places text by columns: wide characters take two, text-style symbols and combining marks as a terminal has them', () => {
    expect([cellWidth('漢'), cellWidth('🚀'), cellWidth('✔'), cellWidth('─'), cellWidth('\u0301')]).toEqual([
      2, 2, 1, 1, 0,
    ]);
    const t = texts(svgOf(`漢字${ESC}[1mx${ESC}[0m e\u0301${ESC}[1my`));
    const at = (cols: number) => Math.round((PAD + cols * CELL_W) * 100) / 100;
    expect(t.map((x) => [x.text, x.x])).toEqual([
      ['漢字', at(0)],
      ['x', at(4)],
      [' e\u0301', at(5)],
      ['y', at(7)],
    ]);
    expect(texts(svgOf('漢字'))[0].attrs).toContain(`textLength="${at(4) - PAD}"`);
  });

  it('trims blanks at the end of rows and blank rows at the end, but keeps a coloured background', () => {
    expect(parseScreen('abc   \n\n  \n').map(rowText)).toEqual(['abc']);
    expect(parseScreen(`x${ESC}[44m   ${ESC}[0m  `)[0].map((r) => r.text)).toEqual(['x', '   ']);
    const one = svgOf('abc   \n\n   \n');
    const two = svgOf('abc\ndef');
    const height = (svg: string) => Number(/height="([\d.]+)"/.exec(svg)?.[1]);
    expect(height(two) - height(one)).toBe(LINE_H);
  });

  it('drops escape sequences other than SGR, and controls', () => {
    const screen = `${ESC}]0;title${ESC}\\${ESC}[2K${ESC}[1A${ESC}]8;;http://x${ESC}\\link${ESC}]8;;${ESC}\\\u0007 done`;
    expect(parseScreen(screen).map(rowText)).toEqual(['link done']);
  });

  it('starts a window at the first row that `from` matches', () => {
    const svg = screensToSvg([{ title: 'T', screen: 'one\ntwo\nthree', from: /^tw/ }], 80);
    expect(screensIn(svg)).toEqual([['two', 'three']]);
  });

  it('the well-formedness check fails on what is not XML', () => {
    expect(() => checkXml('<a><b></a></b>')).toThrow();
    expect(() => checkXml('<a>x & y</a>')).toThrow();
    expect(() => checkXml('<a>1 < 2</a>')).toThrow();
    expect(() => checkXml('<a/><b/>')).toThrow();
    expect(() => checkXml('<a x="1"><b/>&amp;</a>')).not.toThrow();
  });
});

describe('the committed pictures (`npm run docs:images`)', () => {
  const read = (name: string) => readFileSync(new URL(`../../docs/images/${name}`, import.meta.url), 'utf8');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

  it.each(['chat.svg', 'restore.svg'])('%s is well-formed, fits 80 columns, and is shown in README.md', (name) => {
    const svg = read(name);
    checkXml(svg);
    for (const row of screensIn(svg).flat())
      expect([...row].reduce((w, ch) => w + cellWidth(ch), 0)).toBeLessThanOrEqual(80);
    expect(readme).toContain(`](docs/images/${name})`);
  });

  it('chat.svg: a conversation in plan mode, its first message confirmed, its Markdown plan rendered, approved, the live block, then the end', () => {
    const [plan, live, end] = screensIn(read('chat.svg')).map((rows) => rows.join('\n'));
    expect(plan).toMatch(/^\$ sitebuilder chat site_bakery$/m);
    expect(plan).toMatch(/^✔ You \(plan mode\) · .+/m);
    // A fresh machine knows no run of the site: it says so, and the first message is confirmed,
    // on screen, before it goes (docs/real-service.md "What waits on a site").
    expect(plan).toMatch(/^Cannot tell whether a question or plan waits on site_bakery /m);
    expect(plan).toMatch(/^✔ Send it\? · Yes$/m);
    // The plan rendered: its heading, a numbered step, the table, the code block; no marker.
    expect(plan).toMatch(/^Here is my plan$/m);
    expect(plan).toMatch(/^1\. \w+ \S+: /m);
    expect(plan).toMatch(/^File +Change +Task$/m);
    expect(plan).toMatch(/^│ :root \{$/m);
    expect(plan).not.toMatch(/\*\*|^#|```|^\|/m);
    expect(plan).toMatch(/^\? Build this plan\?/m);
    expect(live).toMatch(/^✔ Build this plan\? · Approve and build$/m);
    // The live block at the bottom: the task list, one done and one going on, above the spinner.
    expect(live).toMatch(/^Tasks \d+\/\d+\n( {2}✓ .*\n)+ {2}▸ .*\n( {2}○ .*\n)*[⠋-⣿] The agent is working \d+s$/m);
    expect(end).toMatch(/^\+ \w+\.html$/m);
    expect(end).toMatch(/^✓ Done in \d+s · \d+ credits\n\? You \(plan mode\) ‣$/m);
  });

  it('restore.svg: the plan, the confirmation and the restore completed', () => {
    const [screen] = screensIn(read('restore.svg')).map((rows) => rows.join('\n'));
    expect(screen).toMatch(/^\$ sitebuilder storage-restore site_bakery/m);
    expect(screen).toMatch(/^PLAN$/m);
    expect(screen).toMatch(/^Files removed +\d+$/m);
    expect(screen).toMatch(/- DELETED: /);
    expect(screen).toMatch(/^✔ Start the restore\?/m);
    expect(screen).toMatch(/^status +completed$/m);
    expect(screen).toMatch(/^✓ Storage restore srs_\d+ completed/m);
  });
});
