// Text as rows that fit the terminal, for the playback (playback.ts): a line of plain text cut
// between words (a word wider than a row cut at the edge), in time linear in its length; and
// what the playback reads rows from (a line, or the agent's Markdown as it streams in).

/** Columns a string takes, never under-estimated: every code point from U+1100 up counts as two. */
export function safeWidth(s: string): number {
  let w = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00) i++;
    w += c >= 0x1100 ? 2 : 1;
  }
  return w;
}

/**
 * A line cut into rows of at most `width` columns, between words where it can (a longer word is
 * cut). Linear in the line's length, whatever its shape.
 */
export function wrapRows(text: string, width: number): string[] {
  const max = Math.max(1, width);
  const rows: string[] = [];
  let row = '';
  let used = 0;
  for (const m of text.matchAll(/(\s*)(\S+)/g)) {
    const gap = m[1] as string;
    const word = m[2] as string;
    const w = safeWidth(word);
    const g = safeWidth(gap);
    if (row && used + g + w > max) {
      rows.push(row);
      row = '';
      used = 0;
    }
    if (row || rows.length === 0) {
      row += gap;
      used += g;
    }
    if (used + w <= max) {
      row += word;
      used += w;
      continue;
    }
    // Wider than a row: cut where it reaches the edge, code point by code point.
    let start = 0;
    for (let i = 0; i < word.length; ) {
      const c = word.charCodeAt(i);
      const len = c >= 0xd800 && c < 0xdc00 ? 2 : 1;
      const cw = c >= 0x1100 ? 2 : 1;
      if (used + cw > max && (used > 0 || i > start)) {
        rows.push(row + word.slice(start, i));
        row = '';
        used = 0;
        start = i;
      }
      used += cw;
      i += len;
    }
    row += word.slice(start);
  }
  if (row || rows.length === 0) rows.push(row);
  return rows;
}

/** What the playback shows: rows at a width, the first `final` of which never change. */
export interface RowSource {
  /** The rows laid out at `width`: all of them, or of a long text the first (see `more`). */
  rows(width: number): { rows: string[]; final: number };
  /** No more rows will come. */
  readonly done: boolean;
  /** Goes up when the rows may have changed. */
  readonly version: number;
  /** A long text laid out as it is shown: characters not laid out yet at `width` (after rows()). */
  pending?(width: number): number;
  /** Lays out a slice more of them at `width`; false when none is left. */
  more?(width: number): boolean;
}

/** A line of plain text as a row source. */
export function lineSource(text: string): RowSource {
  let cached: { width: number; rows: string[] } | undefined;
  return {
    done: true,
    version: 0,
    rows(width) {
      if (cached?.width !== width) cached = { width, rows: wrapRows(text, width) };
      return { rows: cached.rows, final: cached.rows.length };
    },
  };
}
