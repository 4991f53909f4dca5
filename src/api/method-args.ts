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

/** Every method's arguments, one union member a method (a method that takes none adds no key). */
type AnyArgs = { [M in MethodName]: MethodArgs<M> }[MethodName];

type KeysOf<U> = U extends unknown ? (string extends keyof U ? never : keyof U) : never;
type ValueAt<U, K extends PropertyKey> = U extends unknown
  ? K extends keyof U
    ? Exclude<U[K], undefined>
    : never
  : never;
/** true where some method takes K without requiring it. */
type OptionalIn<U, K extends PropertyKey> = U extends unknown
  ? K extends keyof U
    ? undefined extends U[K]
      ? true
      : false
    : never
  : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * Every argument of the registry with the type its schema checks, for code that handles any
 * method (the emulator's handlers): the ones every method taking them requires are there, the
 * others optional.
 */
export type AnyMethodArgs = Simplify<
  {
    [K in KeysOf<AnyArgs> as true extends OptionalIn<AnyArgs, K> ? never : K]: ValueAt<AnyArgs, K>;
  } & {
    [K in KeysOf<AnyArgs> as true extends OptionalIn<AnyArgs, K> ? K : never]?: ValueAt<AnyArgs, K>;
  }
>;
