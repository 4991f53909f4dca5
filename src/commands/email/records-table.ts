// The DNS records as a table on a terminal. No borders: values are copied from here into a DNS
// host's form, and borders would end up in the selection. VALUE comes last and long values
// (DKIM keys) are cut with … so that a line fits the terminal; piped and --json keep them whole.
import type { IO } from '../../io/io.js';
import { cellText } from '../../io/print.js';
import { style } from '../../io/style.js';
import type { DnsRecord } from './records.js';

const GAP = '  ';
const MIN_VALUE_WIDTH = 16;

interface ExtraColumn<R> {
  header: string;
  value: (r: R) => string;
}

/** Prints the records; answers whether a value was cut to fit. */
export function printRecordsTable<R extends DnsRecord>(io: IO, records: R[], extra: ExtraColumn<R>[] = []): boolean {
  const columns: ExtraColumn<R>[] = [
    { header: 'RECORD', value: (r) => r.label },
    { header: 'TYPE', value: (r) => r.type },
    { header: 'HOST', value: (r) => r.host },
    ...extra,
  ];
  const widths = columns.map((c) => Math.max(c.header.length, ...records.map((r) => cellText(c.value(r)).length)));
  const room = Math.max(io.columns - widths.reduce((sum, w) => sum + w + GAP.length, 0), MIN_VALUE_WIDTH);
  let cut = false;
  const fit = (value: string) => {
    if (value.length <= room) return value;
    cut = true;
    return `${value.slice(0, room - 1)}…`;
  };
  const line = (cells: string[], value: string) => [...cells.map((c, i) => c.padEnd(widths[i])), value].join(GAP);
  io.outLine(
    style(io).bold(
      line(
        columns.map((c) => c.header),
        'VALUE',
      ),
    ),
  );
  for (const r of records)
    io.outLine(
      line(
        columns.map((c) => cellText(c.value(r))),
        fit(cellText(r.value)),
      ),
    );
  return cut;
}
