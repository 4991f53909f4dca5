// The service's own description of its methods, GET /v1/tools and GET /v1/openapi.json (their
// payloads are not shown), read for `sitebuilder doctor` (docs/real-service.md "doctor"): which
// methods it lists, the arguments it gives each (JSON Schema: names, required, types, allowed
// values) and whether it says the shape of their answers. An OpenAPI document is read as OpenAPI
// 3 writes one (`paths`, `requestBody`, `responses`, local `$ref`s, `allOf`); a tool as MCP writes
// one, under the names the model tries (discovery.ts TOOL).
import { TOOL } from './discovery.js';
import { findList } from './page.js';
import { type AnyRecord, isRecord, locate } from './read.js';

export type Source = 'tools' | 'openapi';

export interface DescribedArgs {
  properties: Record<string, AnyRecord>;
  required: string[];
}

export interface DescribedMethod {
  /** Its arguments; undefined when the description names none. */
  args?: DescribedArgs;
  /** The description gives the shape of its answer's `data`. */
  answer: boolean;
}

export interface Description {
  source: Source;
  /** The methods it lists, by name (a GET address by `GET /v1/…`). */
  methods: Map<string, DescribedMethod>;
  /** What could not be read as a method: a path with a template, a tool without a name. */
  unread: string[];
}

/** How far `$ref`s and `allOf`s are followed: a loop of references ends. */
const MAX_HOPS = 32;

/** A local reference (`#/components/schemas/X`) followed to what it names; anything else as it is. */
export function resolveRef(value: unknown, root: unknown): unknown {
  let at = value;
  for (let hops = 0; hops < MAX_HOPS && isRecord(at) && typeof at.$ref === 'string'; hops++) {
    const ref = at.$ref;
    if (!ref.startsWith('#')) return at;
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isRecord(target) ? target[key] : Array.isArray(target) ? target[Number(key)] : undefined;
    }
    at = target;
  }
  return at;
}

/** A schema's properties and required names, its `allOf` parts merged in. */
function objectOf(
  schema: unknown,
  root: unknown,
  depth = 0,
): { properties?: Record<string, AnyRecord>; required: string[] } {
  const s = resolveRef(schema, root);
  if (!isRecord(s) || depth > MAX_HOPS) return { required: [] };
  let properties: Record<string, AnyRecord> | undefined;
  const required: string[] = [];
  const add = (part: { properties?: Record<string, AnyRecord>; required: string[] }) => {
    if (part.properties) properties = { ...properties, ...part.properties };
    required.push(...part.required);
  };
  if (Array.isArray(s.allOf)) for (const part of s.allOf) add(objectOf(part, root, depth + 1));
  if (isRecord(s.properties)) {
    const own: Record<string, AnyRecord> = {};
    for (const [k, v] of Object.entries(s.properties)) {
      const prop = resolveRef(v, root);
      own[k] = isRecord(prop) ? prop : {};
    }
    add({ properties: own, required: [] });
  }
  if (Array.isArray(s.required)) required.push(...s.required.filter((r): r is string => typeof r === 'string'));
  return { properties, required: [...new Set(required)] };
}

function argsOf(schema: unknown, root: unknown): DescribedArgs | undefined {
  const { properties, required } = objectOf(schema, root);
  return properties ? { properties, required } : undefined;
}

/** Keywords that say something of a value's shape: a schema without any says nothing. */
const SHAPE_WORDS = ['type', 'properties', 'items', 'oneOf', 'anyOf', 'allOf', '$ref', 'enum', 'const'];
const ENVELOPE = new Set(['success', 'message', 'data', 'code', 'version', 'count']);

/** Whether an operation's success answer says what its `data` holds. */
function answerDescribed(responses: unknown, root: unknown): boolean {
  const all = resolveRef(responses, root);
  if (!isRecord(all)) return false;
  const ok = resolveRef(all['200'] ?? all['201'] ?? all['2XX'] ?? all.default, root);
  const content = isRecord(ok) ? resolveRef(ok.content, root) : undefined;
  const json = isRecord(content) ? resolveRef(content['application/json'], root) : undefined;
  const { properties } = objectOf(isRecord(json) ? json.schema : undefined, root);
  if (!properties) return false;
  if ('data' in properties) return SHAPE_WORDS.some((w) => w in properties.data);
  // An answer described bare, without the envelope.
  return Object.keys(properties).some((k) => !ENVELOPE.has(k));
}

/** GET /v1/tools' data: each tool's name, arguments and whether it says the shape of its answer. */
export function toolsDescription(data: unknown): Description {
  const out: Description = { source: 'tools', methods: new Map(), unread: [] };
  const list = findList(data);
  if (!Array.isArray(list)) {
    out.unread.push(`data that ${list.problem}`);
    return out;
  }
  const f = TOOL.fields;
  let nameless = 0;
  for (const tool of list) {
    const name = locate(tool, f.name)?.value;
    if (name === undefined) {
      nameless++;
      continue;
    }
    const schema = locate(tool, f.inputSchema)?.value;
    out.methods.set(name, {
      args: schema === undefined ? undefined : argsOf(schema, schema),
      answer: locate(tool, f.outputSchema) !== undefined,
    });
  }
  if (nameless) out.unread.push(`${nameless} tool${nameless === 1 ? '' : 's'} whose name sitebuilder cannot read`);
  return out;
}

/** GET /v1/openapi.json: each `POST /v1/<method>` with its body's schema and its answer's. */
export function openApiDescription(doc: unknown): Description {
  const out: Description = { source: 'openapi', methods: new Map(), unread: [] };
  const paths = isRecord(doc) ? resolveRef(doc.paths, doc) : undefined;
  if (!isRecord(paths)) {
    out.unread.push('no `paths`');
    return out;
  }
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolveRef(rawItem, doc);
    if (!isRecord(item)) continue;
    const post = resolveRef(item.post, doc);
    if (!isRecord(post)) {
      // An address read with GET (GET /v1/token, /v1/tools, /v1/openapi.json): not a method.
      const get = resolveRef(item.get, doc);
      if (isRecord(get)) out.methods.set(`GET ${path}`, { answer: answerDescribed(get.responses, doc) });
      continue;
    }
    const name = /^\/(?:v1\/)?([^/{}]+)$/.exec(path)?.[1];
    if (name === undefined) {
      out.unread.push(`${path}, not one method's address`);
      continue;
    }
    const body = resolveRef(post.requestBody, doc);
    const content = isRecord(body) ? resolveRef(body.content, doc) : undefined;
    const json = isRecord(content) ? resolveRef(content['application/json'], doc) : undefined;
    out.methods.set(name, {
      args: isRecord(json) ? argsOf(json.schema, doc) : undefined,
      answer: answerDescribed(post.responses, doc),
    });
  }
  return out;
}
