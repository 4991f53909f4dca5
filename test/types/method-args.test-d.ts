// Type tests of the methods' arguments (src/api/method-args.ts), read from the registry's zod
// schemas (src/api/methods.ts). Checked by `tsc --noEmit` (part of `npm test`): an assertion that
// no longer holds, or a `@ts-expect-error` that no longer finds its error, fails the type check.
// The functions below are never called: only their types are checked.
import { expectTypeOf } from 'vitest';
import type { StreamedString } from '../../src/api/body-stream.js';
import type { ApiClient } from '../../src/api/client.js';
import type { AnyMethodArgs, CallArgs, MethodArgs } from '../../src/api/method-args.js';
import type { MethodName as IndexedName } from '../../src/api/method-index.js';
import type { MethodName } from '../../src/api/methods.js';
import { listByPage, pages, paginate } from '../../src/api/paginate.js';
import type { Step } from '../../src/commands/doctor/plan.js';

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

export async function calls(client: ApiClient, file: StreamedString, name: string) {
  await client.call('publish_site', { projectId: 's_1' });
  await client.call('send_message', { projectId: 's_1', prompt: 'hi', mode: 'plan' });
  await client.call('list_workspaces', {});
  // A file's content streams as it is sent (body-stream.ts).
  await client.call('upload_storage_file', { projectId: 's_1', fileName: 'a.txt', contentBase64: file });
  // A name known only at run time: what the registry says is checked when it is called (validate.ts).
  await client.call(name, { anything: 1 });

  // @ts-expect-error: projectId, the one argument publish_site requires, is missing
  await client.call('publish_site', {});
  // @ts-expect-error: a misspelt argument (projectID)
  await client.call('publish_site', { projectID: 's_1' });
  // @ts-expect-error: an argument the method does not take
  await client.call('publish_site', { projectId: 's_1', wait: true });
  // @ts-expect-error: a mode the registry does not list
  await client.call('send_message', { projectId: 's_1', prompt: 'hi', mode: 'fast' });
  // @ts-expect-error: a number where the registry has text
  await client.call('get_publish_status', { projectId: 42 });
  // @ts-expect-error: paths is a list of paths, not one
  await client.call('restore_storage_backup', { projectId: 's', backupId: 'b', mode: 'selected', paths: 'a' });
  // @ts-expect-error: a method the registry does not have
  await client.call('publsh_site', { projectId: 's_1' });
  // @ts-expect-error: only text arguments may stream
  await client.call('get_job', { projectId: 's_1', jobId: 'j', cursor: file });
}

// The listing helpers call through the same types.
export async function listings(client: ApiClient) {
  for await (const _ of paginate(client, 'list_sites', { workspaceId: 'ws_1' })) break;
  for await (const _ of pages(client, 'get_publish_logs', { projectId: 's', deploymentId: 'd' })) break;
  await listByPage(client, 'list_code_backups', { projectId: 's' }, {});

  // @ts-expect-error: list_sites needs the workspace
  for await (const _ of paginate(client, 'list_sites', {})) break;
  // @ts-expect-error: a misspelt argument (deploymentID)
  for await (const _ of pages(client, 'get_publish_logs', { projectId: 's', deploymentID: 'd' })) break;
  // @ts-expect-error: the page is the helper's to set, as a number: not text
  await listByPage(client, 'list_code_backups', { projectId: 's', page: '2' }, {});
}

// A plan of calls made later (doctor's) pairs each method with the arguments it takes.
export const steps: Step[] = [
  { method: 'get_job', why: 'w', args: () => ({ send: { projectId: 's', jobId: 'j', cursor: 0 } }) },
  { method: 'list_workspaces', why: 'w', args: () => ({ send: {} }) },
  // @ts-expect-error: get_job needs the run (jobId)
  { method: 'get_job', why: 'w', args: () => ({ send: { projectId: 's' } }) },
  // @ts-expect-error: list_workspaces takes no argument
  { method: 'list_workspaces', why: 'w', args: () => ({ send: { workspaceId: 'w' } }) },
];

// The emulator's handlers get every argument of the registry at once (emulator/host.ts Args):
// required where every method taking it requires it, the union of what the methods accept.
type Any = AnyMethodArgs;
expectTypeOf<Any['projectId']>().toEqualTypeOf<string>();
expectTypeOf<Any['expectedVersion']>().toEqualTypeOf<number>();
expectTypeOf<Any['mode']>().toEqualTypeOf<'build' | 'plan' | 'full' | 'selected' | undefined>();
expectTypeOf<Any['token']>().toEqualTypeOf<string | number | undefined>();
expectTypeOf<Pick<Any, 'jobId'>>().toEqualTypeOf<{ jobId?: string }>();
// No index signature from a method that takes nothing (list_workspaces): a misspelt name is caught.
// @ts-expect-error: no method takes projectID
type _Misspelt = Any['projectID'];
