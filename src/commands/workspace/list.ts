import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { recordsOf } from '../../api/paginate.js';
import { printTable } from '../../io/print.js';
import { idOf, nameOf, pick } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { columnWatch } from '../listing.js';

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the workspaces the token reaches',
  description: 'Lists the workspaces the token reaches, in the service’s order, with their plan and credits.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  examples: ['sitebuilder workspace list', 'sitebuilder workspace list --json | jq -r ".[]._id"'],
  jsonFields: 'an array of workspace records as the service sends them (each has _id)',
  async run(_opts, ctx) {
    const result = await ctx.api().call('list_workspaces', {}, { signal: ctx.signal });
    const workspaces = recordsOf('list_workspaces', result);
    if (ctx.globals.json) return ctx.io.printJson(workspaces);
    const watch = columnWatch<unknown>([
      { header: 'ID', fields: ['_id', 'id'], value: idOf },
      { header: 'NAME', fields: ['name', 'title', 'label'], value: nameOf },
      { header: 'PLAN', fields: ['plan'], value: (w) => pick(w, 'plan') },
      { header: 'CREDITS', fields: ['credits', 'creditBalance'], value: (w) => pick(w, 'credits', 'creditBalance') },
    ]);
    printTable(ctx.io, watch.columns, sanitizeDeep(workspaces));
    watch.report(ctx.io, 'workspaces', workspaces.length);
  },
});
