// What every listing command shares (docs/scripting.md "Listings"): a JSON array streamed one
// record at a time and always closed, columns that say when the service sent none of their
// fields, and "newest first" kept by sorting on a time the records show.
import { formatCount } from '../../api/limits.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import type { IO } from '../../io/io.js';
import { cellText, type Column } from '../../io/print.js';
import { isUnread, type Read } from '../../service/read.js';
import { jsonText } from '../../io/sanitize.js';

/** Marks an error raised after part of a listing was printed: how much, for stderr and the JSON error. */
function markIncomplete(io: IO, err: unknown, printed: number, noun: string): void {
  if (err instanceof CliError) Object.assign(err.details, { incomplete: true, printed });
  io.warn(`the ${formatCount(printed)} ${noun} printed above are only part of the list.`);
}

/**
 * Streams records as one JSON array. The `[` is written with the first record, so a listing
 * that fails before any record leaves stdout empty; one that fails later still leaves one
 * closed, valid array, and the error (exit code, stderr) says it is incomplete.
 */
export async function writeJsonArray(io: IO, records: AsyncIterable<unknown>, noun = 'records'): Promise<number> {
  let printed = 0;
  try {
    for await (const record of records) {
      const text = jsonText(record);
      await io.write(`${printed === 0 ? '[\n' : ',\n'}${text}`);
      printed++;
    }
  } catch (err) {
    if (printed > 0) {
      io.outLine('\n]');
      markIncomplete(io, err, printed, noun);
    }
    throw err;
  }
  io.outLine(printed === 0 ? '[]' : '\n]');
  return printed;
}

/** Streams records as NDJSON, one a line; a failure after some lines says they are incomplete. */
export async function writeJsonLines(io: IO, records: AsyncIterable<unknown>, noun = 'records'): Promise<number> {
  let printed = 0;
  try {
    for await (const record of records) {
      await io.write(`${jsonText(record)}\n`);
      printed++;
    }
  } catch (err) {
    if (printed > 0) markIncomplete(io, err, printed, noun);
    throw err;
  }
  return printed;
}

/** Streams records as tab-separated rows; a failure after some rows says they are incomplete. */
export async function writeRows<R>(
  io: IO,
  columns: Column<R>[],
  rows: AsyncIterable<R>,
  noun = 'records',
): Promise<number> {
  let printed = 0;
  try {
    for await (const row of rows) {
      await io.write(`${columns.map((c) => cellText(c.value(row)).replace(/\t/g, ' ')).join('\t')}\n`);
      printed++;
    }
  } catch (err) {
    if (printed > 0) markIncomplete(io, err, printed, noun);
    throw err;
  }
  return printed;
}

/** A column of a field of the service's records, read by the model (src/service/). */
export interface FieldColumn<R> extends Column<R> {
  /** The field as the model read it: a column no row could fill is said, with where it was looked for. */
  read?: (row: R) => Read<unknown>;
}

/**
 * Watches which columns' fields were read in at least one record; `report` says once, on stderr,
 * which never were (an empty column is otherwise indistinguishable from empty values).
 */
export function columnWatch<R>(columns: FieldColumn<R>[]) {
  const found = new Set<FieldColumn<R>>();
  const looked = new Map<FieldColumn<R>, readonly string[]>();
  const watched: Column<R>[] = columns.map((c) => ({
    header: c.header,
    free: c.free,
    value: (row: R) => {
      if (c.read && !found.has(c)) {
        const v = c.read(row);
        if (!isUnread(v)) found.add(c);
        else if (!looked.has(c)) looked.set(c, v.looked);
      }
      return c.value(row);
    },
  }));
  return {
    columns: watched,
    /** After `shown` rows were printed: one warning per column none of whose fields any record had. */
    report(io: IO, noun: string, shown: number): void {
      if (shown === 0) return;
      for (const c of columns) {
        if (!c.read || found.has(c)) continue;
        io.warn(`the service sent no ${c.header} for these ${noun} (looked for ${(looked.get(c) ?? []).join(', ')}).`);
      }
    },
  };
}

/** After one page of a page-numbered list: how to see the next, when there is (or may be) one. */
export function morePagesHint(ctx: Context, more: boolean | 'maybe', page = 1): void {
  if (!more) return;
  ctx.io.info(
    `${more === 'maybe' ? 'There may be more (the service did not say)' : 'More'} on the next page: --page ${page + 1}, or --all.`,
  );
}

/** After a record's fields were printed: those its answer did not give (left empty), named on stderr. */
export function sayLeftEmpty(ctx: Context, missing: string[], from = 'the service’s answer'): void {
  if (missing.length) ctx.io.info(`Not in ${from}, so left empty: ${missing.join(', ')}.`);
}

/** After messages were printed: how many had a text in a form that cannot be read (`noun`: "queued message"). */
export function sayUnreadTexts(ctx: Context, untold: number, noun: string): void {
  if (untold)
    ctx.io.info(
      `The service sent the text of ${untold} ${noun}${untold === 1 ? '' : 's'} in a form sitebuilder cannot read, left empty; --json shows ${untold === 1 ? 'it' : 'them'}.`,
    );
}
