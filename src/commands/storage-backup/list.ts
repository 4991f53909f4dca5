// `sitebuilder storage-backup list <site>`: storage backups, one page (page numbers) or all.
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { readStorageBackup, type StorageBackup } from '../../service/backups.js';
import { isUnread, known } from '../../service/read.js';
import { listBackupPages, PAGE_OPTIONS, PAGED_BACKUPS_HELP } from '../shared/backup-list.js';
import { formatBytes, formatWhen } from '../shared/format.js';
import { statusText } from './status-text.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the storage backups of a site',
  description:
    'Lists the backups of the site’s stored files, newest first by their creation time, with their size, number of files and status. ' +
    'Backups still being archived, failed, or in an older format cannot be restored; the STATUS column says so. ' +
    PAGED_BACKUPS_HELP,
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  options: PAGE_OPTIONS,
  examples: [
    'sitebuilder storage-backup list s_123',
    'sitebuilder storage-backup list s_123 --all --json | jq -r ".[].backupId"',
  ],
  jsonFields:
    'an array of storage backup records as the service sends them (backupId, createdAt, sizeBytes, files, status, type, label, …), newest first',
  async run(opts, ctx) {
    const size = (b: StorageBackup) => known(b.size);
    await listBackupPages(ctx, opts.site, opts, {
      method: 'list_storage_backups',
      noun: 'storage backups',
      read: readStorageBackup,
      columns: (tty) => [
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
      ],
    });
  },
});
