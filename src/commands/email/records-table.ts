// The DNS records on a terminal, for a person to copy into a DNS host's form: no value is ever
// cut. No borders (they would end up in the selection). Where every record fits on a line, a
// table; otherwise each record is a block, its name and type on the first line, then `host`,
// the extra columns and `value`, each whole beside its key, or whole on a line of its own when
// it is wider than the room beside the keys (the terminal folds a value wider than itself, and
// copying it still gives one line). Piped and --json output are rows and documents elsewhere.
import type { IO } from '../../io/io.js';
import { columnWidths } from '../../io/layout.js';
import { cellText, printTable } from '../../io/print.js';
import { style } from '../../io/style.js';
import { displayWidth, padWidth } from '../../io/width.js';
import type { DnsRecord } from './records.js';

interface ExtraColumn<R> {
  header: string;
  value: (r: R) => string;
}

/** Prints the records, every value whole. */
export function printRecordsTable<R extends DnsRecord>(io: IO, records: R[], extra: ExtraColumn<R>[] = []): void {
  const columns = [
    { header: 'RECORD', value: (r: R) => r.label },
    { header: 'TYPE', value: (r: R) => r.type },
    { header: 'HOST', value: (r: R) => r.host },
    ...extra,
    { header: 'VALUE', value: (r: R) => r.value },
  ];
  const cells = records.map((r) => columns.map((c) => cellText(c.value(r)).trim()));
  const fits = columnWidths(
    columns.map((c) => ({ header: c.header, free: false })),
    cells,
    io.columns,
  );
  if (fits || !io.stdoutIsTTY) {
    printTable(io, columns, records);
    return;
  }
  const bold = (text: string) => style(io).bold(text);
  const keys = ['host', ...extra.map((c) => c.header.toLowerCase()), 'value'];
  const keyWidth = Math.max(...keys.map(displayWidth));
  const room = io.columns - 2 - keyWidth - 2;
  const lines: string[] = [];
  cells.forEach((row, i) => {
    if (i > 0) lines.push('');
    lines.push(bold([row[0], row[1]].filter(Boolean).join('  ')));
    keys.forEach((key, k) => {
      const value = row[k + 2];
      if (!value) return;
      if (displayWidth(value) <= room) lines.push(`  ${padWidth(key, keyWidth)}  ${value}`);
      // Whole, on a line of its own: indented when that keeps it within the terminal.
      else lines.push(`  ${key}`, `${displayWidth(value) + 4 <= io.columns ? '    ' : ''}${value}`);
    });
  });
  io.outLine(lines.join('\n'));
}
