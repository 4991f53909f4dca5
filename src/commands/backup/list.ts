// `sitebuilder backup list <site>`: the site backups (pages, components and settings).
import { recordsOf } from '../../api/paginate.js';
import { printTable } from '../../io/print.js';
import { idOf, pickString } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { columnWatch, newestFirst } from '../listing.js';
import { BACKUP_FIELDS, createdAt, formatWhen, labelOf } from '../storage-backup/format.js';

export interface BackupListOptions {
  site?: string;
}

export const list = defineCommand<BackupListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the site backups (pages, components, settings)',
  description:
    'Lists the backups of the site’s pages, components and settings, newest first by their creation time (if a backup shows none, in the service’s order, and stderr says so). Either the ID or the BACKUP ID column ' +
    'can be given to `backup restore`. Backups of type automatic labelled Pre-restore Backup were taken before a restore and undo it.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [{ name: 'site', description: 'site id (default: `site use` or SITEBUILDER_SITE)' }],
  examples: ['sitebuilder backup list s_123', 'sitebuilder backup list s_123 --json | jq -r ".[0]._id"'],
  jsonFields:
    'an array of backup records as the service sends them (_id, BackupId, type, label, createdAt, …), newest first',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const result = await ctx.api().call('list_backups', { projectId: siteId }, { signal: ctx.signal });
    const { records, sorted } = newestFirst(recordsOf('list_backups', result), createdAt);
    if (!sorted) ctx.io.warn('some backups show no creation time, so they are in the service’s order.');
    if (ctx.globals.json) return ctx.io.printJson(records);
    const tty = ctx.io.stdoutIsTTY;
    const watch = columnWatch<unknown>([
      { header: 'ID', fields: ['_id', 'id'], value: (b) => idOf(b) },
      { header: 'BACKUP ID', fields: ['BackupId'], value: (b) => pickString(b, 'BackupId') ?? '' },
      { header: 'TYPE', fields: ['type'], value: (b) => pickString(b, 'type') ?? '' },
      { header: 'LABEL', fields: BACKUP_FIELDS.label, value: (b) => labelOf(b) },
      { header: 'CREATED', fields: BACKUP_FIELDS.created, value: (b) => formatWhen(createdAt(b), tty) },
    ]);
    printTable(
      ctx.io,
      watch.columns,
      records.map((b) => sanitizeDeep(b)),
    );
    watch.report(ctx.io, 'backups', records.length);
  },
});
