import { defineCommand, parsePositiveInt } from '../../core/define.js';
import { paginate } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import { cellText, printTable } from '../../io/print.js';
import { humanTime, idOf, nameOf, pick } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { workspaceIds } from './workspaces.js';

interface ListOptions {
  workspace?: string;
  limit?: number;
  all?: boolean;
}

const DEFAULT_LIMIT = 30;

export const list = defineCommand<ListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List sites',
  description:
    'List the sites of a workspace (--workspace), or of every workspace the token reaches. Shows the first 30 by default; --all streams every page, so even 10,000 sites print with flat memory.',
  options: [
    { flags: '-w, --workspace <id>', description: 'only this workspace' },
    {
      flags: '-L, --limit <n>',
      description: `at most this many sites (default ${DEFAULT_LIMIT})`,
      parse: parsePositiveInt('--limit'),
    },
    { flags: '--all', description: 'every site, page by page' },
  ],
  examples: [
    'sitebuilder site list',
    'sitebuilder site list --workspace ws_1 --all --json > sites.json',
    'sitebuilder site list --all | cut -f1',
  ],
  jsonFields: 'an array of site records as the service sends them (each has _id, used as projectId)',
  async run(opts, ctx) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('Use either --all or --limit, not both.');
    const max = opts.all ? undefined : (opts.limit ?? DEFAULT_LIMIT);
    const client = ctx.api();
    const workspaces = opts.workspace ? [opts.workspace] : await workspaceIds(client, ctx.signal);
    let remaining = max;
    const sites = async function* () {
      for (const ws of workspaces) {
        if (remaining !== undefined && remaining <= 0) return;
        for await (const site of paginate(
          client,
          'list_sites',
          { workspaceId: ws },
          { max: remaining, signal: ctx.signal },
        )) {
          if (remaining !== undefined) remaining--;
          yield { workspace: ws, site };
        }
      }
    };
    const { io } = ctx;
    if (ctx.globals.json) {
      // Streamed as one JSON array, one element at a time: memory stays flat for any count.
      let first = true;
      await io.write('[');
      for await (const { site } of sites()) {
        await io.write(`${first ? '\n' : ',\n'}${JSON.stringify(site)}`);
        first = false;
      }
      io.outLine(first ? ']' : '\n]');
      return;
    }
    const columns = [
      { header: 'ID', value: (r: { site: unknown }) => idOf(r.site) },
      { header: 'NAME', value: (r: { site: unknown }) => nameOf(r.site) },
      {
        header: 'WORKSPACE',
        value: (r: { workspace: string; site: unknown }) => pick(r.site, 'workspaceId') ?? r.workspace,
      },
      {
        header: 'UPDATED',
        value: (r: { site: unknown }) =>
          humanTime(pick(r.site, 'updatedAt', 'createdAt'), ctx.clock.now(), io.stdoutIsTTY),
      },
    ];
    if (!io.stdoutIsTTY) {
      for await (const row of sites())
        await io.write(`${columns.map((c) => cellText(c.value(row as never)).replace(/\t/g, ' ')).join('\t')}\n`);
      return;
    }
    const rows = [];
    for await (const row of sites()) rows.push({ ...row, site: sanitizeDeep(row.site) });
    printTable(io, columns, rows);
  },
});
