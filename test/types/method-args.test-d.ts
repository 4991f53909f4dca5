// Type tests of the methods' arguments (src/api/method-args.ts), read from the registry's zod
// schemas (src/api/methods.ts). Checked by `tsc --noEmit` (part of `npm test`): an assertion that
// no longer holds, or a `@ts-expect-error` that no longer finds its error, fails the type check.
import { expectTypeOf } from 'vitest';
import type { CallArgs, MethodArgs } from '../../src/api/method-args.js';
import type { MethodName as IndexedName } from '../../src/api/method-index.js';
import type { MethodName } from '../../src/api/methods.js';

// The registry and the index compiled from it (method-index.json) name the same methods.
expectTypeOf<MethodName>().toEqualTypeOf<IndexedName>();

// What each schema accepts: required, optional, enums, arrays, nested objects, opaque cursors.
expectTypeOf<MethodArgs<'publish_site'>>().toEqualTypeOf<{ projectId: string }>();
expectTypeOf<MethodArgs<'list_workspaces'>>().toEqualTypeOf<Record<string, never>>();
expectTypeOf<MethodArgs<'send_message'>>().toEqualTypeOf<{
  projectId: string;
  prompt: string;
  mode?: 'build' | 'plan' | undefined;
}>();
expectTypeOf<MethodArgs<'restore_storage_backup'>>().toEqualTypeOf<{
  projectId: string;
  backupId: string;
  mode: 'full' | 'selected';
  paths?: string[] | undefined;
  confirm?: string | undefined;
}>();
expectTypeOf<MethodArgs<'create_site'>['importSource']>().toEqualTypeOf<{ SourceUrl: string } | undefined>();
expectTypeOf<MethodArgs<'list_messages'>['cursor']>().toEqualTypeOf<string | number | undefined>();
expectTypeOf<MethodArgs<'edit_queued_message'>['expectedVersion']>().toEqualTypeOf<number>();

// A name known only at run time (the api passthrough) takes any object; a misspelt literal, nothing.
expectTypeOf<CallArgs<string>>().toEqualTypeOf<Record<string, unknown>>();
expectTypeOf<CallArgs<'publsh_site'>>().toEqualTypeOf<never>();
