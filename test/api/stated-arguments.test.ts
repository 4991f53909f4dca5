// Guessed arguments are advice, not a gate: the client refuses before sending only what the
// service's documentation states (docs/scripting.md "How calls are made"); the registry's
// guesses go to the service, which decides. The emulator keeps checking everything
// (test/api/registry.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { LIMITS } from '../../src/api/limits.js';
import { methodInfos, type MethodName, methodInfo } from '../../src/api/method-index.js';
import { checkArgsForSending } from '../../src/api/validate.js';
import { FakeClock } from '../../src/clock.js';
import { UsageError } from '../../src/errors.js';
import { envelope, startScriptServer, type ScriptServer } from '../helpers/script-server.js';

const check = (name: MethodName, args: unknown) => checkArgsForSending(name, methodInfo(name)!.schema, args)?.message;

describe('methods whose arguments the documentation does not show', () => {
  it('let unknown, missing and guessed arguments through', () => {
    expect(check('upload_storage_file', { path: 'a.txt', content: 'aGk=' })).toBeUndefined();
    expect(check('upload_storage_file', {})).toBeUndefined();
    expect(check('list_messages', { projectId: 's', limit: 'ten', before: 'x' })).toBeUndefined();
    expect(check('edit_queued_message', { projectId: 's', expectedVersion: 'v3' })).toBeUndefined();
    expect(check('get_site_analytics_pages', { projectId: 's', from: '31/01/2026', limit: 0 })).toBeUndefined();
  });

  it('take paging cursors and tokens as opaque: text or a number', () => {
    for (const cursor of ['cur_abc', 42, 0, 1.5])
      expect(check('list_site_cron_runs', { projectId: 's', cursor }), String(cursor)).toBeUndefined();
    expect(check('list_messages', { projectId: 's', cursor: 17 })).toBeUndefined();
    expect(check('list_storage_files', { projectId: 's', token: 9 })).toBeUndefined();
    expect(check('list_webhook_deliveries', { projectId: 's', cursor: { at: 1 } })).toBe(
      'The argument `cursor` must be text or a number.',
    );
  });

  it('still check what the documentation states of every method: projectId, offset, page', () => {
    expect(check('list_backups', { projectId: 5 })).toBe('The argument `projectId` must be text.');
    expect(check('list_rows', { projectId: 's', offset: 'ten' })).toBe('The argument `offset` must be a number.');
    expect(check('list_rows', { projectId: 's', offset: 1.5 })).toBe('The argument `offset` must be a whole number.');
    expect(check('list_code_backups', { projectId: 's', page: 0 })).toBe('The argument `page` must be at least 1.');
  });

  it('refuse what every body is refused for: nesting, list items, a prompt over 500,000', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 70; i++) deep = { a: deep };
    expect(check('set_secret', { projectId: 's', value: deep })).toMatch(/nested more than 64 levels/);
    expect(check('clear_storage_backups', { projectId: 's', backupIds: Array(10_001).fill('b') })).toMatch(
      /10,001 items; at most 10,000/,
    );
    expect(check('edit_queued_message', { prompt: 'x'.repeat(LIMITS.promptMax + 1) })).toBe(
      'The argument `prompt` is longer than 500,000 characters.',
    );
    expect(check('edit_queued_message', { prompt: 'x'.repeat(LIMITS.promptMax) })).toBeUndefined();
    expect(check('list_workspaces', [])).toBe('The body must be a JSON object holding the arguments.');
  });

  it('a method the registry does not know: only the limits of every body', () => {
    expect(checkArgsForSending('brand_new_method', undefined, { anything: 1 })).toBeNull();
    expect(checkArgsForSending('brand_new_method', undefined, { list: Array(10_001).fill(0) })?.message).toMatch(
      /10,001 items/,
    );
  });
});

