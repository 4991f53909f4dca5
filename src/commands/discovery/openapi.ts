import { defineCommand } from '../../core/define.js';
import { asRecord } from '../../io/records.js';

// The client reads every answer as an envelope and fills in its fields when missing; a
// service that serves the bare OpenAPI document gets those filled fields removed again.
const FILLED_BY_CLIENT = ['success', 'code', 'message', 'data'];

/** The OpenAPI document, whether it came in an envelope's data or bare. */
export function openApiDocumentOf(answer: Record<string, unknown>): unknown {
  const data = asRecord(answer.data);
  if (typeof data.openapi === 'string') return answer.data;
  if (typeof answer.openapi === 'string') {
    const doc = { ...answer };
    for (const k of FILLED_BY_CLIENT) delete doc[k];
    return doc;
  }
  return answer.data ?? answer;
}

export const openapi = defineCommand({
  name: 'openapi',
  summary: 'Print the machine-readable description of the service (GET /v1/openapi.json)',
  description:
    'Print the OpenAPI document the service serves at GET /v1/openapi.json: every method with its arguments. Does not spend rate budget and works without a token.',
  exitCodes: '0 printed; 1 refused or failed, 2 usage',
  learnMore: 'docs/scripting.md#calling-any-method-api-tools-openapi',
  examples: ['sitebuilder openapi > openapi.json', 'sitebuilder openapi | jq ".paths | keys"'],
  jsonFields: 'the OpenAPI document itself (the same with or without --json)',
  async run(_opts, ctx) {
    const client = ctx.apiWith(ctx.token().token);
    const { envelope } = await client.get('/v1/openapi.json', ctx.signal);
    ctx.io.printJson(openApiDocumentOf(envelope));
  },
});
