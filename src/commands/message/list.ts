import { paginate } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import { printTable } from '../../io/print.js';
import { asRecord, humanTime, pick } from '../../io/records.js';
import { defineCommand, parsePositiveInt } from '../../core/define.js';

interface ListOptions {
  site?: string;
  limit?: number;
  all?: boolean;
}

const DEFAULT_LIMIT = 20;

export const list = defineCommand<ListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'Show a site’s chat history, newest first',
  description:
    'The chat history of a site, newest first, page by page backwards (the service’s hasMore and oldestCursor). Shows the newest 20 by default; --all walks back to the first message.',
  args: [{ name: 'site', description: 'the site (default: `site use` or SITEBUILDER_SITE)' }],
  options: [
    {
      flags: '-L, --limit <n>',
      description: `at most this many messages (default ${DEFAULT_LIMIT})`,
      parse: parsePositiveInt('--limit'),
    },
    { flags: '--all', description: 'the whole history' },
  ],
  examples: [
    'sitebuilder message list site_bakery',
    'sitebuilder message list site_bakery --all --json > history.json',
  ],
  jsonFields:
    'an array of messages as the service sends them (ours: _id, role, text, mode, jobId, author, state, createdAt), newest first',
  async run(opts, ctx) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('Use either --all or --limit, not both.');
    const projectId = ctx.site(opts.site);
    const max = opts.all ? undefined : (opts.limit ?? DEFAULT_LIMIT);
    const pages = paginate<unknown>(ctx.api(), 'list_messages', { projectId }, { max, signal: ctx.signal });
    if (ctx.io.json) {
      // Streamed: one array, written item by item.
      let first = true;
      ctx.io.out('[');
      for await (const m of pages) {
        ctx.io.out(`${first ? '' : ','}\n${JSON.stringify(m)}`);
        first = false;
      }
      ctx.io.outLine(first ? ']' : '\n]');
      return;
    }
    const rows: Record<string, unknown>[] = [];
    for await (const m of pages) rows.push(asRecord(m));
    const now = ctx.clock.now();
    const tty = ctx.io.stdoutIsTTY;
    const width = Math.max(30, ctx.io.columns - 50);
    printTable(
      ctx.io,
      [
        { header: 'WHEN', value: (r) => humanTime(pick(r, 'createdAt', 'time', 'at'), now, tty) },
        { header: 'FROM', value: (r) => pick(r, 'role', 'author', 'from') },
        { header: 'JOB', value: (r) => pick(r, 'jobId') },
        {
          header: 'MESSAGE',
          value: (r) => oneLine(String(pick(r, 'text', 'content', 'prompt', 'message') ?? ''), tty ? width : Infinity),
        },
      ],
      rows,
    );
  },
});

function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
