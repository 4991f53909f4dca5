// The lines of a picker (docs/guide.md "Fitting the terminal"): each choice is a row of cells,
// the label (a date, a name, a size…) first and its id last, aligned in columns across the
// rows as a table is, on one line of the terminal each. Where the rows do not fit, they give
// way in this order: the free cell (the name or label text) is cut with … down to 20 columns,
// a cell with shorter forms takes them (a date without its time), optional cells go (a file
// count, then a size), the free cell is cut further, and last the id goes: the label is what a
// person reads to pick, and the picked line names the id whole.
import { cutWidth, displayWidth, padWidth } from './width.js';

/** A cell: its text, or its forms from the most detailed to the shortest. */
export type ChoiceCell = string | string[];

export interface ChoiceRow {
  cells: ChoiceCell[];
  /** Shown last, whole, or not at all. */
  id: string;
}

export interface ChoiceLayoutOptions {
  /** The cell that is cut with … to fit (default: the last). */
  free?: number;
  /** Cells that may be left out, the first one first. */
  optional?: number[];
}

const GAP = '  ';
/** enquirer draws `▸ ` before each line, and the terminal's last column stays free. */
const MARGIN = 3;
/** The free cell is cut down to this before shorter forms and optional cells are tried… */
const FREE_EASY = 20;
/** …then to this… */
const FREE_MIN = 12;
/** …and to this before the id goes. */
const FREE_LAST = 6;

interface Shape {
  form: number[];
  dropped: Set<number>;
  freeMax: number;
  withId: boolean;
}

const forms = (cell: ChoiceCell): string[] => (typeof cell === 'string' ? [cell] : cell.length ? cell : ['']);

/** The rows' lines; `cut`: some text was cut with … to fit (a hint then says where to see it whole). */
export interface ChoiceLines {
  lines: string[];
  cut: boolean;
}

/** Each row's line within `columns`: the cells aligned, the id last. */
export const layoutChoices = (columns: number, rows: ChoiceRow[], options: ChoiceLayoutOptions = {}): string[] =>
  fitChoices(columns, rows, options).lines;

/** layoutChoices, and whether it cut some text with … */
export function fitChoices(columns: number, rows: ChoiceRow[], options: ChoiceLayoutOptions = {}): ChoiceLines {
  const count = Math.max(0, ...rows.map((r) => r.cells.length));
  const free = options.free ?? count - 1;
  const room = Math.max(1, columns - MARGIN);
  const text = (row: ChoiceRow, i: number, shape: Shape) => {
    const f = forms(row.cells[i] ?? '');
    return f[Math.min(shape.form[i], f.length - 1)];
  };
  // Every column as wide as its widest cell (the free one capped); empty columns take no room.
  const widths = (shape: Shape) =>
    Array.from({ length: count }, (_, i) => {
      if (shape.dropped.has(i)) return 0;
      const w = Math.max(0, ...rows.map((r) => displayWidth(text(r, i, shape))));
      return i === free ? Math.min(w, shape.freeMax) : w;
    });
  const idWidth = Math.max(0, ...rows.map((r) => displayWidth(r.id)));
  const total = (shape: Shape) => {
    const parts = [...widths(shape).filter((w) => w > 0), ...(shape.withId && idWidth ? [idWidth] : [])];
    return parts.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, parts.length - 1);
  };
  const shape: Shape = {
    form: Array(count).fill(0),
    dropped: new Set(),
    freeMax: Number.POSITIVE_INFINITY,
    withId: true,
  };
  // The free cell may give way down to `floor`: as much as the rest leaves it.
  const squeeze = (floor: number) => {
    const over = total(shape) - room;
    if (over <= 0) return true;
    const now = widths(shape)[free] ?? 0;
    shape.freeMax = Math.max(Math.min(floor, now), now - over);
    return total(shape) <= room;
  };
  const steps: Array<() => void> = [];
  for (let i = 0; i < count; i++) {
    const longest = Math.max(...rows.map((r) => forms(r.cells[i] ?? '').length));
    for (let k = 1; k < longest; k++) steps.push(() => (shape.form[i] = k));
  }
  for (const i of options.optional ?? []) steps.push(() => shape.dropped.add(i));
  let fits = squeeze(FREE_EASY);
  for (const step of steps) {
    if (fits) break;
    shape.freeMax = Number.POSITIVE_INFINITY;
    step();
    fits = squeeze(FREE_EASY);
  }
  if (!fits) fits = squeeze(FREE_MIN);
  if (!fits) fits = squeeze(FREE_LAST);
  if (!fits) {
    shape.withId = false;
    shape.freeMax = Number.POSITIVE_INFINITY;
    squeeze(1);
  }
  const w = widths(shape);
  let cut = false;
  const cutTo = (text: string, width: number) => {
    const shown = cutWidth(text, width);
    if (shown !== text) cut = true;
    return shown;
  };
  const lines = rows.map((row) => {
    const cells = w.flatMap((width, i) => {
      if (width === 0) return [];
      const shown = text(row, i, shape);
      return [i === free ? cutTo(shown, width) : shown];
    });
    const parts = [...cells, ...(shape.withId && idWidth ? [row.id] : [])];
    const widthsShown = [...w.filter((x) => x > 0), idWidth];
    const line = parts.map((p, i) => (i === parts.length - 1 ? p : padWidth(p, widthsShown[i]))).join(GAP);
    return cutTo(line.trimEnd(), room);
  });
  return { lines, cut };
}
