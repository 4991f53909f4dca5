// Tables laid out to fit the terminal's width (docs/guide.md "Fitting the terminal"). Columns are
// separated by two spaces, without borders (what is selected to copy an id is the id). When the
// natural widths do not fit, the free-text columns (names, labels, descriptions) give way, the
// widest first, each down to a minimum, and are cut with …; ids, times, counts and commands are
// never cut. When that is not enough, every row becomes a block of `KEY  value` lines, where
// free text wraps at word boundaries (a single free word wider than the room is cut) and an id
// too wide to stand beside its key goes whole on the line under it. Pure: the printer (print.ts) gives it plain cells and the width.
import { cutWidth, displayWidth, padWidth } from './width.js';
import { wrapLine } from './width.js';

export const GAP = '  ';
/** A free column is not cut narrower than this (nor than its header): below it, rows become blocks. */
export const MIN_FREE_WIDTH = 10;

export interface LayoutColumn {
  header: string;
  /** Free text: may be cut with … to fit. */
  free: boolean;
}

export interface TableLayout {
  /** 'table': the header line first; 'blocks': one block of lines per row, blank lines between. */
  kind: 'table' | 'blocks';
  /** Lines without colour; in a table, line 0 is the header. */
  lines: string[];
  /** Whether a free value was shortened. */
  cut: boolean;
}

/** The widths the columns get within `width`, or undefined when even the narrowest do not fit. */
export function columnWidths(columns: LayoutColumn[], rows: string[][], width: number): number[] | undefined {
  const widths = columns.map((c, i) => Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  let excess = widths.reduce((a, b) => a + b, 0) + GAP.length * (columns.length - 1) - width;
  const floor = columns.map((c, i) =>
    c.free ? Math.min(widths[i], Math.max(MIN_FREE_WIDTH, displayWidth(c.header))) : widths[i],
  );
  while (excess > 0) {
    // The widest free column that can still give way gives one column, until the table fits.
    let widest = -1;
    for (let i = 0; i < widths.length; i++)
      if (widths[i] > floor[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
    if (widest < 0) return undefined;
    const second = Math.max(floor[widest], ...widths.filter((_, i) => i !== widest && widths[i] > floor[i]));
    const step = Math.max(1, Math.min(excess, widths[widest] - second));
    widths[widest] -= step;
    excess -= step;
  }
  return widths;
}

/** How headers and keys are painted (bold on a colour terminal); widths are measured before. */
type Paint = (text: string) => string;
const plain: Paint = (text) => text;

export function layoutTable(columns: LayoutColumn[], rows: string[][], width: number, paint = plain): TableLayout {
  const widths = columnWidths(columns, rows, width);
  if (!widths) return layoutBlocks(columns, rows, width, paint);
  let cut = false;
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => {
        const shown = cutWidth(cell, widths[i]);
        if (shown !== cell) cut = true;
        return i === cells.length - 1 ? shown : padWidth(shown, widths[i]);
      })
      .join(GAP)
      .trimEnd();
  const lines = [paint(line(columns.map((c) => c.header))), ...rows.map(line)];
  return { kind: 'table', lines, cut };
}

/** Each row as `KEY  value` lines: free text wraps under its value, ids stay whole. */
export function layoutBlocks(columns: LayoutColumn[], rows: string[][], width: number, paint = plain): TableLayout {
  const keyWidth = Math.max(...columns.map((c) => displayWidth(c.header)));
  const room = Math.max(1, width - keyWidth - GAP.length);
  const lines: string[] = [];
  let cut = false;
  rows.forEach((row, r) => {
    if (r > 0) lines.push('');
    columns.forEach((c, i) => {
      const value = row[i] ?? '';
      if (value === '') return;
      let parts = [value];
      if (!c.free && displayWidth(value) > room) {
        // An id too wide to stand beside the keys goes under its key, whole (the terminal folds
        // it only when it is wider than the terminal itself).
        lines.push(paint(c.header), `${displayWidth(value) + 2 <= width ? '  ' : ''}${value}`);
        return;
      }
      if (c.free) {
        // Wrapped in the room beside the keys; a single word wider than that room is cut.
        parts = wrapLine(value, room, 0).map((p) => {
          const shown = cutWidth(p, room);
          if (shown !== p) cut = true;
          return shown;
        });
      }
      parts.forEach((p, k) => {
        lines.push(`${k === 0 ? paint(padWidth(c.header, keyWidth)) : ' '.repeat(keyWidth)}${GAP}${p}`);
      });
    });
  });
  return { kind: 'blocks', lines, cut };
}
