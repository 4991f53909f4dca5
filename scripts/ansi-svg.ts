// A terminal screen as SVG, for the README's pictures (scripts/docs-images.mjs): the text of
// `tmux capture-pane -p -e` (rows of text with SGR sequences) drawn cell by cell in a window
// frame. It knows the SGR attributes a terminal shows: the 16, 256 and RGB colours, bold, dim,
// italic, underline and reverse; every other escape sequence is dropped. Each run of text is
// placed at its own column and stretched to its cells (textLength), so the grid holds in any
// monospace font, and glyphs a fallback font draws (box drawing, braille, ✔) stay in place.
import { partWidth } from '../src/io/width.js';

/** A colour as SGR names it: 0–255 from the palette, or #rrggbb. */
type Colour = number | string;

interface Style {
  fg?: Colour;
  bg?: Colour;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  reverse?: boolean;
}

/** Text of one style starting at a column. */
export interface Run {
  col: number;
  text: string;
  width: number;
  style: Style;
}

/** A screen to draw under a title; `from` drops the rows above the first one it matches. */
export interface Panel {
  title: string;
  screen: string;
  from?: RegExp;
}

const FONT_SIZE = 14;
/** Cell size in px (a monospace advance is about 0.6 em). */
export const CELL_W = 8.4;
export const LINE_H = 17;
/** Space around the text inside a window, the title bar's height and the gap between windows. */
export const PAD = 14;
export const TITLE_H = 28;
const GAP = 14;

const BACKGROUND = '#1e1e1e';
const FOREGROUND = '#d4d4d4';
/** The 16 colours (normal, then bright), close to a common dark terminal theme. */
const PALETTE16 = [
  '#000000',
  '#cd3131',
  '#0dbc79',
  '#e5e510',
  '#2472c8',
  '#bc3fbc',
  '#11a8cd',
  '#e5e5e5',
  '#666666',
  '#f14c4c',
  '#23d18b',
  '#f5f543',
  '#3b8eea',
  '#d670d6',
  '#29b8db',
  '#ffffff',
];

const hex = (n: number) => n.toString(16).padStart(2, '0');

/** A palette entry as #rrggbb: 16 named colours, a 6×6×6 cube, then 24 greys. */
function paletteColour(n: number): string {
  if (n < 16) return PALETTE16[n];
  if (n < 232) {
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    const i = n - 16;
    return `#${hex(level(Math.floor(i / 36)))}${hex(level(Math.floor(i / 6) % 6))}${hex(level(i % 6))}`;
  }
  const grey = 8 + (n - 232) * 10;
  return `#${hex(grey)}${hex(grey)}${hex(grey)}`;
}

const colour = (c: Colour | undefined, fallback: string) =>
  c === undefined ? fallback : typeof c === 'number' ? paletteColour(c) : c;

/** Columns a character takes, as a terminal (tmux) counts them: the CLI's own count. */
export const cellWidth = (ch: string): number => partWidth(ch);

/** Applies one SGR sequence's parameters to a style (a new object). */
function applySgr(style: Style, params: string): Style {
  const p = params.split(/[;:]/).map((s) => (s === '' ? 0 : Number(s)));
  const s = { ...style };
  for (let i = 0; i < p.length; i++) {
    const n = p[i];
    if (n === 0) for (const k of Object.keys(s)) delete s[k as keyof Style];
    else if (n === 1) s.bold = true;
    else if (n === 2) s.dim = true;
    else if (n === 3) s.italic = true;
    else if (n === 4) s.underline = true;
    else if (n === 7) s.reverse = true;
    else if (n === 22) {
      delete s.bold;
      delete s.dim;
    } else if (n === 23) delete s.italic;
    else if (n === 24) delete s.underline;
    else if (n === 27) delete s.reverse;
    else if (n >= 30 && n <= 37) s.fg = n - 30;
    else if (n >= 90 && n <= 97) s.fg = n - 90 + 8;
    else if (n === 39) delete s.fg;
    else if (n >= 40 && n <= 47) s.bg = n - 40;
    else if (n >= 100 && n <= 107) s.bg = n - 100 + 8;
    else if (n === 49) delete s.bg;
    else if (n === 38 || n === 48) {
      const key = n === 38 ? 'fg' : 'bg';
      if (p[i + 1] === 5) {
        s[key] = p[i + 2] & 255;
        i += 2;
      } else if (p[i + 1] === 2) {
        s[key] = `#${hex(p[i + 2] & 255)}${hex(p[i + 3] & 255)}${hex(p[i + 4] & 255)}`;
        i += 4;
      }
    }
  }
  return s;
}

const STYLE_KEYS = ['fg', 'bg', 'bold', 'dim', 'italic', 'underline', 'reverse'] as const;
const sameStyle = (a: Style, b: Style) => STYLE_KEYS.every((k) => a[k] === b[k]);
const visibleWhenBlank = (s: Style) => s.bg !== undefined || s.reverse === true;

