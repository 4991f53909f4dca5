// The three output modes of a list: a table on a TTY, tab-separated rows when piped (no
// header, ISO-8601 times, no ANSI byte), and one JSON document with --json.
import { createRequire } from 'node:module';
import type { IO } from './io.js';
import { markOwnSgr, sanitizeInline } from './sanitize.js';

export interface Column<R> {
  header: string;
  /** Text of the cell; values from the service are sanitized here. */
  value: (row: R) => unknown;
}

export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return sanitizeInline(JSON.stringify(value));
  return sanitizeInline(String(value));
}

export function printTable<R>(io: IO, columns: Column<R>[], rows: Iterable<R>): void {
  if (!io.stdoutIsTTY) {
    for (const row of rows) io.outLine(columns.map((c) => cellText(c.value(row)).replace(/\t/g, ' ')).join('\t'));
    return;
  }
  const require = createRequire(import.meta.url);
  const Table = require('cli-table3') as typeof import('cli-table3');
  const table = new Table({
    head: columns.map((c) => c.header),
    style: { head: io.color ? ['bold'] : [], border: io.color ? ['grey'] : [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    wordWrap: true,
  });
  let count = 0;
  for (const row of rows) {
    table.push(columns.map((c) => cellText(c.value(row))));
    count++;
  }
  if (count === 0) {
    io.errLine('Nothing to show.');
    return;
  }
  // The cells are sanitized, so every SGR sequence in the table is cli-table3's colour: ours.
  io.outLine(markOwnSgr(table.toString()));
}

/** Key/value lines for one record: aligned on a TTY, tab-separated when piped. */
export function printFields(io: IO, fields: Array<[string, unknown]>): void {
  const width = Math.max(...fields.map(([k]) => k.length));
  for (const [k, v] of fields) {
    const text = cellText(v);
    io.outLine(io.stdoutIsTTY ? `${k.padEnd(width)}  ${text}` : `${k}\t${text}`);
  }
}
