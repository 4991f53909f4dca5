// `sitebuilder code-backup list <site>`: code backups, one page at a time (page numbers) or all.
import { listByPage } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import { printTable } from '../../io/print.js';
import { defineCommand, parsePositiveInt, SERVICE_EXITS } from '../../core/define.js';
import { readCodeBackup } from '../../service/backups.js';
import { isUnread, known } from '../../service/read.js';
import { newestFirst } from '../../service/time.js';
import { columnWatch, morePagesHint } from '../listing.js';
import { formatWhen } from '../storage-backup/format.js';

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the code backups of a site',
  description:
    'Lists the code backups of the site, newest first by their creation time: the files the agent had written at that point. ' +
    'Shows one page (the first by default; the service decides which backups a page holds, and the page is sorted); --all reads every page and sorts them all. ' +
    'If a backup shows no creation time, they stay in the service’s order, and stderr says so.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [{ name: 'site', description: 'site id (default: `site use` or SITEBUILDER_SITE)' }],
  options: [
    { flags: '--page <n>', description: 'this page (pages start at 1)', parse: parsePositiveInt('--page') },
    { flags: '--all', description: 'every page' },
  ],
  examples: [
    'sitebuilder code-backup list s_123',
    'sitebuilder code-backup list s_123 --all --json | jq -r ".[].codeBackupId"',
  ],
  jsonFields:
    'an array of code backup records as the service sends them (codeBackupId, createdAt, label, files, …), newest first',
  async run(opts, ctx) {
    if (opts.all && opts.page !== undefined) throw new UsageError('Use either --all or --page, not both.');
    const siteId = ctx.site(opts.site);
    const client = ctx.api();
    const page = await listByPage(
      client,
      'list_code_backups',
      { projectId: siteId },
      { page: opts.page, all: opts.all, signal: ctx.signal },
    );
    const { records, sorted } = newestFirst(page.items.map(readCodeBackup), (b) => known(b.created));
    if (!sorted) ctx.io.warn('some code backups show no creation time, so they are in the service’s order.');
    if (ctx.globals.json) return ctx.io.printJson(records.map((b) => b.raw));
    const tty = ctx.io.stdoutIsTTY;
    const watch = columnWatch<(typeof records)[number]>([
      { header: 'ID', read: (b) => b.id, value: (b) => known(b.id) },
      { header: 'CREATED', read: (b) => b.created, value: (b) => formatWhen(known(b.created), tty) },
      { header: 'FILES', read: (b) => b.files, value: (b) => known(b.files) },
      {
        header: 'LABEL',
        // A label, else the run it was taken after: a column neither fills is said.
        read: (b) => (isUnread(b.label) ? b.run : b.label),
        value: (b) => known(b.label) ?? known(b.run),
      },
    ]);
    printTable(ctx.io, watch.columns, records);
    watch.report(ctx.io, 'code backups', records.length);
    morePagesHint(ctx, page.more, opts.page);
  },
});
