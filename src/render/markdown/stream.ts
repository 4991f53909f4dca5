// The agent's Markdown as it streams in, as rows for the pretty view's playback. Complete parts
// (split.ts: the text before a point where a block must start) are rendered once, at the width
// asked, and never change. The open end renders tolerantly, so nothing raw flickers: a last line
// still coming shows once its first word is whole (so `#`, `-` or `1.` alone never show as text),
// an unclosed `**`, `` ` ``, `~~`, `_` or `[` on it is left out (its text shows plain) until it
// closes, an open fence shows as code, and lines that may be a table being written (they start
// with `|`) wait until the table is complete. The playback redraws the rows that change.
// A long text is laid out as it is shown, not before: rows() lays out at most AT_ONCE characters
// of it a call, more() a slice more, so its first rows show as soon as they are laid out, and
// Ctrl-C never waits on the rest (prepare() lays it all out, yielding, where that is what is wanted).
import { partSlices, renderPart } from './render.js';
import { Splitter } from './split.js';
import type { Theme } from './theme.js';
import { LONG_LINE, SLICE_CHARS } from './written.js';

/** Characters of complete text that rows() or more() lays out at most in one call (a plan of ordinary size: all of it). */
export const AT_ONCE = 16 * 1024;

interface Part {
  source: string;
  rows?: string[];
  width?: number;
}

export interface DocRows {
  rows: string[];
  /** How many of the first rows are final (complete parts). */
  final: number;
}

export class MarkdownStream {
  private readonly splitter = new Splitter();
  private readonly parts: Part[] = [];
  private open: string[] = [];
  private tail = '';
  private closed = false;
  /** Goes up with every change of the text. */
  version = 0;
  private cache?: { width: number; version: number; laid: number; rows: DocRows };
  private finalRows: string[] = [];
  private finalWidth = -1;
  private finalParts = 0;
  /** Characters of the complete parts, and of those laid out at `finalWidth`. */
  private total = 0;
  private laid = 0;
  /** The part being laid out a slice at a time, and its rows so far (in the final rows already). */
  private slicing?: { part: Part; slices: Generator<string[]>; rows: string[] };

  constructor(private readonly theme: Theme) {}

  get done(): boolean {
    return this.closed;
  }

  /** A complete line of the text (sanitized, without its newline). */
  line(text: string): void {
    if (this.closed) return;
    if (this.splitter.cutBefore(text) && this.open.length) this.completeOpen();
    this.open.push(text.replace(/\t/g, '    '));
    // A line too long to parse is complete at once (shown as written): never laid out as the open end.
    if (this.splitter.endsLong) this.completeOpen();
    this.version++;
  }

  /** The last line, still coming (sanitized); '' when none. */
  setTail(text: string): void {
    // A line still coming that is already too long to parse shows once it is complete.
    const tail = text.length > LONG_LINE ? '' : text;
    if (this.closed || tail === this.tail) return;
    this.tail = tail;
    this.version++;
  }

  /** No more text: the open part is complete. */
  close(): void {
    if (this.closed) return;
    this.tail = '';
    if (this.open.length) this.completeOpen();
    this.closed = true;
    this.version++;
  }

  /** Stops here: what was not rendered yet is left out (after Ctrl-C); what was shown stays. */
  drop(): void {
    this.parts.splice(this.finalParts);
    this.total = this.laid;
    this.open = [];
    this.tail = '';
    this.closed = true;
    this.version++;
  }

  /** Characters of complete text not laid out yet at this width (after Ctrl-C, a large amount is left out). */
  pending(width: number): number {
    return this.finalWidth === width ? this.total - this.laid : this.total;
  }

  /** Renders the complete parts at `width`, a few milliseconds at a time; false when the signal aborted first. */
  async prepare(width: number, signal?: AbortSignal, sliceMs = 20): Promise<boolean> {
    let since = performance.now();
    while (this.renderStep(width)) {
      if (performance.now() - since > sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
        if (signal?.aborted) return false;
      }
    }
    return true;
  }

  /**
   * The rows laid out at `width`, after laying out up to AT_ONCE more characters: all of a text
   * of ordinary size; of a longer one, the rows so far (more() lays out the rest). The open end
   * shows once everything before it is laid out.
   */
  rows(width: number): DocRows {
    const cached = this.cache;
    if (cached && cached.width === width && cached.version === this.version && cached.laid === this.laidRows(width))
      return cached.rows;
    this.layOut(width, AT_ONCE);
    const open = this.pending(width) === 0 ? this.openRows(width) : [];
    const rows = { rows: open.length ? [...this.finalRows, ...open] : this.finalRows, final: this.finalRows.length };
    this.cache = { width, version: this.version, laid: this.finalRows.length, rows };
    return rows;
  }

  /** Lays out a slice more of a long text at `width` (its rows then come from rows()); false when nothing is left to lay out. */
  more(width: number): boolean {
    if (this.pending(width) === 0) return false;
    this.layOut(width, AT_ONCE);
    this.version++;
    return true;
  }

