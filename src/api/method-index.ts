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

const INFOS = new Map<string, MethodInfo>(
  Object.entries(index as unknown as Record<MethodName, Omit<MethodInfo, 'name'>>).map(([name, info]) => [
    name,
    { name: name as MethodName, ...info },
  ]),
);

/** Every method, in the registry's order. */
export const METHOD_INFOS: readonly MethodInfo[] = [...INFOS.values()];

export const METHOD_INDEX_NAMES: readonly MethodName[] = METHOD_INFOS.map((m) => m.name);

export function methodInfo(name: string): MethodInfo | undefined {
  return INFOS.get(name);
}
