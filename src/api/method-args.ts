// The TypeScript types of each method's arguments, read from the registry's zod schemas
// (methods.ts): types only, so neither zod nor the registry is in the bundle. ApiClient.call
// takes them, so a call that names a method the registry lacks, leaves out a required argument,
// misspells one or gives it the wrong type fails the type check (test/types/method-args.test-d.ts).
import type * as z from 'zod/mini';
import type { StreamedString } from './body-stream.js';
import type { MethodName, MethodSchemas } from './methods.js';

export type { MethodName } from './methods.js';

/** What the registry's schema of method M accepts. */
export type MethodArgs<M extends MethodName> = z.input<MethodSchemas[M]>;

/** A top-level text argument may also be streamed as it is sent (body-stream.ts: a file's base64). */
type Streamable<T> = { [K in keyof T]: T[K] | (string extends T[K] ? StreamedString : never) };

/**
 * The arguments ApiClient.call takes for `method`: the registry's for a method it names; any
 * object when the name is only known at run time (`string`: the api passthrough, the listing
 * helpers); nothing for a literal name the registry lacks.
 */
export type CallArgs<M extends string> = string extends M
  ? Record<string, unknown>
  : [M] extends [MethodName]
    ? Streamable<MethodArgs<M>>
    : never;
