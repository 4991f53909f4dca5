// `sitebuilder storage-backup list <site>`: storage backups, one page (page numbers) or all.
import { listByPage } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import { printTable } from '../../io/print.js';
import { pickString } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { defineCommand, parsePositiveInt, SERVICE_EXITS } from '../../core/define.js';
import { columnWatch, morePagesHint, newestFirst } from '../listing.js';
import {
  BACKUP_FIELDS,
  createdAt,
  fileCountOf,
  formatBytes,
  formatWhen,
  labelOf,
  sizeOf,
  statusText,
  storageBackupId,
} from './format.js';

export interface StorageBackupListOptions {
  site?: string;
  page?: number;
  all?: boolean;
}

export const list = defineCommand<StorageBackupListOptions>({
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
    const { records, sorted } = newestFirst(page.items, createdAt);
    if (!sorted) ctx.io.warn('some storage backups show no creation time, so they are in the service’s order.');
    if (ctx.globals.json) return ctx.io.printJson(records);
    const tty = ctx.io.stdoutIsTTY;
    const watch = columnWatch<unknown>([
      { header: 'ID', fields: ['backupId', '_id', 'id'], value: (b) => storageBackupId(b) },
      { header: 'CREATED', fields: BACKUP_FIELDS.created, value: (b) => formatWhen(createdAt(b), tty) },
      {
        header: 'SIZE',
        fields: BACKUP_FIELDS.size,
        value: (b) => (tty ? formatBytes(sizeOf(b)) : (sizeOf(b) ?? '')),
      },
      { header: 'FILES', fields: BACKUP_FIELDS.files, value: (b) => fileCountOf(b) ?? '' },
      { header: 'TYPE', fields: ['type'], value: (b) => pickString(b, 'type') ?? '' },
      { header: 'STATUS', fields: ['status', 'state', 'restorable'], value: (b) => statusText(b) },
      { header: 'LABEL', fields: BACKUP_FIELDS.label, value: (b) => labelOf(b) },
    ]);
    printTable(
      ctx.io,
      watch.columns,
      records.map((b) => sanitizeDeep(b)),
    );
    watch.report(ctx.io, 'storage backups', records.length);
    morePagesHint(ctx, page.more, opts.page);
  },
});
