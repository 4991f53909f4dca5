// The service's description (src/service/description.ts) beside the method registry (src/api/methods.ts,
// compiled to src/api/method-index.json): the methods one lists and the other does not know,
// and, for each method both know, the arguments the description contradicts: a name one side
// has and the other has not, required on one side only, types that share nothing, other allowed
// values. What the registry marks `x-stated` is what the reference shows: a contradiction there
// is the service contradicting its reference, not our guess being wrong.
import { type MethodInfo, METHOD_INDEX_NAMES, methodInfo } from '../../api/method-index.js';
import type { DescribedArgs, Description, Source } from '../../service/description.js';
import { type AnyRecord, isRecord } from '../../service/read.js';

export type ArgumentProblem = 'unknown' | 'not described' | 'required' | 'optional' | 'type' | 'values';

export interface ArgumentFinding {
  method: string;
  argument: string;
  problem: ArgumentProblem;
  /** The reference shows this argument (the registry's `x-stated`). */
  stated: boolean;
  /** What the registry says of it, in a few words (`required, string`); null where it has no such argument. */
  registry: string | null;
  /** What the description says of it; null where it names no such argument. */
  service: string | null;
  sources: Source[];
}

export interface MethodFinding {
  method: string;
  /** `unknown`: listed by the service, not in the registry; `not listed`: the other way round. */
  problem: 'unknown' | 'not listed';
  sources: Source[];
  /** The registry's scope of a method the service does not list; null otherwise. */
  scope: string | null;
  /** Whether the token holds that scope (GET /v1/tools lists only what the token can use); null when not known. */
  tokenHasScope: boolean | null;
}

/** The JSON types a schema allows, `null` left out, from `type`, `anyOf`/`oneOf`, `enum` or `const`. */
function typesOf(schema: AnyRecord, depth = 0): string[] {
  const out = new Set<string>();
  const t = schema.type;
  for (const word of Array.isArray(t) ? t : [t]) if (typeof word === 'string') out.add(word);
  if (depth < 4)
    for (const part of [schema.anyOf, schema.oneOf].filter(Array.isArray).flat())
      if (isRecord(part)) for (const word of typesOf(part, depth + 1)) out.add(word);
  if (out.size === 0) {
    const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
    for (const v of values) out.add(Number.isInteger(v) ? 'integer' : v === null ? 'null' : typeof v);
  }
  out.delete('null');
  return [...out].sort();
}

/** Types that share a value: integer is a number. */
function shareAValue(a: string[], b: string[]): boolean {
  const wide = (types: string[]) => new Set(types.map((t) => (t === 'integer' ? 'number' : t)));
  const wb = wide(b);
  return [...wide(a)].some((t) => wb.has(t));
}

function valuesOf(schema: AnyRecord): string[] | undefined {
  if (!Array.isArray(schema.enum)) return undefined;
  return schema.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).sort();
}

const words = (required: boolean, schema: AnyRecord) =>
  [required ? 'required' : 'optional', typesOf(schema).join(' or ')].filter(Boolean).join(', ');