/** SGR sequences (group 1: their parameters) and every other escape sequence or control, which are dropped. */
const ESCAPES =
  /\u001b\[([0-9;:]*)m|\u001b\[[0-9;:?<=>]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[P^_X][^\u001b]*(?:\u001b\\)?|\u001b[@-Z\\-_]?|[\u0000-\u0009\u000b-\u001f\u007f]/gu;

/**
 * The rows of a captured screen as runs of one style each. The style carries over from row to
 * row, as it does on the terminal; blanks at the end of a row and blank rows at the end go.
 */
export function parseScreen(screen: string): Run[][] {
  let style: Style = {};
  const rows: Run[][] = [];
  for (const line of screen.replace(/\r?\n$/, '').split(/\r?\n/)) {
    const runs: Run[] = [];
    let col = 0;
    const put = (text: string) => {
      for (const ch of text) {
        const w = cellWidth(ch);
        const last = runs.at(-1);
        if (last && (w === 0 || sameStyle(last.style, style))) {
          last.text += ch;
          last.width += w;
        } else runs.push({ col, text: ch, width: w, style });
        col += w;
      }
    };
    let at = 0;
    for (const m of line.matchAll(ESCAPES)) {
      put(line.slice(at, m.index));
      if (m[1] !== undefined) style = applySgr(style, m[1]);
      at = m.index + m[0].length;
    }
    put(line.slice(at));
    rows.push(trimRow(runs));
  }
  while (rows.length > 0 && rows.at(-1)!.length === 0) rows.pop();
  return rows;
}

/** Drops the blanks that would show nothing at the end of a row. */
function trimRow(runs: Run[]): Run[] {
  while (runs.length > 0) {
    const last = runs.at(-1)!;
    if (visibleWhenBlank(last.style)) break;
    const kept = last.text.trimEnd();
    if (kept === last.text) break;
    if (kept === '') {
      runs.pop();
      continue;
    }
    last.width -= last.text.length - kept.length;
    last.text = kept;
    break;
  }
  return runs;
}

/** The text of a row, its runs placed at their columns (for `from`, and for tests). */
export const rowText = (runs: Run[]): string =>
  runs.reduce((line, r) => `${line}${' '.repeat(Math.max(0, r.col - line.length))}${r.text}`, '');

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

const num = (n: number) => String(Math.round(n * 100) / 100);

/** One run: its background (when it has one) and its text, stretched to its cells. */
function drawRun(run: Run, x0: number, top: number): string {
  const s = run.style;
  let fg = colour(s.fg, FOREGROUND);
  let bg = s.bg === undefined ? undefined : colour(s.bg, BACKGROUND);
  if (s.reverse) [fg, bg] = [bg ?? BACKGROUND, fg];
  const x = x0 + run.col * CELL_W;
  const width = run.width * CELL_W;
  const rect = bg ? `<rect x="${num(x)}" y="${num(top)}" width="${num(width)}" height="${LINE_H}" fill="${bg}"/>` : '';
  if (run.text.trim() === '') return rect;
  const attrs = [
    `x="${num(x)}"`,
    `y="${num(top + LINE_H * 0.75)}"`,
    `textLength="${num(width)}"`,
    fg === FOREGROUND ? '' : `fill="${fg}"`,
    s.bold ? 'font-weight="bold"' : '',
    s.dim ? 'opacity="0.6"' : '',
    s.italic ? 'font-style="italic"' : '',
    s.underline ? 'text-decoration="underline"' : '',
  ].filter(Boolean);
  return `${rect}<text ${attrs.join(' ')}>${escapeXml(run.text)}</text>`;
}

/** Screens stacked as terminal windows of `cols` columns, each with its title in the title bar. */
export function screensToSvg(panels: Panel[], cols: number): string {
  const width = 2 * PAD + cols * CELL_W;
  const parts: string[] = [];
  let top = 0;
  for (const panel of panels) {
    let rows = parseScreen(panel.screen);
    const from = panel.from;
    if (from) {
      const first = rows.findIndex((r) => from.test(rowText(r)));
      if (first > 0) rows = rows.slice(first);
    }
    const height = TITLE_H + 2 * PAD + rows.length * LINE_H;
    parts.push(
      `<g transform="translate(0 ${num(top)})">`,
      `<rect width="${num(width)}" height="${num(height)}" rx="8" fill="${BACKGROUND}" stroke="#3c3c3c"/>`,
      `<path d="M0 ${TITLE_H}h${num(width)}" stroke="#3c3c3c"/>`,
      ...['#ff5f56', '#ffbd2e', '#27c93f'].map((c, i) => `<circle cx="${18 + i * 18}" cy="14" r="5.5" fill="${c}"/>`),
      `<text class="title" x="${num(width / 2)}" y="18.5" text-anchor="middle">${escapeXml(panel.title)}</text>`,
      `<g fill="${FOREGROUND}">`,
      ...rows.flatMap((runs, r) => runs.map((run) => drawRun(run, PAD, TITLE_H + PAD + r * LINE_H))),
      '</g>',
      '</g>',
    );
    top += height + GAP;
  }
  const height = Math.max(0, top - GAP);
  const label = escapeXml(panels.map((p) => p.title).join(' / '));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" role="img" aria-label="${label}" xml:space="preserve">`,
    `<title>${label}</title>`,
    '<style>',
    `text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace;font-size:${FONT_SIZE}px;white-space:pre}`,
    'text.title{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:12px;fill:#9d9d9d}',
    '</style>',
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
