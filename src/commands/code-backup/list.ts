// `sitebuilder code-backup list <site>`: code backups, one page at a time (page numbers) or all.
import { listByPage } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import { printTable } from '../../io/print.js';
import { pickString } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { defineCommand, parsePositiveInt } from '../../core/define.js';
import { codeBackupId, createdAt, fileCountOf, formatWhen, labelOf } from '../storage-backup/format.js';

export interface CodeBackupListOptions {
  site?: string;
  page?: number;
  all?: boolean;
}

export const list = defineCommand<CodeBackupListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the code backups of a site',
  description:
    'Lists the code backups of the site, newest first: the files the agent had written at that point. ' +
    'Shows one page (the first by default); --all reads every page.',
  args: [{ name: 'site', description: 'site id (default: `site use` or SITEBUILDER_SITE)' }],
  options: [
    { flags: '--page <n>', description: 'this page (pages start at 1)', parse: parsePositiveInt('--page') },
    { flags: '--all', description: 'every page' },
  ],
  examples: [
    'sitebuilder code-backup list s_123',
    'sitebuilder code-backup list s_123 --all --json | jq -r ".[].codeBackupId"',
  ],
  jsonFields: 'an array of code backup records as the service sends them (codeBackupId, createdAt, label, files, …)',
  async run(opts, ctx) {
    if (opts.all && opts.page !== undefined) throw new UsageError('Use either --all or --page, not both.');
    const siteId = ctx.site(opts.site);
    const client = ctx.api();
    const { items, more } = await listByPage(
      client,
      'list_code_backups',
      { projectId: siteId },
      { page: opts.page, all: opts.all, signal: ctx.signal },
    );
    if (ctx.globals.json) return ctx.io.printJson(items);
    const tty = ctx.io.stdoutIsTTY;
    printTable(
      ctx.io,
      [
        { header: 'ID', value: (b) => codeBackupId(b) },
        { header: 'CREATED', value: (b) => formatWhen(createdAt(b), tty) },
        { header: 'FILES', value: (b) => fileCountOf(b) ?? '' },
        { header: 'LABEL', value: (b) => labelOf(b) || (pickString(b, 'jobId') ?? '') },
      ],
      items.map((b) => sanitizeDeep(b)),
    );
    if (more) ctx.io.info(`More on the next page: --page ${(opts.page ?? 1) + 1}, or --all.`);
  },
});