/** The arguments of one method the description contradicts, from one source. */
export function compareArguments(info: MethodInfo, args: DescribedArgs, source: Source): ArgumentFinding[] {
  const ours = (info.schema.properties ?? {}) as Record<string, AnyRecord>;
  const oursRequired = new Set<string>((info.schema.required as string[] | undefined) ?? []);
  const theirsRequired = new Set(args.required);
  const out: ArgumentFinding[] = [];
  const add = (argument: string, problem: ArgumentProblem, registry: string | null, service: string | null) =>
    out.push({
      method: info.name,
      argument,
      problem,
      stated: Boolean(ours[argument]?.['x-stated']),
      registry,
      service,
      sources: [source],
    });
  for (const [name, schema] of Object.entries(ours)) {
    const theirs = args.properties[name];
    const req = oursRequired.has(name);
    if (!theirs) {
      add(name, 'not described', words(req, schema), null);
      continue;
    }
    if (theirsRequired.has(name) && !req) add(name, 'required', 'optional', 'required');
    if (req && !theirsRequired.has(name)) add(name, 'optional', 'required', 'optional');
    const [a, b] = [typesOf(schema), typesOf(theirs)];
    if (a.length && b.length && !shareAValue(a, b)) add(name, 'type', a.join(' or '), b.join(' or '));
    const [va, vb] = [valuesOf(schema), valuesOf(theirs)];
    if (va && vb && va.join('\n') !== vb.join('\n')) add(name, 'values', va.join(', '), vb.join(', '));
  }
  for (const [name, schema] of Object.entries(args.properties))
    if (!(name in ours)) add(name, 'unknown', null, words(theirsRequired.has(name), schema));
  return out;
}

/** The same finding from two sources is one finding naming both. */
function merged<T extends { sources: Source[] }>(findings: T[], key: (f: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const f of findings) {
    const k = key(f);
    const known = byKey.get(k);
    if (known) known.sources = [...new Set([...known.sources, ...f.sources])];
    else byKey.set(k, { ...f, sources: [...f.sources] });
  }
  return [...byKey.values()];
}

/** Every method's arguments, in every description read, against the registry's. */
export function argumentFindings(descriptions: Description[]): ArgumentFinding[] {
  const all = descriptions.flatMap((d) =>
    [...d.methods].flatMap(([name, m]) => {
      const info = methodInfo(name);
      return info && m.args ? compareArguments(info, m.args, d.source) : [];
    }),
  );
  return merged(all, (f) => [f.method, f.argument, f.problem, f.registry, f.service].join('\u0000'));
}

/** Methods the descriptions list that the registry does not know, and the other way round. */
export function methodFindings(descriptions: Description[], tokenScopes: string[] | undefined): MethodFinding[] {
  const all: MethodFinding[] = [];
  for (const d of descriptions) {
    for (const name of d.methods.keys())
      if (!name.startsWith('GET ') && !methodInfo(name))
        all.push({ method: name, problem: 'unknown', sources: [d.source], scope: null, tokenHasScope: null });
    // A list with entries that could not be read as methods cannot say which ones it leaves out.
    if (d.unread.length) continue;
    for (const name of METHOD_INDEX_NAMES) {
      if (d.methods.has(name)) continue;
      const scope = methodInfo(name)?.scope ?? null;
      const has = d.source === 'tools' && tokenScopes && scope ? tokenScopes.includes(scope) : null;
      all.push({ method: name, problem: 'not listed', sources: [d.source], scope, tokenHasScope: has });
    }
  }
  return merged(all, (f) => `${f.method}\u0000${f.problem}\u0000${f.tokenHasScope}`);
}

/** What the descriptions do not say at all, of the methods whose answers the CLI reads, and of arguments. */
export interface Undescribed {
  what: 'answer' | 'arguments';
  method: string;
  /** The descriptions that list the method without saying it. */
  sources: Source[];
}

export function undescribed(descriptions: Description[], answersRead: string[]): Undescribed[] {
  const out: Undescribed[] = [];
  for (const method of answersRead) {
    const listed = descriptions.filter((d) => d.methods.has(method));
    if (listed.some((d) => d.methods.get(method)?.answer)) continue;
    out.push({ what: 'answer', method, sources: listed.map((d) => d.source) });
  }
  for (const name of METHOD_INDEX_NAMES) {
    const registryArgs = Object.keys(methodInfo(name)?.schema.properties ?? {});
    const listed = descriptions.filter((d) => d.methods.has(name));
    if (registryArgs.length === 0 || listed.length === 0) continue;
    if (listed.every((d) => d.methods.get(name)?.args === undefined))
      out.push({ what: 'arguments', method: name, sources: listed.map((d) => d.source) });
  }
  return out;
}
