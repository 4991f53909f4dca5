// `sitebuilder backup list <site>`: the site backups (pages, components and settings).
import { answerList } from '../../api/answer.js';
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { readSiteBackup } from '../../service/backups.js';
import { known } from '../../service/read.js';
import { formatWhen } from '../shared/format.js';
import { printBackups } from '../shared/backup-list.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the site backups (pages, components, settings)',
  description:
    'Lists the backups of the site’s pages, components and settings, newest first by their creation time (if a backup shows none, in the service’s order, and stderr says so). Either the ID or the BACKUP ID column ' +
    'can be given to `backup restore`. Backups of type automatic labelled Pre-restore Backup were taken before a restore and undo it.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  examples: ['sitebuilder backup list s_123', 'sitebuilder backup list s_123 --json | jq -r ".[0]._id"'],
  jsonFields:
    'an array of backup records as the service sends them (_id, BackupId, type, label, createdAt, …), newest first',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const result = await ctx.api().call('list_backups', { projectId: siteId }, { signal: ctx.signal });
    printBackups(ctx, answerList('list_backups', result).map(readSiteBackup), 'backups', (tty) => [
      { header: 'ID', read: (b) => b.id, value: (b) => known(b.id) },
      { header: 'BACKUP ID', read: (b) => b.backupId, value: (b) => known(b.backupId) },
      { header: 'TYPE', read: (b) => b.type, value: (b) => known(b.type) },
      { header: 'LABEL', read: (b) => b.label, value: (b) => known(b.label) },
      { header: 'CREATED', read: (b) => b.created, value: (b) => formatWhen(known(b.created), tty) },
    ]);
  },
});
