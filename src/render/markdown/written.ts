// Text too long to parse as Markdown in one piece, shown as it was written: a line longer than
// LONG_LINE (a log, a blob, a 1 MB line without a space) is a part of its own (split.ts), and a
// part that grows past WRITTEN_PART all the same (a huge fenced block) is not parsed either. Its
// lines wrap between words, a word wider than the row is cut into rows of the width, and the
// rows come a slice at a time, so the caller yields between slices and Ctrl-C is honoured while
// a megabyte lays out. Everything else renders as Markdown (render.ts).
import { displayWidth, fitWidth } from '../../io/width.js';

/** A line longer than this is shown as written, in a part of its own. */
export const LONG_LINE = 64 * 1024;
/** A part longer than this (only a fenced block grows so: split.ts cuts the rest) is shown as written. */
export const WRITTEN_PART = 256 * 1024;
/** Characters of text laid out before a slice of rows is handed over. */
export const SLICE_CHARS = 16 * 1024;

/** Whether a part is shown as written rather than parsed: too long, or holding a line too long. */
export function shownAsWritten(source: string): boolean {
  if (source.length > WRITTEN_PART) return true;
  if (source.length <= LONG_LINE) return false;
  let at = 0;
  while (at < source.length) {
    const nl = source.indexOf('\n', at);
    const end = nl < 0 ? source.length : nl;
    if (end - at > LONG_LINE) return true;
    at = end + 1;
  }
  return false;
}

const ASCII = /^[\x20-\x7e]*$/;
const widthOf = (s: string) => (ASCII.test(s) ? s.length : displayWidth(s));

/** The rows of `source` as written at `width` columns, a slice at a time. */
export function* writtenRows(source: string, width: number): Generator<string[]> {
  const w = Math.max(1, width);
  let rows: string[] = [];
  let laid = 0;
  let at = 0;
  const text = source.endsWith('\n') ? source.slice(0, -1) : source;
  while (at <= text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    let row = '';
    let used = 0;
    const words = /(\s*)(\S+)/gy;
    words.lastIndex = at;
    for (let m = words.exec(text); m && m.index < end; m = words.exec(text)) {
      // A match runs past the line's end only through the newline: the rest is the next line's.
      const gap = m[1].includes('\n') ? '' : m[1];
      if (m.index + m[0].length > end) break;
      let word = m[2];
      const ww = widthOf(word);
      if (row !== '' && used + widthOf(gap) + ww <= w) {
        row += gap + word;
        used += widthOf(gap) + ww;
      } else {
        if (row !== '') rows.push(row);
        // A word wider than the row: rows of the width, the rest starts the next row. Measured a
        // window at a time: a megabyte without a space is not measured again for every row.
        let from = 0;
        while (word.length - from > 4 * w || widthOf(word.slice(from)) > w) {
          const window = word.slice(from, from + 2 * w);
          const head = (ASCII.test(window) ? window.slice(0, w) : fitWidth(window, w)) || word.slice(from, from + 1);
          rows.push(head);
          from += head.length;
          laid += head.length;
          if (laid >= SLICE_CHARS) {
            yield rows;
            rows = [];
            laid = 0;
          }
        }
        word = word.slice(from);
        row = word;
        used = widthOf(word);
      }
      laid += m[0].length;
      if (laid >= SLICE_CHARS) {
        yield rows;
        rows = [];
        laid = 0;
      }
    }
    rows.push(row);
    if (nl < 0) break;
    at = nl + 1;
  }
  if (rows.length) yield rows;
}