describe('methods whose arguments the documentation shows', () => {
  it('send_message: types, bounds and values checked; required-ness is not shown, so missing goes through', () => {
    expect(check('send_message', { projectId: 's', prompt: 'hi' })).toBeUndefined();
    expect(check('send_message', { prompt: 'hi' })).toBeUndefined();
    expect(check('send_message', { projectId: '', prompt: 'hi' })).toBeUndefined();
    expect(check('send_message', { projectId: 's', prompt: 'hi', colour: 'red' })).toBeUndefined();
    expect(check('send_message', { projectId: 5, prompt: 'hi' })).toBe('The argument `projectId` must be text.');
    expect(check('send_message', { projectId: 's', prompt: 'hi', mode: 'draft' })).toBe(
      'The argument `mode` must be one of: build, plan.',
    );
    expect(check('send_message', { projectId: 's', prompt: 'x'.repeat(LIMITS.promptMax + 1) })).toBe(
      'The argument `prompt` is longer than 500,000 characters.',
    );
  });

  it('create_site: importSource must be an object; what it holds is our guess', () => {
    expect(check('create_site', { workspaceId: 'w', prompt: 'p', importSource: 'https://x' })).toBe(
      'The argument `importSource` must be an object.',
    );
    expect(check('create_site', { workspaceId: 'w', prompt: 'p', importSource: { url: 'https://x' } })).toBeUndefined();
    expect(check('create_site', { prompt: 'p' })).toBeUndefined();
  });

  it('get_job: a fraction for the integer cursor is refused', () => {
    expect(check('get_job', { projectId: 'p', jobId: 'j', cursor: 1.5 })).toBe(
      'The argument `cursor` must be a whole number.',
    );
  });

  it('the restores: "required" where the documentation says required, null and empty included', () => {
    expect(check('restore_backup', { projectId: 's' })).toBe('The argument `backupId` is required.');
    expect(check('restore_backup', { projectId: 's', backupId: '' })).toBe(
      'The argument `backupId` is required and cannot be empty.',
    );
    expect(check('restore_backup', { projectId: null, backupId: 'b' })).toBe(
      'The argument `projectId` is required and cannot be null.',
    );
    expect(check('restore_code_backup', { projectId: 's', codeBackupId: 'c', cancelActiveJob: 'yes' })).toBe(
      'The argument `cancelActiveJob` must be true or false.',
    );
    expect(check('restart_site_email_domain_verification', { projectId: 's' })).toBe(
      'The argument `domainId` is required.',
    );
    const restore = { projectId: 's', backupId: 'b' };
    expect(check('restore_storage_backup', restore)).toBe('The argument `mode` must be one of: full, selected.');
    expect(check('restore_storage_backup', { ...restore, mode: 'selected', paths: Array(201).fill('a') })).toBe(
      'The list `paths` holds more than 200 items.',
    );
    // The items' bounds and the form of confirm are our guesses: the service decides.
    expect(check('restore_storage_backup', { ...restore, mode: 'selected', paths: ['a', ''] })).toBeUndefined();
    expect(check('restore_storage_backup', { ...restore, mode: 'full', confirm: '', extra: 1 })).toBeUndefined();
  });
});

describe('the registry marks what is stated, one place per argument', () => {
  it('marks each argument the documentation states, and nothing the registry only guesses', () => {
    const stated = Object.fromEntries(
      methodInfos().map((m) => [
        m.name,
        Object.entries(m.schema.properties ?? {})
          .filter(([, s]) => s['x-stated'])
          .map(([k, s]) => `${k}:${s['x-stated']}`),
      ]),
    );
    expect(stated.create_site).toEqual(['workspaceId:shown', 'prompt:shown', 'importSource:shown']);
    expect(stated.send_message).toEqual(['projectId:shown', 'prompt:shown', 'mode:shown']);
    expect(stated.cancel_job).toEqual(['projectId:shown', 'clearSession:shown']);
    expect(stated.upload_storage_file).toEqual(['projectId:shown']);
    expect(stated.restore_storage_backup).toEqual([
      'projectId:required',
      'backupId:required',
      'mode:required',
      'paths:shown',
      'confirm:shown',
    ]);
    expect(stated.list_sites).toEqual(['workspaceId:shown', 'offset:shown']);
    // No method whose arguments are not shown has a required argument in the client's eyes.
    for (const m of methodInfos().filter((i) => !i.argsShown))
      expect(
        stated[m.name].filter((s) => s.endsWith(':required')),
        m.name,
      ).toEqual([]);
  });
});

describe('the client', () => {
  let server: ScriptServer;
  beforeEach(async () => {
    server = await startScriptServer();
  });
  afterEach(() => server.close());
  // A small body limit: building a real 150 MB body would cost half a gigabyte.
  const client = () =>
    new ApiClient({ baseUrl: server.baseUrl, token: 'sb_t_123456789', clock: new FakeClock(), maxBodyBytes: 4096 });

  it('sends upload_storage_file with the arguments a person chose, and passes on the service’s 400', async () => {
    server.script = [
      { status: 400, body: envelope(null, 400, 'upload_storage_file does not take the arguments `path`, `content`.') },
    ];
    const c = client();
    // As `sitebuilder api` calls it: a name known only at run time, arguments as typed.
    const err = await c.call<string>('upload_storage_file', { path: 'a.txt', content: 'aGk=' }).catch((e) => e);
    c.close();
    expect(JSON.parse(server.requests[0].body)).toEqual({ path: 'a.txt', content: 'aGk=' });
    expect(err.status).toBe(400);
  });

  it('refuses a body over the 150 MB limit before sending (413 would follow)', async () => {
    const c = client();
    const err = await c.call('set_secret', { projectId: 's', name: 'N', value: 'x'.repeat(5000) }).catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/^Not sent: the body is 5,039 bytes; the service takes at most 4,096 \(150 MB\)\.$/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a bad stated argument before sending, with exit 2', async () => {
    const c = client();
    // @ts-expect-error: what the type check refuses (method-args.ts), the client refuses too
    const err = await c.call('restore_backup', { projectId: 's' }).catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(UsageError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('Not sent: The argument `backupId` is required.');
    expect(server.requests).toHaveLength(0);
  });
});
