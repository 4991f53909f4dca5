import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { recordsOf } from '../../api/paginate.js';
import { printTable } from '../../io/print.js';
import { asRecord, pick, pickString } from '../../io/records.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { columnWatch } from '../listing.js';

/**
 * read, write or destructive: from `write`/`destructive` (the emulator's), or from MCP-like
 * `annotations.readOnlyHint`/`destructiveHint`; the listing pattern from `listing` or `pagination`.
 */
export function toolKind(tool: unknown): string {
  const hints = asRecord(pick(tool, 'annotations'));
  const write = typeof pick(tool, 'write') === 'boolean' ? pick(tool, 'write') : undefined;
  const readOnly = typeof hints.readOnlyHint === 'boolean' ? hints.readOnlyHint : undefined;
  const isWrite = write ?? (readOnly === undefined ? undefined : !readOnly);
  const destructive = pick(tool, 'destructive') === true || (readOnly !== true && hints.destructiveHint === true);
  const words = [destructive ? 'destructive' : isWrite === true ? 'write' : isWrite === false ? 'read' : ''];
  const listing = pickString(tool, 'listing', 'pagination');
  if (listing) words.push(`pages: ${listing}`);
  return words.filter(Boolean).join(', ');
}

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
    const list = recordsOf('GET /v1/tools', result);
    if (ctx.globals.json) {
      ctx.io.printJson(list);
      return;
    }
    const watch = columnWatch<unknown>([
      { header: 'METHOD', fields: ['name', 'method', 'id'], value: (t) => pickString(t, 'name', 'method', 'id') ?? '' },
      { header: 'SCOPE', fields: ['scope'], value: (t) => pickString(t, 'scope') ?? '' },
      { header: 'KIND', fields: ['write', 'destructive', 'annotations'], value: toolKind },
      {
        header: 'DESCRIPTION',
        fields: ['description', 'summary'],
        value: (t) => pickString(t, 'description', 'summary') ?? '',
      },
    ]);
    printTable(ctx.io, watch.columns, sanitizeDeep(list));
    watch.report(ctx.io, 'tools', list.length);
  },
});
