// The light view of the method registry that the client reads at run time: metadata and the
// argument schemas compiled to JSON Schema by scripts/gen-method-index.mjs (no zod at start-up).
import index from './method-index.json' with { type: 'json' };
import type { ListingPattern, Permission, Scope } from './methods.js';
import type { JsonSchema } from './validate.js';

export interface MethodInfo {
  name: string;
  scope: Scope;
  write: boolean;
  destructive: boolean;
  listing: ListingPattern | null;
  permission: Permission | null;
  argsShown: boolean;
  analytics: boolean;
  summary: string;
  schema: JsonSchema;
}

const INDEX = index as unknown as Record<string, Omit<MethodInfo, 'name'>>;

export const METHOD_INDEX_NAMES: readonly string[] = Object.keys(INDEX);

export function methodInfo(name: string): MethodInfo | undefined {
  return Object.hasOwn(INDEX, name) ? { name, ...INDEX[name] } : undefined;
}
