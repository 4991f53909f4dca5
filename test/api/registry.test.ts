import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/api/limits.js';
import {
  METHOD_INDEX_NAMES,
  methodInfos,
  type MethodInfo,
  type MethodName,
  methodInfo,
} from '../../src/api/method-index.js';
import { checkArgsAgainstSchema, checkBodyShape } from '../../src/api/validate.js';
import type { Args } from '../../src/emulator/host.js';

// What runs: the registry as compiled into the index (test/api/method-index.test.ts keeps it in step).
const m = (name: MethodName) => methodInfo(name)!;
const getMethod = methodInfo;
const validateArgs = (spec: MethodInfo, args: unknown) => checkArgsAgainstSchema(spec.name, spec.schema, args);

describe('method registry against the spec', () => {
  it('holds the scopes the spec states', () => {
    const scopes: Partial<Record<MethodName, string>> = {
      create_site: 'sites:create',
      send_message: 'chat:write',
      get_job: 'chat:read',
      remove_queued_message: 'sites:delete',
      publish_site: 'publish:write',
      list_workspaces: 'workspaces:read',
      list_sites: 'sites:read',
      restore_backup: 'sites:write',
      restore_code_backup: 'sites:delete',
      restore_storage_backup: 'data:write',
      restart_site_email_domain_verification: 'config:write',
    };
    for (const [name, scope] of Object.entries(scopes)) expect(m(name as MethodName).scope, name).toBe(scope);
  });

  it('marks the destructive methods', () => {
    const destructive = METHOD_INDEX_NAMES.filter((n) => m(n).destructive).sort();
    expect(destructive).toEqual(
      expect.arrayContaining([
        'restore_backup',
        'restore_code_backup',
        'restore_storage_backup',
        'restart_site_email_domain_verification',
      ]),
    );
    expect(m('list_sites').destructive).toBe(false);
  });

  it('uses the listing pattern of each list method', () => {
    const patterns: Record<string, string[]> = {
      offset: [
        'list_sites',
        'list_templates',
        'list_deployments',
        'list_rows',
        'list_workspace_members',
        'get_publish_logs',
      ],
      offsetHasMore: ['list_workspace_credit_activity'],
      nextCursor: [
        'list_deploy_hook_calls',
        'list_site_cron_runs',
        'list_webhook_deliveries',
        'list_site_email_sends',
        'list_site_email_engagement',
        'list_site_email_suppressions',
      ],
      token: ['list_storage_files'],
      page: ['list_code_backups', 'list_storage_backups', 'list_database_backups'],
      backwards: ['list_messages'],
    };
    for (const [pattern, names] of Object.entries(patterns)) {
      for (const name of names) expect(getMethod(name)?.listing, name).toBe(pattern);
    }
  });

  it('holds every method the spec names', () => {
    const named = [
      'create_site',
      'send_message',
      'get_job',
      'cancel_job',
      'list_messages',
      'list_queued_messages',
      'edit_queued_message',
      'reorder_queued_message',
      'remove_queued_message',
      'resume_queue',
      'upload_storage_file',
      'publish_site',
      'get_publish_status',
      'list_workspaces',
      'list_sites',
      'restore_backup',
      'restore_code_backup',
      'restore_storage_backup',
      'get_storage_restore_status',
      'restart_site_email_domain_verification',
      'run_site_cron',
      'trigger_deploy_hook',
      'export_collection',
      'set_secret',
      'read_storage_backup_file',
      'create_storage_backup',
      'clear_storage_backups',
      'get_site_email_settings',
      'list_backups',
      'list_code_backups',
      'list_storage_backups',
      'browse_storage_backup',
      'list_database_backups',
      'list_storage_files',
    ];
    for (const name of named) expect(getMethod(name), name).toBeDefined();
    expect(getMethod('no_such_method')).toBeUndefined();
    expect(getMethod('toString')).toBeUndefined();
  });

  it('takes the documented arguments of restore_storage_backup with their bounds', () => {
    const spec = m('restore_storage_backup');
    expect(validateArgs(spec, { projectId: 'p', backupId: 'b', mode: 'full' })).toBeNull();
    expect(validateArgs(spec, { projectId: 'p', backupId: 'b', mode: 'some' })?.message).toContain('full, selected');
    const paths = Array.from({ length: 201 }, (_, i) => `f${i}`);
    expect(validateArgs(spec, { projectId: 'p', backupId: 'b', mode: 'selected', paths })?.message).toContain(
      'more than 200 items',
    );
    expect(
      validateArgs(spec, { projectId: 'p', backupId: 'b', mode: 'selected', paths: paths.slice(0, 200) }),
    ).toBeNull();
  });

  it('bounds prompts at 500,000 characters', () => {
    const spec = m('send_message');
    expect(validateArgs(spec, { projectId: 'p', prompt: 'x'.repeat(LIMITS.promptMax) })).toBeNull();
    const problem = validateArgs(spec, { projectId: 'p', prompt: 'x'.repeat(LIMITS.promptMax + 1) });
    expect(problem).toEqual({ path: 'prompt', message: 'The argument `prompt` is longer than 500,000 characters.' });
    expect(validateArgs(m('create_site'), { workspaceId: 'w', prompt: 'x'.repeat(LIMITS.promptMax + 1) })?.path).toBe(
      'prompt',
    );
  });
});

