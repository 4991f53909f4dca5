// `sitebuilder backup list <site>`: the site backups (pages, components and settings).
import { itemsOf } from '../../api/paginate.js';
import { printTable } from '../../io/print.js';
import { idOf, pickString } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { defineCommand } from '../../core/define.js';
import { createdAt, formatWhen, labelOf } from '../storage-backup/format.js';

export interface BackupListOptions {
  site?: string;
}

export const list = defineCommand<BackupListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the site backups (pages, components, settings)',
  description:
    'Lists the backups of the site’s pages, components and settings, newest first. Either the ID or the BACKUP ID column ' +
    'can be given to `backup restore`. Backups of type automatic labelled Pre-restore Backup were taken before a restore and undo it.',
  args: [{ name: 'site', description: 'site id (default: `site use` or SITEBUILDER_SITE)' }],
  examples: ['sitebuilder backup list s_123', 'sitebuilder backup list s_123 --json | jq -r ".[0]._id"'],
  jsonFields: 'an array of backup records as the service sends them (_id, BackupId, type, label, createdAt, …)',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const { envelope } = await ctx.api().call('list_backups', { projectId: siteId }, { signal: ctx.signal });
    const items = itemsOf(envelope.data);
    if (ctx.globals.json) return ctx.io.printJson(items);
    const tty = ctx.io.stdoutIsTTY;
    printTable(
      ctx.io,
      [
        { header: 'ID', value: (b) => idOf(b) },
        { header: 'BACKUP ID', value: (b) => pickString(b, 'BackupId') ?? '' },
        { header: 'TYPE', value: (b) => pickString(b, 'type') ?? '' },
        { header: 'LABEL', value: (b) => labelOf(b) },
        { header: 'CREATED', value: (b) => formatWhen(createdAt(b), tty) },
      ],
      items.map((b) => sanitizeDeep(b)),
    );
  },
});
