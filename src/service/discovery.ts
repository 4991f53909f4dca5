// GET /v1/tools and GET /v1/openapi.json: their payloads are not shown. A tool is read for the
// `tools` listing (its name, scope, kind and description) and for `doctor` (its arguments and
// the shape of its answer): nothing decides on it.
import { field, isRecord, locate, type ReadRecord, readRecord, recordOf, resource } from './read.js';
import { asBoolean, asObject, asText } from './values.js';

export const TOOL = resource('tool', 'GET /v1/tools data (the list)', {
  name: field('its method', ['name', 'method', 'id'], asText),
  scope: field('its scope', ['scope'], asText),
  write: field('whether it writes', ['write'], asBoolean),
  readOnly: field('whether it only reads', ['annotations.readOnlyHint'], asBoolean),
  destructive: field('whether it is destructive', ['destructive', 'annotations.destructiveHint'], asBoolean),
  listing: field('how it pages', ['listing', 'pagination'], asText),
  description: field('its description', ['description', 'summary'], asText),
  // Read by `sitebuilder doctor` only, to compare the service's arguments with the registry's.
  inputSchema: field('its arguments', ['inputSchema', 'input_schema', 'parameters'], asObject),
  outputSchema: field('the shape of its answer', ['outputSchema', 'output_schema'], asObject),
});

export type Tool = ReadRecord<typeof TOOL.fields>;
export const readTool = (raw: unknown): Tool => readRecord(TOOL, raw);

/**
 * read, write or destructive: from `write`/`destructive` (the emulator's), or from MCP-like
 * `annotations.readOnlyHint`/`destructiveHint` (`destructive` only when said); and how it pages.
 */
export function toolKind(raw: unknown): string {
  const t = recordOf(raw);
  const hints = recordOf(t.annotations);
  const write = typeof t.write === 'boolean' ? t.write : undefined;
  const readOnly = typeof hints.readOnlyHint === 'boolean' ? hints.readOnlyHint : undefined;
  const isWrite = write ?? (readOnly === undefined ? undefined : !readOnly);
  const destructive = t.destructive === true || (readOnly !== true && hints.destructiveHint === true);
  const words = [destructive ? 'destructive' : isWrite === true ? 'write' : isWrite === false ? 'read' : ''];
  const listing = locate(raw, TOOL.fields.listing)?.value;
  if (listing) words.push(`pages: ${listing}`);
  return words.filter(Boolean).join(', ');
}

// The client reads every answer as an envelope and fills in its fields when missing; a
// service that serves the bare OpenAPI document gets those filled fields removed again.
const FILLED_BY_CLIENT = ['success', 'code', 'message', 'data'];

/** The OpenAPI document, whether it came in an envelope's data or bare. */
export function openApiDocumentOf(answer: Record<string, unknown>): unknown {
  if (isRecord(answer.data) && typeof answer.data.openapi === 'string') return answer.data;
  if (typeof answer.openapi === 'string') {
    const doc = { ...answer };
    for (const k of FILLED_BY_CLIENT) delete doc[k];
    return doc;
  }
  return answer.data ?? answer;
}
