import { defineCommand } from '../../core/define.js';
import { itemsOf } from '../../api/paginate.js';
import { printTable } from '../../io/print.js';
import { pick, pickString } from '../../io/records.js';

function kind(tool: unknown): string {
  const words = [
    pick(tool, 'destructive') === true
      ? 'destructive'
      : pick(tool, 'write') === true
        ? 'write'
        : pick(tool, 'write') === false
          ? 'read'
          : '',
  ];
  const listing = pickString(tool, 'listing');
  if (listing) words.push(`pages: ${listing}`);
  return words.filter(Boolean).join(', ');
}

export const tools = defineCommand({
  name: 'tools',
  summary: 'List the methods this token can use (GET /v1/tools)',
  description:
    'Print what GET /v1/tools answers: the methods (tools) the token in force can use, with their scope. Does not spend rate budget. `sitebuilder api` without a method lists every method the CLI knows.',
  examples: ['sitebuilder tools', 'sitebuilder tools --json | jq -r ".[].name"', 'sitebuilder tools | cut -f1'],
  jsonFields:
    'the list of tools as the service sends it (each with name, description, scope, write, destructive, listing, inputSchema…)',
  async run(_opts, ctx) {
    const { envelope } = await ctx.api().get('/v1/tools', ctx.signal);
    const list = itemsOf(envelope.data);
    if (ctx.globals.json) {
      ctx.io.printJson(Array.isArray(envelope.data) || list.length === 0 ? envelope.data : list);
      return;
    }
    printTable(
      ctx.io,
      [
        { header: 'METHOD', value: (t: unknown) => pickString(t, 'name', 'method', 'id') ?? '' },
        { header: 'SCOPE', value: (t: unknown) => pickString(t, 'scope') ?? '' },
        { header: 'KIND', value: kind },
        { header: 'DESCRIPTION', value: (t: unknown) => pickString(t, 'description', 'summary') ?? '' },
      ],
      list,
    );
  },
});