describe('argument validation messages', () => {
  const send = m('send_message');
  it.each([
    [{ prompt: 'hi' }, 'The argument `projectId` is required.'],
    [{ projectId: null, prompt: 'hi' }, 'The argument `projectId` is required and cannot be null.'],
    [{ projectId: '', prompt: 'hi' }, 'The argument `projectId` is required and cannot be empty.'],
    [{ projectId: 5, prompt: 'hi' }, 'The argument `projectId` must be text.'],
    [{ projectId: 'p', prompt: 'hi', mode: 'draft' }, 'The argument `mode` must be one of: build, plan.'],
    [{ projectId: 'p', prompt: 'hi', colour: 'red' }, 'send_message does not take the argument `colour`.'],
  ])('%j → %s', (args, message) => {
    expect(validateArgs(send, args)?.message).toBe(message);
  });

  it('refuses a fraction for an integer', () => {
    expect(validateArgs(m('get_job'), { projectId: 'p', jobId: 'j', cursor: 1.5 })?.message).toBe(
      'The argument `cursor` must be a whole number.',
    );
  });

  it('gives the path of a nested mismatch', () => {
    expect(validateArgs(m('create_site'), { workspaceId: 'w', prompt: 'p', importSource: { SourceUrl: 3 } })).toEqual({
      path: 'importSource.SourceUrl',
      message: 'The argument `importSource.SourceUrl` must be text.',
    });
  });

  it('gives the path of a nested unknown argument and of a list item', () => {
    expect(
      validateArgs(m('create_site'), { workspaceId: 'w', prompt: 'p', importSource: { SourceUrl: 'u', x: 1 } }),
    ).toEqual({ path: 'importSource.x', message: 'create_site does not take the argument `importSource.x`.' });
    const restore = { projectId: 'p', backupId: 'b', mode: 'selected' };
    expect(validateArgs(m('restore_storage_backup'), { ...restore, paths: ['a', 2] })).toEqual({
      path: 'paths[1]',
      message: 'The argument `paths[1]` must be text.',
    });
    expect(validateArgs(m('restore_storage_backup'), { ...restore, paths: ['a', ''] })?.message).toBe(
      'The argument `paths[1]` is required and cannot be empty.',
    );
  });

  it.each([
    [{ projectId: 'p', limit: 0 }, 'The argument `limit` must be at least 1.'],
    [{ projectId: 'p', limit: 1001 }, 'The argument `limit` must be at most 1,000.'],
    [{ projectId: 'p', limit: 'ten' }, 'The argument `limit` must be a number.'],
    [{ projectId: 'p', limit: 2 ** 60 }, 'The argument `limit` must be at most 9,007,199,254,740,991.'],
    [
      { projectId: 'p', from: '31/01/2026' },
      'The argument `from` is not in the expected form (a date like 2026-01-31).',
    ],
    [{ projectId: 'p', from: 5 }, 'The argument `from` must be text.'],
    [{ projectId: 'p', a: 1, b: 2 }, 'get_site_analytics_pages does not take the arguments `a`, `b`.'],
    [{}, 'The argument `projectId` is required.'],
  ])('get_site_analytics_pages %j → %s', (args, message) => {
    expect(validateArgs(m('get_site_analytics_pages'), args)?.message).toBe(message);
  });

  it('answers a null or missing value of an enum with the allowed values', () => {
    const restore = m('restore_storage_backup');
    expect(validateArgs(restore, { projectId: 'p', backupId: 'b' })?.message).toBe(
      'The argument `mode` must be one of: full, selected.',
    );
    expect(validateArgs(restore, { projectId: 'p', backupId: 'b', mode: null })?.message).toBe(
      'The argument `mode` must be one of: full, selected.',
    );
    expect(validateArgs(m('cancel_job'), { projectId: 'p', clearSession: 'yes' })?.message).toBe(
      'The argument `clearSession` must be true or false.',
    );
  });

  it('refuses bodies that are not objects', () => {
    expect(validateArgs(send, [])?.message).toContain('JSON object');
    expect(validateArgs(send, 'x')?.message).toContain('JSON object');
  });

  it('walks deep nesting without recursion and refuses past 64 levels', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(checkBodyShape(deep)?.message).toContain('more than 64 levels');
    let ok: unknown = 'leaf';
    for (let i = 0; i < 63; i++) ok = { a: ok };
    expect(checkBodyShape(ok)).toBeNull();
  });

  it('refuses a list over 10,000 items anywhere', () => {
    expect(checkBodyShape({ a: { b: new Array(10_001).fill(0) } })?.message).toContain('10,001 items');
    expect(checkBodyShape({ a: new Array(10_000).fill(0) })).toBeNull();
  });

  it('marks the methods whose arguments the spec does not show', () => {
    for (const name of ['export_collection', 'run_site_cron', 'list_messages', 'upload_storage_file'] as const)
      expect(m(name).argsShown, name).toBe(false);
    for (const name of ['send_message', 'restore_storage_backup', 'create_site'] as const)
      expect(m(name).argsShown, name).toBe(true);
  });
});

