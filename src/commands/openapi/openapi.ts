import { defineCommand } from '../../core/define.js';
import { openApiDocumentOf } from '../../service/discovery.js';

export { openApiDocumentOf };

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
