import { defineCommand } from '../../core/define.js';
import { itemsOf } from '../../api/paginate.js';
import { printTable } from '../../io/print.js';
import { idOf, nameOf, pick } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the workspaces the token reaches',
  examples: ['sitebuilder workspace list', 'sitebuilder workspace list --json | jq -r ".[]._id"'],
  jsonFields: 'an array of workspace records as the service sends them (each has _id)',
  async run(_opts, ctx) {
    const { envelope } = await ctx.api().call('list_workspaces', {}, { signal: ctx.signal });
    const workspaces = itemsOf(envelope.data);
    if (ctx.globals.json) return ctx.io.printJson(workspaces);
    printTable(
      ctx.io,
      [
        { header: 'ID', value: idOf },
        { header: 'NAME', value: nameOf },
        { header: 'PLAN', value: (w) => pick(w, 'plan') },
        { header: 'CREDITS', value: (w) => pick(w, 'credits', 'creditBalance') },
      ],
      sanitizeDeep(workspaces),
    );
  },
});
