// `sitebuilder code-backup list <site>`: code backups, one page at a time (page numbers) or all.
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { readCodeBackup } from '../../service/backups.js';
import { isUnread, known } from '../../service/read.js';
import { formatWhen } from '../shared/format.js';
import { listBackupPages, PAGE_OPTIONS, PAGED_BACKUPS_HELP } from '../shared/backup-list.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the code backups of a site',
  description:
    'Lists the code backups of the site, newest first by their creation time: the files the agent had written at that point. ' +
    PAGED_BACKUPS_HELP,
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  options: PAGE_OPTIONS,
  examples: [
    'sitebuilder code-backup list s_123',
    'sitebuilder code-backup list s_123 --all --json | jq -r ".[].codeBackupId"',
  ],
  jsonFields:
    'an array of code backup records as the service sends them (codeBackupId, createdAt, label, files, …), newest first',
  async run(opts, ctx) {
    await listBackupPages(ctx, opts.site, opts, {
      method: 'list_code_backups',
      noun: 'code backups',
      read: readCodeBackup,
      columns: (tty) => [
        { header: 'ID', read: (b) => b.id, value: (b) => known(b.id) },
        { header: 'CREATED', read: (b) => b.created, value: (b) => formatWhen(known(b.created), tty) },
        { header: 'FILES', read: (b) => b.files, value: (b) => known(b.files) },
        {
          header: 'LABEL',
          // A label, else the run it was taken after: a column neither fills is said.
          read: (b) => (isUnread(b.label) ? b.run : b.label),
          value: (b) => known(b.label) ?? known(b.run),
        },
      ],
    });
  },
});
