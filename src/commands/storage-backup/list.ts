// `sitebuilder storage-backup list <site>`: storage backups, one page (page numbers) or all.
import { listByPage } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import { printTable } from '../../io/print.js';
import { pickString } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { defineCommand, parsePositiveInt } from '../../core/define.js';
import {
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
    'Lists the backups of the site’s stored files, newest first, with their size, number of files and status. ' +
    'Backups still being archived, failed, or in an older format cannot be restored; the STATUS column says so. ' +
    'Shows one page (the first by default); --all reads every page.',
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
    'an array of storage backup records as the service sends them (backupId, createdAt, sizeBytes, files, status, type, label, …)',
  async run(opts, ctx) {
    if (opts.all && opts.page !== undefined) throw new UsageError('Use either --all or --page, not both.');
    const siteId = ctx.site(opts.site);
    const client = ctx.api();
    const { items, more } = await listByPage(
      client,
      'list_storage_backups',
      { projectId: siteId },
      { page: opts.page, all: opts.all, signal: ctx.signal },
    );
    if (ctx.globals.json) return ctx.io.printJson(items);
    const tty = ctx.io.stdoutIsTTY;
    printTable(
      ctx.io,
      [
        { header: 'ID', value: (b) => storageBackupId(b) },
        { header: 'CREATED', value: (b) => formatWhen(createdAt(b), tty) },
        { header: 'SIZE', value: (b) => (tty ? formatBytes(sizeOf(b)) : (sizeOf(b) ?? '')) },
        { header: 'FILES', value: (b) => fileCountOf(b) ?? '' },
        { header: 'TYPE', value: (b) => pickString(b, 'type') ?? '' },
        { header: 'STATUS', value: (b) => statusText(b) },
        { header: 'LABEL', value: (b) => labelOf(b) },
      ],
      items.map((b) => sanitizeDeep(b)),
    );
    if (more) ctx.io.info(`More on the next page: --page ${(opts.page ?? 1) + 1}, or --all.`);
  },
});
