// The three output modes of a list: a table on a TTY, fitted to the terminal's width at the
// moment it prints (layout.ts), tab-separated rows when piped (no header, full values, ISO-8601
// times, no ANSI byte), and one JSON document with --json.
import type { IO } from './io.js';
import { stringifyJson } from './json-deep.js';
import { layoutBlocks, layoutTable, type LayoutColumn } from './layout.js';
import { markOwnSgr, sanitizeInline } from './sanitize.js';
import { displayWidth } from './width.js';
import { wrapLine } from './width.js';

export interface Column<R> {
  header: string;
  /** Text of the cell; values from the service are sanitized here. */
  value: (row: R) => unknown;
  /**
   * Free text (a name, a label, a description): on a terminal it may be cut with … to fit the
   * width. Ids, times, counts and commands are never cut. Unset: free when the header says a
   * NAME, LABEL, TITLE, DESCRIPTION, SUMMARY or MESSAGE.
   */
  free?: boolean;
}

/** Bold, marked as our own colour; without chalk, which a listing would otherwise load. */
const bold = (io: IO) => (io.color ? (text: string) => markOwnSgr(`\u001b[1m${text}\u001b[22m`) : undefined);

const FREE_HEADERS = /^(NAME|LABEL|TITLE|DESCRIPTION|SUMMARY|MESSAGE)$/;

export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return sanitizeInline(stringifyJson(value) ?? '');
  return sanitizeInline(String(value));
}

/** Whether a column is free text (Column.free, else its header). */
export const isFree = (c: { header: string; free?: boolean }) => c.free ?? FREE_HEADERS.test(c.header);

/** The outputs that already said a value was cut: said once per command, however many tables it prints. */
const toldCut = new WeakSet<IO>();

/**
 * Says once, on stderr, that values were cut with … to fit the terminal, and how to see them
 * whole (docs/guide.md "Fitting the terminal"): `| cat` or --json for a table; for a picker,
 * `how` names the listing that shows its rows. Only to a terminal; silent under --quiet and --json.
 */
export function sayCut(io: IO, how?: string): void {
  if (toldCut.has(io) || !io.stderrIsTTY) return;
  toldCut.add(io);
  io.info(
    how
      ? `Labels cut with … to fit show whole in \`${how}\`.`
      : 'Values cut with … to fit show whole with `| cat` or --json.',
  );
}

/**
 * Rows as a table fitted to the terminal (or key/value blocks below its minimum width); tab-
 * separated when piped. Where a value was cut to fit, says so once (sayCut); answers whether one was.
 */
export function printTable<R>(io: IO, columns: Column<R>[], rows: Iterable<R>): boolean {
  if (!io.stdoutIsTTY) {
    for (const row of rows) io.outLine(columns.map((c) => cellText(c.value(row)).replace(/\t/g, ' ')).join('\t'));
    return false;
  }
  const cells: string[][] = [];
  for (const row of rows) cells.push(columns.map((c) => cellText(c.value(row)).trim()));
  if (cells.length === 0) {
    io.errLine('Nothing to show.');
    return false;
  }
  const layout = layoutTable(
    columns.map((c) => ({ header: c.header, free: isFree(c) })),
    cells,
    io.columns,
    bold(io),
  );
  io.outLine(layout.lines.join('\n'));
  if (layout.cut) sayCut(io);
  return layout.cut;
}

/** The same rows, always as key/value blocks (one record per block), for lists too wide for columns. */
export function printBlocks(io: IO, columns: LayoutColumn[], rows: string[][]): boolean {
  const layout = layoutBlocks(columns, rows, io.columns, bold(io));
  io.outLine(layout.lines.join('\n'));
  if (layout.cut) sayCut(io);
  return layout.cut;
}

/**
 * Key/value lines for one record; tab-separated when piped. On a TTY the values stand aligned
 * beside the keys; text too wide for the room there wraps at word boundaries beside them while
 * that room is 20 columns or more. Otherwise (one word, or a narrow room) the value goes on the
 * line under its key, indented: whole when it fits there (a time, an id, an address), else
 * wrapped; one word wider than the terminal stays whole (the terminal folds it).
 */
export function printFields(io: IO, fields: Array<[string, unknown]>): void {
  const width = Math.max(...fields.map(([k]) => displayWidth(k)));
  const columns = io.columns;
  const room = columns - width - 2;
  for (const [k, v] of fields) {
    const text = cellText(v);
    if (!io.stdoutIsTTY) {
      io.outLine(`${k}\t${text}`);
      continue;
    }
    const w = displayWidth(text);
    const oneWord = !/\s/.test(text.trim());
    if (w <= room) io.outLine(`${k.padEnd(width)}  ${text}`.trimEnd());
    else if (room >= MIN_ROOM && !oneWord)
      io.outLine(
        wrapLine(text, room, 0)
          .map((l, i) => `${(i === 0 ? k : '').padEnd(width)}  ${l}`)
          .join('\n'),
      );
    else if (w + 2 <= columns) io.outLine(`${k}\n  ${text}`);
    else if (oneWord) io.outLine(`${k}\n${text}`);
    else io.outLine(`${k}\n${wrapLine(`  ${text}`, columns, 0).join('\n')}`);
  }
}

/** Below this many columns beside the keys, long text wraps under its key rather than beside it. */
const MIN_ROOM = 20;
