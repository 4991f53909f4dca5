// `sitebuilder backup list <site>`: the site backups (pages, components and settings).
import { recordsOf } from '../../api/paginate.js';
import { printTable } from '../../io/print.js';
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { readSiteBackup } from '../../service/backups.js';
import { known } from '../../service/read.js';
import { newestFirst } from '../../service/time.js';
import { columnWatch } from '../listing.js';
import { formatWhen } from '../storage-backup/format.js';

export const list = defineCommand({
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
    const read = recordsOf('list_backups', result).map(readSiteBackup);
    const { records, sorted } = newestFirst(read, (b) => known(b.created));
    if (!sorted) ctx.io.warn('some backups show no creation time, so they are in the service’s order.');
    if (ctx.globals.json) return ctx.io.printJson(records.map((b) => b.raw));
    const tty = ctx.io.stdoutIsTTY;
    const watch = columnWatch<(typeof records)[number]>([
      { header: 'ID', read: (b) => b.id, value: (b) => known(b.id) },
      { header: 'BACKUP ID', read: (b) => b.backupId, value: (b) => known(b.backupId) },
      { header: 'TYPE', read: (b) => b.type, value: (b) => known(b.type) },
      { header: 'LABEL', read: (b) => b.label, value: (b) => known(b.label) },
      { header: 'CREATED', read: (b) => b.created, value: (b) => formatWhen(known(b.created), tty) },
    ]);
    printTable(ctx.io, watch.columns, records);
    watch.report(ctx.io, 'backups', records.length);
  },
});
