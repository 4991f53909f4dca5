import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { answerList } from '../../api/answer.js';
import { printTable } from '../../io/print.js';
import { known } from '../../service/read.js';
import { readWorkspace, type WorkspaceRecord } from '../../service/sites.js';
import { columnWatch } from '../shared/listing.js';

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
    const workspaces = answerList('list_workspaces', result);
    if (ctx.globals.json) return ctx.io.printJson(workspaces);
    const watch = columnWatch<WorkspaceRecord>([
      { header: 'ID', read: (w) => w.id, value: (w) => known(w.id) },
      { header: 'NAME', read: (w) => w.name, value: (w) => known(w.name) },
      { header: 'PLAN', read: (w) => w.plan, value: (w) => known(w.plan) },
      { header: 'CREDITS', read: (w) => w.credits, value: (w) => known(w.credits) },
    ]);
    printTable(ctx.io, watch.columns, workspaces.map(readWorkspace));
    watch.report(ctx.io, 'workspaces', workspaces.length);
  },
});
