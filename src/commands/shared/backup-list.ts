// What the three backup listings share (backup list, code-backup list, storage-backup list):
// newest first by the time each backup shows, or the service's order said on stderr; the
// records as the service sent them under --json, else a table whose empty columns are said.
import { listByPage } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { type OptionDefinition, parsePositiveInt } from '../../core/define.js';
import { UsageError } from '../../errors.js';
import { printTable } from '../../io/print.js';
import { known, type Read } from '../../service/read.js';
import { newestFirst } from '../../service/time.js';
import { columnWatch, type FieldColumn, morePagesHint } from './listing.js';

/** The flags of a listing by page numbers: one page, or every page. */
export const PAGE_OPTIONS = [
  { flags: '--page <n>', description: 'this page (pages start at 1)', parse: parsePositiveInt('--page') },
  { flags: '--all', description: 'every page' },
] as const satisfies readonly OptionDefinition[];

/** What a listing by page numbers shows, and in which order, as its help says it. */
export const PAGED_BACKUPS_HELP =
  'Shows one page (the first by default; the service decides which backups a page holds, and the page is sorted); --all reads every page and sorts them all. ' +
  'If a backup shows no creation time, they stay in the service’s order, and stderr says so.';

/** A backup as the service model reads it: its raw record and when it was taken. */
interface Backup {
  raw: unknown;
  created: Read<number>;
}

/**
 * Prints `backups` (called `noun`: "code backups") newest first; `columns` get whether stdout
 * is a terminal, for the times and sizes written for a person.
 */
export function printBackups<B extends Backup>(
  ctx: Context,
  backups: B[],
  noun: string,
  columns: (tty: boolean) => FieldColumn<B>[],
): void {
  const { records, sorted } = newestFirst(backups, (b) => known(b.created));
  if (!sorted) ctx.io.warn(`some ${noun} show no creation time, so they are in the service’s order.`);
  if (ctx.globals.json) {
    ctx.io.printJson(records.map((b) => b.raw));
    return;
  }
  const watch = columnWatch(columns(ctx.io.stdoutIsTTY));
  printTable(ctx.io, watch.columns, records);
  watch.report(ctx.io, noun, records.length);
}

/**
 * A listing by page numbers (`--page <n>` or `--all`) of the backups of the site (`site`, else
 * the default site) by `method`, read by `read` and printed as printBackups does, with the hint
 * to the next page.
 */
export async function listBackupPages<B extends Backup>(
  ctx: Context,
  site: string | undefined,
  options: { page?: number; all?: boolean },
  listing: { method: string; noun: string; read: (raw: unknown) => B; columns: (tty: boolean) => FieldColumn<B>[] },
): Promise<void> {
  if (options.all && options.page !== undefined) throw new UsageError('Use either --all or --page, not both.');
  const siteId = ctx.site(site);
  const page = await listByPage(
    ctx.api(),
    listing.method,
    { projectId: siteId },
    { page: options.page, all: options.all, signal: ctx.signal },
  );
  printBackups(ctx, page.items.map(listing.read), listing.noun, listing.columns);
  if (!ctx.globals.json) morePagesHint(ctx, page.more, options.page);
}
