// The method registry as everything that runs reads it: each method's metadata and its argument
// schema as JSON Schema, compiled from src/api/methods.ts by scripts/gen-method-index.mjs at
// build time. The client validates with it before sending and the emulator before answering
// (src/api/validate.ts); GET /v1/openapi.json and GET /v1/tools describe it. No zod at run time.
import index from './method-index.json' with { type: 'json' };
import type { ListingPattern, Permission, Scope } from './registry-terms.js';
import type { JsonSchema } from './validate.js';

export type MethodName = keyof typeof index;

export interface MethodInfo {
  name: MethodName;
  scope: Scope;
  write: boolean;
  destructive: boolean;
  listing: ListingPattern | null;
  permission: Permission | null;
  argsShown: boolean;
  analytics: boolean;
  /** Answers with file contents (a larger answer cap). */
  largeAnswer: boolean;
  summary: string;
  schema: JsonSchema;
}

/** Each method's entry; in the bundle, its JSON text, parsed here when first asked for (scripts/build.mjs). */
const ENTRIES = index as unknown as Record<MethodName, Omit<MethodInfo, 'name'> | string>;
const INFOS = new Map<string, MethodInfo>();

export const METHOD_INDEX_NAMES: readonly MethodName[] = Object.keys(index) as MethodName[];

export function methodInfo(name: string): MethodInfo | undefined {
  const known = INFOS.get(name);
  if (known || !Object.hasOwn(ENTRIES, name)) return known;
  const entry = ENTRIES[name as MethodName];
  const info: MethodInfo = {
    name: name as MethodName,
    ...(typeof entry === 'string' ? (JSON.parse(entry) as Omit<MethodInfo, 'name'>) : entry),
  };
  INFOS.set(name, info);
  return info;
}

/** Every method, in the registry's order. */
export function methodInfos(): readonly MethodInfo[] {
  return METHOD_INDEX_NAMES.map((name) => methodInfo(name)!);
}
