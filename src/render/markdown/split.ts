// Where Markdown text can be cut so that each part parses alone as it does within the whole: the
// text before such a point is complete (nothing after it can change how it reads), so a stream
// renders it once, and a long text is parsed part by part, yielding in between. Conservative:
// a point is taken only where a block must start: a line at the left edge after a blank line; a
// heading or a fence at the left edge; a bullet, or the next number of a list, at the left edge
// of a list; the line after a closed fence. Never inside a fence. And, so that no part takes
// long to parse, where a part already holds SPLIT_AT characters (a block that long reads the same
// but for a row ended early), and before and after a line too long to parse, which is shown as
// written (written.ts).
import { LONG_LINE } from './written.js';

/** A part holding this many characters is cut before its next line (outside a fence). */
export const SPLIT_AT = 16 * 1024;

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const HEADING = /^#{1,6}(\s|$)/;
const BULLET = /^[-*+][ \t]+\S/;
const ORDERED = /^(\d{1,9})[.)][ \t]+\S/;

export class Splitter {
  private fence: { char: string; length: number } | undefined;
  private blank = false;
  private inList = false;
  private afterFence = false;
  private lines = 0;
  /** Characters since the last cut, and whether the line before was too long to parse. */
  private size = 0;
  private afterLong = false;

  /** Whether the text can be cut before this line (the lines before it are complete). */
  cutBefore(line: string): boolean {
    const outside = this.fence === undefined;
    const cut = this.blockStarts(line);
    const long = line.length > LONG_LINE;
    const forced = outside && (this.size >= SPLIT_AT || long || this.afterLong);
    this.afterLong = long && outside && this.fence === undefined;
    const first = this.lines === 1;
    const at = !first && (cut || forced);
    this.size = (at ? 0 : this.size) + line.length + 1;
    return at;
  }

  /** Whether a line too long to parse was the last: it is complete, nothing after it changes it. */
  get endsLong(): boolean {
    return this.afterLong;
  }

  /** Whether a block must start at this line (the Markdown reasons above). */
  private blockStarts(line: string): boolean {
    const first = this.lines++ === 0;
    if (this.fence) {
      const m = FENCE.exec(line);
      if (m && m[2][0] === this.fence.char && m[2].length >= this.fence.length && m[3].trim() === '') {
        this.fence = undefined;
        this.afterFence = true;
      }
      return false;
    }
    if (line.trim() === '') {
      this.blank = true;
      return false;
    }
    const edge = !/^\s/.test(line);
    const fence = FENCE.exec(line);
    const bullet = edge && BULLET.test(line);
    const ordered = edge ? ORDERED.exec(line) : null;
    let cut =
      this.afterFence ||
      (edge && this.blank) ||
      (edge && HEADING.test(line)) ||
      (fence !== null && edge) ||
      bullet ||
      (ordered !== null && (this.inList || ordered[1] === '1'));
    if (fence && !(fence[2][0] === '`' && fence[3].includes('`')))
      this.fence = { char: fence[2][0], length: fence[2].length };
    if (edge) this.inList = bullet || ordered !== null || (this.inList && !this.blank && !HEADING.test(line));
    this.blank = false;
    this.afterFence = false;
    if (first) cut = false;
    return cut;
  }

  /** Inside an open fence now (what follows is code). */
  get inFence(): boolean {
    return this.fence !== undefined;
  }
}

/** The text cut into parts at the points above, one after the other (a long text is not walked at once). */
export function* parts(text: string): Generator<string> {
  const s = new Splitter();
  let start = 0;
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    if (s.cutBefore(text.slice(at, nl < 0 ? text.length : nl)) && at > start) {
      yield text.slice(start, at);
      start = at;
    }
    at = end;
  }
  if (start < text.length) yield text.slice(start);
}

/** All the parts of a text. */
export const splitParts = (text: string): string[] => [...parts(text)];
