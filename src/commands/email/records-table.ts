// The DNS records as a table on a terminal. No borders: values are copied from here into a DNS
// host's form, and borders would end up in the selection. VALUE comes last and long values
// (DKIM keys) are cut with … so that a line fits the terminal; host names are never cut, and
// where they do not fit beside each other every record becomes a block of lines (io/layout.ts).
// Piped and --json keep every value whole.
import type { IO } from '../../io/io.js';
import { cellText, printTable } from '../../io/print.js';
import type { DnsRecord } from './records.js';

interface ExtraColumn<R> {
  header: string;
  value: (r: R) => string;
}

/** Prints the records; answers whether a value was cut to fit. */
export function printRecordsTable<R extends DnsRecord>(io: IO, records: R[], extra: ExtraColumn<R>[] = []): boolean {
  return printTable(
    io,
    [
      { header: 'RECORD', value: (r) => r.label },
      { header: 'TYPE', value: (r) => r.type },
      { header: 'HOST', value: (r) => r.host },
      ...extra,
      { header: 'VALUE', value: (r) => cellText(r.value), free: true },
    ],
    records,
  );
}
