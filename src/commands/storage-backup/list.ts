// `sitebuilder storage-backup list <site>`: storage backups, one page (page numbers) or all.
import { listByPage } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import { printTable } from '../../io/print.js';
import { defineCommand, parsePositiveInt, SERVICE_EXITS } from '../../core/define.js';
import { readStorageBackup, type StorageBackup } from '../../service/backups.js';
import { isUnread, known } from '../../service/read.js';
import { newestFirst } from '../../service/time.js';
import { columnWatch, morePagesHint } from '../listing.js';
import { formatBytes, formatWhen, statusText } from './format.js';

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the storage backups of a site',
  description:
    'Lists the backups of the site’s stored files, newest first by their creation time, with their size, number of files and status. ' +
    'Backups still being archived, failed, or in an older format cannot be restored; the STATUS column says so. ' +
    'Shows one page (the first by default; the service decides which backups a page holds, and the page is sorted); --all reads every page and sorts them all. ' +
    'If a backup shows no creation time, they stay in the service’s order, and stderr says so.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [{ name: 'site', description: 'site id (default: `site use` or SITEBUILDER_SITE)' }],
  options: [
    { flags: '--page <n>', description: 'this page (pages start at 1)', parse: parsePositiveInt('--page') },
    { flags: '--all', description: 'every page' },
  ],
  examples: [
    'sitebuilder storage-backup list s_123',
    'sitebuilder storage-backup list s_123 --all --json | jq -r ".[].backupId"',
  ],
  jsonFields:
    'an array of storage backup records as the service sends them (backupId, createdAt, sizeBytes, files, status, type, label, …), newest first',
  async run(opts, ctx) {
    if (opts.all && opts.page !== undefined) throw new UsageError('Use either --all or --page, not both.');
    const siteId = ctx.site(opts.site);
    const client = ctx.api();
    const page = await listByPage(
      client,
      'list_storage_backups',
      { projectId: siteId },
      { page: opts.page, all: opts.all, signal: ctx.signal },
    );
    const { records, sorted } = newestFirst(page.items.map(readStorageBackup), (b) => known(b.created));
    if (!sorted) ctx.io.warn('some storage backups show no creation time, so they are in the service’s order.');
    if (ctx.globals.json) return ctx.io.printJson(records.map((b) => b.raw));
    const tty = ctx.io.stdoutIsTTY;
    const size = (b: StorageBackup) => known(b.size);
    const watch = columnWatch<StorageBackup>([
      { header: 'ID', read: (b) => b.id, value: (b) => known(b.id) },
      { header: 'CREATED', read: (b) => b.created, value: (b) => formatWhen(known(b.created), tty) },
      { header: 'SIZE', read: (b) => b.size, value: (b) => (tty ? formatBytes(size(b)) : size(b)) },
      { header: 'FILES', read: (b) => b.files, value: (b) => known(b.files) },
      { header: 'TYPE', read: (b) => b.type, value: (b) => known(b.type) },
      {
        header: 'STATUS',
        read: (b) => (isUnread(b.status) ? b.restorable : b.status),
        value: (b) => statusText(b),
      },
      { header: 'LABEL', read: (b) => b.label, value: (b) => known(b.label) },
    ]);
    printTable(ctx.io, watch.columns, records);
    watch.report(ctx.io, 'storage backups', records.length);
    morePagesHint(ctx, page.more, opts.page);
  },
});