describe('the arguments an emulator handler reads', () => {
  it('are every argument of the registry, and only those', () => {
    // Typed as Record<keyof Args, true>: tsc fails when Args and this list differ.
    const named: Record<keyof Args, true> = {
      backupId: true,
      backupIds: true,
      cancelActiveJob: true,
      category: true,
      clearSession: true,
      codeBackupId: true,
      collectionId: true,
      confirm: true,
      contentBase64: true,
      contentType: true,
      cronId: true,
      cursor: true,
      deploymentId: true,
      domainId: true,
      expectedVersion: true,
      fileName: true,
      format: true,
      from: true,
      hookId: true,
      importSource: true,
      jobId: true,
      label: true,
      limit: true,
      mode: true,
      name: true,
      offset: true,
      page: true,
      path: true,
      paths: true,
      position: true,
      prefix: true,
      projectId: true,
      prompt: true,
      queueItemId: true,
      recursive: true,
      restoreId: true,
      sendId: true,
      to: true,
      token: true,
      value: true,
      visibility: true,
      webhookId: true,
      workspaceId: true,
    };
    const registry = new Set(methodInfos().flatMap((info) => Object.keys(info.schema.properties ?? {})));
    expect(Object.keys(named).sort()).toEqual([...registry].sort());
  });
});
