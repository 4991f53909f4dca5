import { defineCommand, parsePositiveInt, SERVICE_EXITS } from '../../core/define.js';
import { paginate } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import { printTable } from '../../io/print.js';
import { humanTime } from '../../io/records.js';
import { known } from '../../service/read.js';
import { readSite, type SiteRecord } from '../../service/sites.js';
import { columnWatch, type FieldColumn, writeJsonArray, writeRows } from '../shared/listing.js';
import { workspaceIds } from './workspaces.js';

interface Row {
  workspace: string;
  site: unknown;
}

/** A site's row on a terminal or piped: the workspace it was listed in, and the record as read. */
interface ReadRow {
  workspace: string;
  site: SiteRecord;
}

const DEFAULT_LIMIT = 30;

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List sites',
  description:
    'List the sites of a workspace (--workspace), or of every workspace the token reaches, in the service’s order. Shows the first 30 by default; --all streams every page (1,000 sites a page), so even 100,000 sites print with flat memory. A listing that cannot be read to its end is an error (exit 1), never a shorter list.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
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
  jsonFields:
    'an array of site records as the service sends them (each has _id, used as projectId); on a failure after some records, the array holds those and is closed, and the exit code says it failed',
  async run(opts, ctx) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('Use either --all or --limit, not both.');
    const max = opts.all ? undefined : (opts.limit ?? DEFAULT_LIMIT);
    const client = ctx.api();
    const workspaces = opts.workspace ? [opts.workspace] : await workspaceIds(client, ctx.signal);
    const sites = async function* (): AsyncGenerator<Row> {
      let remaining = max;
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
      await writeJsonArray(
        io,
        (async function* () {
          for await (const { site } of sites()) yield site;
        })(),
        'sites',
      );
      return;
    }
    const watch = columnWatch<ReadRow>([
      { header: 'ID', read: (r) => r.site.id, value: (r) => known(r.site.id) },
      { header: 'NAME', read: (r) => r.site.name, value: (r) => known(r.site.name) },
      // Listed under a workspace: the site is in it, whatever its record says or leaves out.
      { header: 'WORKSPACE', value: (r) => known(r.site.workspaceId) ?? r.workspace },
      {
        header: 'UPDATED',
        read: (r) => r.site.updated,
        value: (r) => humanTime(known(r.site.updated), ctx.clock.now(), io.stdoutIsTTY),
      },
    ] satisfies FieldColumn<ReadRow>[]);
    const read = async function* (): AsyncGenerator<ReadRow> {
      for await (const row of sites()) yield { workspace: row.workspace, site: readSite(row.site) };
    };
    if (!io.stdoutIsTTY) {
      watch.report(io, 'sites', await writeRows(io, watch.columns, read(), 'sites'));
      return;
    }
    const rows: ReadRow[] = [];
    for await (const row of read()) rows.push(row);
    printTable(io, watch.columns, rows);
    watch.report(io, 'sites', rows.length);
  },
});
