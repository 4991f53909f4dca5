// The rows of the text being played (playing.ts) onto the terminal (playback.ts says when). The
// row being played is rewritten in place (cursor up, clear, print it longer), always ending with
// a newline so that the live block below (IO.liveBlock) can clear and redraw its own rows. When
// rows already shown change (a `**` closed, a line completed), they are redrawn in place, as long
// as they are still on the screen and nothing else was written since; what scrolled into the
// scrollback is never rewritten. Where the terminal cannot redraw, rows are printed whole, one
// line after the other.
import { freeze, type PlaybackOutput, type Playing, refit, screenRows, setRows } from './playing.js';
import { rowPrefix, rowWords } from './row-words.js';

/** Rows shown that are kept to compare with what a text becomes (a terminal shows fewer). */
const KEPT_ROWS = 500;

/** The row to show next (or the one shown in part), if any. */
export function rowAt(c: Playing): string | undefined {
  const i = c.base + c.shown.length - (c.whole ? 0 : 1);
  return c.rows[i];
}

/**
 * Shows up to `n` more words: the row shown in part goes on (rewritten), then whole rows, in
 * one write, then the first words of a row (all of it where the terminal cannot redraw). The
 * words shown (at least 1).
 */
export function showRows(
  c: Playing,
  out: PlaybackOutput,
  redraw: boolean,
  n: number,
  maxRows = Number.POSITIVE_INFINITY,
): number {
  let left = n;
  let rows = 0;
  let text = '';
  const flush = () => {
    if (text) out.write(text);
    text = '';
  };
  if (!c.whole) {
    const row = rowAt(c) as string;
    const total = rowWords(row);
    const to = Math.min(total, c.words + left);
    const shown = to >= total ? row : rowPrefix(row, to);
    out.rewrite(screenRows(c.shown.at(-1) as string, out.columns()), `${shown}\n`);
    c.shown[c.shown.length - 1] = shown;
    left -= Math.max(1, to - c.words);
    c.words = to;
    c.whole = to >= total;
  }
  while (left > 0 && c.whole && rows++ < maxRows) {
    const row = rowAt(c);
    if (row === undefined) break;
    // Everything at once (a flush): whole rows, their words not counted.
    if (left === Number.POSITIVE_INFINITY) {
      text += `${row}\n`;
      c.shown.push(row);
      continue;
    }
    const total = rowWords(row);
    const to = redraw ? Math.min(total, left) : total;
    const shown = to >= total ? row : rowPrefix(row, to);
    text += `${shown}\n`;
    c.shown.push(shown);
    left -= Math.max(1, to);
    c.words = to;
    c.whole = to >= total;
  }
  flush();
  // Only the rows a terminal still shows can be redrawn: older ones need not be kept.
  if (c.shown.length > KEPT_ROWS) {
    const gone = c.shown.length - KEPT_ROWS;
    c.base += gone;
    c.shown = c.shown.slice(gone);
  }
  c.mark = out.writes();
  return n - left;
}

/** Brings the text up to date at `width`: a new width lays out the rest anew; changed rows are redrawn. */
export function syncRows(c: Playing, width: number, out: PlaybackOutput, redraw: boolean): void {
  if (width !== c.width) {
    refit(c, width, out, redraw);
    return;
  }
  if (c.source.version === c.version) return;
  c.version = c.source.version;
  setRows(c, c.source.rows(width).rows, c.patch);
  const rows = c.rows;
  // The first row on the screen that is no longer what it shows.
  const d = c.shown.findIndex((shown, i) => {
    const row = rows[c.base + i];
    const partial = i === c.shown.length - 1 && !c.whole;
    return row === undefined || (partial ? rowPrefix(row, c.words) !== shown && row !== shown : row !== shown);
  });
  if (d < 0) return;
  if (!redraw) {
    // Nothing can be redrawn: the rows shown stay, and the text goes on after them.
    freeze(c);
    return;
  }
  const up = c.shown.slice(d).reduce((n, r) => n + screenRows(r, out.columns()), 0);
  if (!out.canRewrite(up, c.mark)) {
    freeze(c);
    return;
  }
  const redrawn = rows.slice(c.base + d, c.base + c.shown.length);
  const lastWords = c.whole ? Number.POSITIVE_INFINITY : c.words;
  const last = redrawn.length - 1;
  const text = redrawn.map((r, i) => (i === last && lastWords < rowWords(r) ? rowPrefix(r, lastWords) : r));
  out.rewrite(up, text.map((t) => `${t}\n`).join(''));
  c.whole = last < 0 || text[last] === redrawn[last];
  c.words = last < 0 ? 0 : Math.min(lastWords, rowWords(redrawn[last] as string));
  c.shown = [...c.shown.slice(0, d), ...text];
  c.mark = out.writes();
}
