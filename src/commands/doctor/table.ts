// doctor's tables on a terminal. Laid out as the other commands' (io/layout.ts: columns two
// spaces apart, a table of `KEY  value` blocks when the columns cannot fit), except that nothing
// is ever cut: what doctor prints is copied into bug reports and searched for in the code. Text
// wraps at its spaces inside its column, never narrower than its longest word; a value that
// cannot wrap (a path, a method) keeps its whole width, and in a block goes whole under its key.
import type { IO } from '../../io/io.js';
import { GAP } from '../../io/layout.js';
import { cellText } from '../../io/print.js';
import { markOwnSgr } from '../../io/sanitize.js';
import { displayWidth, padWidth, wrapLine } from '../../io/width.js';

export interface DoctorColumn<R> {
  header: string;
  value(row: R): unknown;
  /** Text that may wrap at its spaces (a sentence, a description); else it keeps one line. */
  wraps?: boolean;
}

/** A wrapping column is given at least this much (or its natural width), so it stays readable. */
const MIN_WRAP = 12;

const longestWord = (text: string) => Math.max(0, ...text.split(/\s+/).map(displayWidth));

/** The widths that fit `width`, wrapping columns giving way widest first; undefined when they cannot. */
function fitWidths<R>(columns: DoctorColumn<R>[], cells: string[][], width: number): number[] | undefined {
  const widths = columns.map((c, i) => Math.max(displayWidth(c.header), ...cells.map((r) => displayWidth(r[i]))));
  const floor = columns.map((c, i) =>
    c.wraps
      ? Math.max(displayWidth(c.header), Math.min(widths[i], MIN_WRAP), ...cells.map((r) => longestWord(r[i])))
      : widths[i],
  );
  let excess = widths.reduce((a, b) => a + b, 0) + GAP.length * (columns.length - 1) - width;
  while (excess > 0) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++)
      if (widths[i] > floor[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
    if (widest < 0) return undefined;
    widths[widest]--;
    excess--;
  }
  return widths;
}

export function printDoctorTable<R>(io: IO, columns: DoctorColumn<R>[], rows: readonly R[]): void {
  const cells = rows.map((r) => columns.map((c) => cellText(c.value(r)).trim()));
  const bold = (text: string) => (io.color ? markOwnSgr(`\u001b[1m${text}\u001b[22m`) : text);
  const widths = fitWidths(columns, cells, io.columns);
  const out: string[] = [];
  if (widths) {
    const line = (parts: string[]) =>
      parts
        .map((p, i) => (i === parts.length - 1 ? p : padWidth(p, widths[i])))
        .join(GAP)
        .trimEnd();
    out.push(bold(line(columns.map((c) => c.header))));
    for (const row of cells) {
      const wrapped = row.map((text, i) => (columns[i].wraps ? wrapLine(text, widths[i], 0) : [text]));
      const height = Math.max(...wrapped.map((w) => w.length));
      for (let k = 0; k < height; k++) out.push(line(wrapped.map((w) => w[k] ?? '')));
    }
  } else out.push(...blocks(columns, cells, io.columns, bold));
  io.outLine(out.join('\n'));
}

/** Each row as `KEY  value` lines; a value that cannot stand beside its key goes under it, whole. */
function blocks<R>(columns: DoctorColumn<R>[], cells: string[][], width: number, bold: (t: string) => string) {
  const keyWidth = Math.max(...columns.map((c) => displayWidth(c.header)));
  const room = width - keyWidth - GAP.length;
  const out: string[] = [];
  cells.forEach((row, r) => {
    if (r > 0) out.push('');
    columns.forEach((c, i) => {
      const value = row[i];
      if (value === '') return;
      const lines = c.wraps ? wrapLine(value, room, 0) : [value];
      if (room < MIN_WRAP || lines.some((l) => displayWidth(l) > room)) {
        out.push(bold(c.header), ...(c.wraps ? wrapLine(value, width, 0) : [value]));
        return;
      }
      out.push(
        ...lines.map((l, k) => `${k === 0 ? bold(padWidth(c.header, keyWidth)) : ' '.repeat(keyWidth)}${GAP}${l}`),
      );
    });
  });
  return out;
}