  /** Lays out complete parts at `width` until about `chars` characters are laid out, or none is left. */
  private layOut(width: number, chars: number): void {
    let n = 0;
    for (let step = this.renderStep(width); step > 0; step = n < chars ? this.renderStep(width) : 0) n += step;
  }

  private laidRows(width: number): number {
    return this.finalWidth === width ? this.finalRows.length : -1;
  }

  private completeOpen(): void {
    const source = `${this.open.join('\n')}\n`;
    this.parts.push({ source });
    this.total += source.length;
    this.open = [];
  }

  /**
   * Renders a slice of the next complete part not rendered at `width` (a part of ordinary size
   * at once, one shown as written a slice at a time); about how many characters it laid out, 0
   * when there is none.
   */
  private renderStep(width: number): number {
    if (this.finalWidth !== width) {
      this.finalRows = [];
      this.finalWidth = width;
      this.finalParts = 0;
      this.laid = 0;
      this.slicing = undefined;
    }
    const part = this.parts[this.finalParts];
    if (!part) return 0;
    if (part.width !== width) {
      // A part's rows are final as they come (a part shown as written comes a slice at a time).
      if (this.slicing?.part !== part)
        this.slicing = { part, slices: partSlices(part.source, width, this.theme), rows: [] };
      const next = this.slicing.slices.next();
      if (!next.done) {
        for (const row of next.value) {
          this.slicing.rows.push(row);
          this.finalRows.push(row);
        }
        return Math.min(SLICE_CHARS, part.source.length);
      }
      part.rows = this.slicing.rows;
      part.width = width;
      this.slicing = undefined;
    } else for (const row of part.rows as string[]) this.finalRows.push(row);
    this.finalParts++;
    this.laid += part.source.length;
    return 1 + (part.rows as string[]).length;
  }

  private openRows(width: number): string[] {
    let lines = this.open;
    let tail = this.closed ? '' : this.tail;
    if (!this.closed && !this.splitter.inFence) {
      // A table shows once it is complete: its rows set each other's widths.
      let k = lines.length;
      while (k > 0 && /^ {0,3}\|/.test(lines[k - 1] as string)) k--;
      if (k < lines.length || /^ {0,3}\|/.test(tail)) {
        lines = lines.slice(0, k);
        tail = '';
      }
    }
    tail = tolerantTail(tail, this.splitter.inFence);
    if (lines.length === 0 && tail === '') return [];
    const source = lines.length ? `${lines.join('\n')}\n${tail}` : tail;
    return renderPart(source, width, this.theme);
  }
}

/**
 * The last line while it still comes: nothing until its first word is whole (it may be a
 * marker), a fence's closer-to-be held back, and inline markers not closed yet left out.
 */
export function tolerantTail(tail: string, inFence: boolean): string {
  if (tail === '') return '';
  if (inFence) return /^\s*(`+|~+)\s*$/.test(tail) ? '' : tail;
  if (!/\s/.test(tail.trimStart())) return '';
  return withoutOpenMarkers(tail);
}

/** Removes the opening markers that have no closer yet: a code span's, `**`, `__`, `~~`, `*`, `_`, a link's. */
export function withoutOpenMarkers(text: string): string {
  let t = text;
  // A code span: backquote runs pair with the next run of the same length.
  let open: { at: number; length: number } | undefined;
  for (const m of t.matchAll(/`+/g)) {
    if (open && m[0].length === open.length) open = undefined;
    else if (!open) open = { at: m.index, length: m[0].length };
  }
  if (open) t = t.slice(0, open.at) + t.slice(open.at + open.length);
  // Outside code spans, the emphasis markers.
  const code = /(`+)[\s\S]*?\1/g;
  const masked = t.replace(code, (s) => '\u0000'.repeat(s.length));
  const cutLast = (re: RegExp, len: number) => {
    const hits = [...masked.matchAll(re)].map((m) => m.index + (m[0].length - len));
    if (hits.length % 2 === 1) {
      const at = hits.at(-1) as number;
      t = `${t.slice(0, at)}${'\u0001'.repeat(len)}${t.slice(at + len)}`;
    }
  };
  cutLast(/\*\*/g, 2);
  cutLast(/~~/g, 2);
  cutLast(/(^|[\s(])__/g, 2);
  cutLast(/(?<!\*)\*(?![\s*])/g, 1);
  cutLast(/(^|[\s(])_(?![\s_])/g, 1);
  t = t.replace(/\u0001/g, '');
  // A link: its text shows; an address still coming does not.
  const bracket = t.lastIndexOf('[');
  if (bracket >= 0 && !t.slice(bracket).includes(']')) t = t.slice(0, bracket) + t.slice(bracket + 1);
  else if (bracket >= 0) {
    const dest = t.indexOf('](', bracket);
    if (dest >= 0 && !t.slice(dest).includes(')')) t = t.slice(0, bracket) + t.slice(bracket + 1, dest);
  }
  const angle = /<(?=[a-zA-Z])[^>]*$/.exec(t);
  if (angle) t = t.slice(0, angle.index) + t.slice(angle.index + 1);
  return t;
}
