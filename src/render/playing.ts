// The state of a text the playback (playback.ts) is showing, and what is done to it when its rows
// cannot be redrawn (freeze) or the terminal's width changes (refit): what was shown stays, and
// the rest goes on from the letters and digits already shown, which do not change when a text is
// laid out at another width.
import { partWidth } from '../io/width.js';
import { restOfRow, rowLetters } from './row-words.js';
import type { RowSource } from './text-rows.js';

/** Where the playback writes: the terminal's stdout through the IO object. */
export interface PlaybackOutput {
  /** Appends text (whole rows, each ending with a newline). */
  write(text: string): void;
  /** Replaces the last `rows` rows of the terminal with `text`. */
  rewrite(rows: number, text: string): void;
  /** Whether the last `rows` rows of the terminal can be rewritten (on the screen, nothing else written since `writes`). */
  canRewrite(rows: number, writes: number): boolean;
  /** How many times anything was written to the terminal (IO.writes). */
  writes(): number;
  columns(): number;
}

export interface Playing {
  source: RowSource;
  version: number;
  width: number;
  rows: string[];
  /** Rows of `rows` before `base` are not on the screen as this playback can redraw them. */
  base: number;
  /** The rows on the screen from `base` on, as written (the last may be shown in part). */
  shown: string[];
  /** Words of the last shown row on the screen (when it is shown in part). */
  words: number;
  /** Whether the last shown row is whole. */
  whole: boolean;
  /** Letters shown that the rows before `base` do not hold (a row shown in part, then laid out anew). */
  before: number;
  /** A row replaced by what is left of it to show. */
  patch?: { at: number; row: string };
  /** IO.writes after the last write of this playback. */
  mark: number;
}

/** Terminal rows a row of ours takes (one wider than the terminal is folded by it). */
export function screenRows(row: string, cols: number): number {
  let w = 0;
  for (const ch of row.replace(/[\ue000-\uf8ff]|\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g, ''))
    w += partWidth(ch);
  return Math.max(1, Math.ceil(w / cols));
}

/** The rows to show, one of them replaced by what is left of it (after a resize, or a row that could not be redrawn). */
export function setRows(c: Playing, rows: string[], patch: Playing['patch']): void {
  c.patch = patch;
  c.rows = patch && patch.at < rows.length ? rows.with(patch.at, patch.row) : rows;
}

/** Letters (and digits) of the text on the screen: what a resize goes on from. */
export function lettersShown(c: Playing): number {
  let n = c.before;
  const end = c.base + c.shown.length - (c.whole ? 0 : 1);
  for (let i = 0; i < end; i++) n += rowLetters(c.rows[i] as string);
  return c.whole ? n : n + rowLetters(c.shown.at(-1) as string);
}

/** The rows shown become part of the past: the text goes on from the first row not shown whole. */
export function freeze(c: Playing): void {
  c.base += c.shown.length - (c.whole ? 0 : 1);
  if (!c.whole) c.before += rowLetters(c.shown.at(-1) ?? '');
  if (!c.whole) {
    // The row shown in part stays as it is; its rest follows on a new row.
    const row = c.rows[c.base];
    if (row !== undefined) setRows(c, c.rows, { at: c.base, row: restOfRow(row, rowLetters(c.shown.at(-1) ?? '')) });
  }
  c.shown = [];
  c.whole = true;
  c.words = 0;
}

/**
 * The terminal's width changed (SIGWINCH) while text plays: what is shown stays; the rest is
 * laid out at the new width and goes on from the letters already shown (the row shown in part
 * is finished first when it still fits one row).
 */
export function refit(c: Playing, width: number, out: PlaybackOutput, redraw: boolean): void {
  const cols = out.columns();
  if (!c.whole) {
    const row = c.rows[c.base + c.shown.length - 1] as string;
    const shown = c.shown.at(-1) as string;
    if (redraw && screenRows(row, cols) === 1 && screenRows(shown, cols) === 1 && out.canRewrite(1, c.mark)) {
      out.rewrite(1, `${row}\n`);
      c.shown[c.shown.length - 1] = row;
      c.whole = true;
    }
  }
  const shown = lettersShown(c);
  let { rows } = c.source.rows(width);
  let at = 0;
  let seen = 0;
  for (;;) {
    while (at < rows.length && seen + rowLetters(rows[at] as string) <= shown) seen += rowLetters(rows[at++] as string);
    // A long text laid out as it is shown: laid out anew as far as the letters shown.
    if (at < rows.length || !c.source.more?.(width)) break;
    rows = c.source.rows(width).rows;
  }
  // The row where the text goes on shows what is left of it.
  const next = rows[at];
  setRows(c, rows, next !== undefined && seen < shown ? { at, row: restOfRow(next, shown - seen) } : undefined);
  c.before = shown - seen;
  c.width = width;
  c.version = c.source.version;
  c.base = at;
  c.shown = [];
  c.whole = true;
  c.words = 0;
  c.mark = out.writes();
}
