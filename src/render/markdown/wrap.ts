// A line of painted fragments as rows of at most `width` columns, greedily between words (each
// row of a paragraph is final once the next one starts, which is what lets a streamed paragraph
// print row by row). Continuation rows start with their own prefix: the hanging indent of a list
// item, a quote's bar. A word wider than its row is cut at the edge; a code span or an address
// is never cut: it starts a row of its own, and one wider than the terminal is folded by the
// terminal, whole for copying. Linear in the text's length, whatever its shape (one unbroken
// megabyte included).
import { partWidth } from '../../io/width.js';
import type { Fragment, InlineLine } from './inline.js';
import type { Theme } from './theme.js';

export interface Prefix {
  /** Painted text before the row's content. */
  text: string;
  /** Its columns. */
  width: number;
}

/** Where a block is laid out: its width, its paints, how deep in lists (for the bullet's shape). */
export interface BlockContext {
  width: number;
  theme: Theme;
  depth: number;
}

export const prefix = (text: string, width = text.length): Prefix => ({ text, width });

/** Columns of plain text (no escape sequence): printable ASCII counted at once. */
export function plainWidth(text: string): number {
  let w = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) w++;
    else {
      const cp = text.codePointAt(i) as number;
      if (cp > 0xffff) i++;
      w += partWidth(String.fromCodePoint(cp));
    }
  }
  return w;
}

/** A word: fragments with no space between them ("**bold**," is bold then a comma). */
interface Word {
  parts: Fragment[];
  width: number;
  whole: boolean;
}

function wordsOf(line: InlineLine): Array<{ gap: number; word: Word }> {
  const out: Array<{ gap: number; word: Word }> = [];
  let gap = 0;
  let word: Word | undefined;
  for (const f of line) {
    if (f.whole) {
      // A code span or an address: one piece, glued to what touches it.
      if (!word) {
        word = { parts: [], width: 0, whole: true };
        out.push({ gap, word });
        gap = 0;
      }
      word.parts.push(f);
      word.width += plainWidth(f.text);
      word.whole = true;
      continue;
    }
    const text = f.text;
    RUNS.lastIndex = 0;
    for (let m = RUNS.exec(text); m; m = RUNS.exec(text)) {
      const run = m[0];
      if (isSpace(run)) {
        word = undefined;
        gap += run === ' ' ? 1 : plainWidth(run.replace(/\t/g, ' '));
        continue;
      }
      if (!word) {
        word = { parts: [], width: 0, whole: false };
        out.push({ gap, word });
        gap = 0;
      }
      // A fragment that is one word is its own part (most are): no copy.
      word.parts.push(run.length === text.length ? f : { ...f, text: run });
      word.width += plainWidth(run);
    }
  }
  return out;
}

/** Runs of white space, and of anything else. */
const RUNS = /\s+|\S+/g;

/** Whether a run of RUNS is white space (by its first character: ASCII at once). */
function isSpace(run: string): boolean {
  const c = run.charCodeAt(0);
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /^\s/.test(run));
}

const paintPart = (f: Fragment, theme: Theme, text: string) =>
  f.href && theme.link ? theme.link(f.href, f.paint(text)) : f.paint(text);

/** Cuts a word wider than a row into pieces of `room` columns (then `rest`), code point by code point. */
function cutWord(word: Word, first: number, rest: number): Fragment[][] {
  const rows: Fragment[][] = [[]];
  let room = Math.max(1, first);
  let used = 0;
  for (const f of word.parts) {
    let start = 0;
    for (let i = 0; i < f.text.length; ) {
      const cp = f.text.codePointAt(i) as number;
      const len = cp > 0xffff ? 2 : 1;
      const c = f.text.charCodeAt(i);
      const w = c >= 0x20 && c < 0x7f ? 1 : partWidth(String.fromCodePoint(cp));
      if (used + w > room && used > 0) {
        if (i > start) (rows.at(-1) as Fragment[]).push({ ...f, text: f.text.slice(start, i) });
        rows.push([]);
        room = Math.max(1, rest);
        used = 0;
        start = i;
      }
      used += w;
      i += len;
    }
    if (start < f.text.length) (rows.at(-1) as Fragment[]).push({ ...f, text: f.text.slice(start) });
  }
  return rows;
}

/** One line of fragments as rows within `width`, the first after `first`, the others after `rest`. */
export function wrapFragments(line: InlineLine, width: number, first: Prefix, rest: Prefix, theme: Theme): string[] {
  const rows: string[] = [];
  let row = first.text;
  let used = first.width;
  let empty = true;
  const room = (p: Prefix) => Math.max(1, width - p.width);
  const newRow = () => {
    rows.push(row);
    row = rest.text;
    used = rest.width;
    empty = true;
  };
  for (const { gap, word } of wordsOf(line)) {
    if (!empty && used + gap + word.width > width) newRow();
    else if (!empty) {
      row += ' '.repeat(gap);
      used += gap;
    }
    if (word.width <= width - used || word.whole) {
      // A code span or an address wider than its row keeps to a row of its own, whole.
      for (const f of word.parts) row += paintPart(f, theme, f.text);
      used += word.width;
      empty = false;
      continue;
    }
    const pieces = cutWord(word, width - used, room(rest));
    pieces.forEach((piece, i) => {
      if (i > 0) newRow();
      for (const f of piece) {
        row += paintPart(f, theme, f.text);
        used += plainWidth(f.text);
      }
      empty = false;
    });
  }
  rows.push(row);
  return rows;
}
