import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { answerList } from '../../api/answer.js';
import { printTable } from '../../io/print.js';
import { readTool, type Tool, toolKind } from '../../service/discovery.js';
import { isUnread, known } from '../../service/read.js';
import { columnWatch } from '../shared/listing.js';

export { toolKind };

export const tools = defineCommand({
  name: 'tools',
  summary: 'List the methods this token can use (GET /v1/tools)',
  description:
    'Print what GET /v1/tools answers: the methods (tools) the token in force can use, with their scope and kind (read, write or destructive, and how they page). Does not spend rate budget. `sitebuilder api` without a method lists every method the CLI knows.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  learnMore: 'docs/scripting.md#calling-any-method-api-tools-openapi',
  examples: ['sitebuilder tools', 'sitebuilder tools --json | jq -r ".[].name"', 'sitebuilder tools | cut -f1'],
  jsonFields:
    'the list of tools as the service sends it (each with name, description, scope, write, destructive, listing, inputSchema…, or MCP-like annotations)',
  async run(_opts, ctx) {
    const result = await ctx.api().get('/v1/tools', ctx.signal);
    const list = answerList('GET /v1/tools', result);
    if (ctx.globals.json) {
      ctx.io.printJson(list);
      return;
    }
    const watch = columnWatch<Tool>([
      { header: 'METHOD', read: (t) => t.name, value: (t) => known(t.name) },
      { header: 'SCOPE', read: (t) => t.scope, value: (t) => known(t.scope) },
      {
        header: 'KIND',
        read: (t) => [t.write, t.readOnly, t.destructive].find((v) => !isUnread(v)) ?? t.write,
        value: (t) => toolKind(t.raw),
      },
      { header: 'DESCRIPTION', read: (t) => t.description, value: (t) => known(t.description) },
    ]);
    printTable(ctx.io, watch.columns, list.map(readTool));
    watch.report(ctx.io, 'tools', list.length);
  },
});
