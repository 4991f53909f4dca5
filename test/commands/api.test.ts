// `sitebuilder api`, `tools` and `openapi` against a real emulator: fields, body, headers,
// client-side validation, refusals, --include, and --paginate over the six listing patterns.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { putStorageFile } from '../../src/emulator/storage.js';
import { run } from '../helpers/run.js';
import { rx } from '../helpers/shapes.js';

let emu: RunningEmulator;
const clock = new FakeClock();
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-api-'));

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
beforeEach(() => emu.control.reset());
afterAll(() => emu.close());

const api = (args: string[], opts: { stdin?: string; tty?: boolean } = {}) =>
  run(['api', ...args], { env, clock, ...opts });
const sent = (method: string) => emu.emulator.log.list({ method });

describe('api <method>', () => {
  it('posts text and typed fields and prints the whole envelope', async () => {
    const res = await api(['list_sites', '-f', 'workspaceId=ws_demo', '-F', 'limit=2']);
    expect(res.code).toBe(0);
    const envelope = JSON.parse(res.stdout);
    const total = emu.emulator.sitesOf('ws_demo').length;
    expect(envelope).toMatchObject({ success: true, code: 200, count: total, version: expect.any(String) });
    expect(envelope.data).toHaveLength(2);
    expect(sent('list_sites')[0].args).toEqual({ workspaceId: 'ws_demo', limit: 2 });
  });

  it('reads @file, nests keys, merges fields over --input, and reads --input - from stdin', async () => {
    writeFileSync(join(dir, 'brief.txt'), 'A site for a dog groomer.\n');
    writeFileSync(join(dir, 'body.json'), JSON.stringify({ workspaceId: 'ws_free', prompt: 'replaced' }));
    const res = await api([
      'create_site',
      '--input',
      join(dir, 'body.json'),
      '-f',
      'workspaceId=ws_demo',
      '-F',
      `prompt=@${join(dir, 'brief.txt')}`,
      '-f',
      'importSource[SourceUrl]=https://groomer.example/',
    ]);
    expect(res.code).toBe(0);
    expect(sent('create_site')[0].args).toEqual({
      workspaceId: 'ws_demo',
      prompt: 'A site for a dog groomer.\n',
      importSource: { SourceUrl: 'https://groomer.example/' },
    });
    const piped = await api(['list_sites', '--input', '-'], { stdin: '{"workspaceId":"ws_free"}' });
    expect(JSON.parse(piped.stdout).count).toBe(2);
  });

  it('checks the arguments the spec states before sending (exit 2)', async () => {
    const res = await api(['list_sites', '-f', 'workspaceId=ws_demo', '-f', 'offset=2']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/Not sent: The argument `offset` must be a (whole )?number/);
    expect(res.stdout).toBe('');
    for (const bad of [
      ['list_sites', '-f', 'novalue'],
      ['list_sites', '-F', 'x={oops'],
      ['list_sites', '--input', join(dir, 'missing.json')],
      ['list_sites', '-H', 'no colon'],
    ]) {
      expect((await api(bad)).code, bad.join(' ')).toBe(2);
    }
    expect(sent('list_sites')).toHaveLength(0);
  });

  it('sends what the registry only guesses: the service decides (the emulator answers 400)', async () => {
    // `limit` of list_sites is our guess ("some take limit"): text for it goes to the service.
    const limit = await api(['list_sites', '-f', 'workspaceId=ws_demo', '-f', 'limit=2']);
    expect(limit.code).toBe(1);
    expect(JSON.parse(limit.stdout)).toMatchObject({ success: false, code: 400 });
    expect(limit.stderr).toContain('The argument `limit` must be a number.');
    // upload_storage_file's arguments are not shown: names the registry did not guess are sent.
    const upload = await api([
      'upload_storage_file',
      '-f',
      'projectId=site_bakery',
      '-f',
      'path=a.txt',
      '-f',
      'content=aGk=',
    ]);
    expect(upload.code).toBe(1);
    expect(JSON.parse(upload.stdout)).toMatchObject({ success: false, code: 400 });
    expect(sent('upload_storage_file').map((e) => e.args)).toEqual([
      { projectId: 'site_bakery', path: 'a.txt', content: 'aGk=' },
    ]);
    expect(sent('list_sites').map((e) => e.args)).toEqual([{ workspaceId: 'ws_demo', limit: '2' }]);
  });

  it('still sends an unknown method: the service answers 404, printed as is (exit 1)', async () => {
    const res = await api(['no_such_method', '-F', 'x=1']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ success: false, code: 404 });
    expect(res.stderr).toMatch(/sitebuilder tools/);
    expect(emu.emulator.log.list().filter((e) => e.path === '/v1/no_such_method')).toHaveLength(1);
  });

  it('prints the envelope of a refusal on stdout and the reason on stderr, with its exit code', async () => {
    const res = await api([
      'restart_site_email_domain_verification',
      '-f',
      'projectId=site_docs',
      '-f',
      'domainId=edom_docs',
    ]);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).message).toBe(
      'The mail provider is still verifying this domain, so there is nothing to restart!',
    );
    expect(res.stderr).toContain('still verifying this domain');
    const scope = await run(['api', 'set_secret', '-f', 'projectId=site_bakery', '-f', 'name=A', '-f', 'value=b'], {
      env: { ...env, SITEBUILDER_TOKEN: DEMO_TOKENS.readonly },
      clock,
    });
    expect(scope.code).toBe(4);
  });

  it('sends -H Idempotency-Key and reuses it; a repeat is answered from the first result', async () => {
    const args = [
      'set_secret',
      '-f',
      'projectId=site_bakery',
      '-f',
      'name=API_KEY',
      '-f',
      'value=v1',
      '-H',
      'Idempotency-Key: secret-1',
    ];
    const first = JSON.parse((await api(args)).stdout);
    const again = JSON.parse((await api(args)).stdout);
    expect(again).toEqual(first);
    const log = sent('set_secret');
    expect(log.map((e) => [e.idempotencyKey, e.replayed])).toEqual([
      ['secret-1', false],
      ['secret-1', true],
    ]);
    expect((await api(['set_secret', '-H', 'Authorization: Bearer x'])).code).toBe(2);
  });

  it('--include prints the status and headers; with --json one document', async () => {
    const text = await api(['list_workspaces', '--include']);
    expect(text.stdout).toMatch(/^HTTP 200\n/);
    expect(text.stdout).toMatch(rx()`\nx-request-id: ${'req'}\n`);
    expect(text.stdout).toMatch(/\nx-ratelimit-remaining: \d+\n/);
    const json = JSON.parse((await api(['list_workspaces', '--include', '--json'])).stdout);
    expect(json).toMatchObject({ status: 200, headers: { 'x-ratelimit-limit': '240' }, body: { success: true } });
    const refused = await api(['no_such_method', '--include']);
    expect(refused.stdout).toMatch(/^HTTP 404\n[\s\S]*x-request-id/);
  });

  it('without a method lists the methods of the registry', async () => {
    const res = await api([]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^list_sites\tsites:read\tread, pages: offset\t/m);
    const json = JSON.parse((await api(['--json'])).stdout);
    expect(json.find((m: { name: string }) => m.name === 'restart_site_email_domain_verification')).toMatchObject({
      destructive: true,
      permission: 'manageDomains',
    });
  });
});

describe('api --paginate', () => {
  it('follows each of the six listing patterns to the end', async () => {
    for (let i = 0; i < 75; i++) {
      putStorageFile(emu.emulator, 'site_bakery', {
        path: `f/${String(i).padStart(2, '0')}.txt`,
        visibility: 'public',
        contentType: 'text/plain',
        contentBase64: 'eA==',
      });
    }
    const sites = emu.emulator.sitesOf('ws_demo').length;
    const cases: Array<[string[], number, number]> = [
      [['list_sites', '-f', 'workspaceId=ws_demo', '-F', 'limit=1'], sites, sites], // offset and count
      [['list_workspace_credit_activity', '-f', 'workspaceId=ws_demo'], 36, 2], // offset with hasMore
      [['list_site_cron_runs', '-f', 'projectId=site_bakery'], 48, 3], // next cursor
      [['list_storage_files', '-f', 'projectId=site_bakery', '-f', 'prefix=f/'], 75, 2], // token
      [['list_database_backups', '-f', 'projectId=site_bakery'], 30, 3], // page numbers
      [['list_messages', '-f', 'projectId=site_bakery', '-F', 'limit=1'], 2, 2], // backwards
    ];
    for (const [args, count, pages] of cases) {
      const before = sent(args[0]).length;
      const res = await api([...args, '--paginate']);
      expect(res.code, args[0]).toBe(0);
      const items = JSON.parse(res.stdout);
      expect(Array.isArray(items), args[0]).toBe(true);
      expect(items.length, args[0]).toBe(count);
      expect(sent(args[0]).length - before, args[0]).toBe(pages);
    }
  });

  it('prints NDJSON with --jsonl, one item a line', async () => {
    const res = await api(['list_site_email_sends', '-f', 'projectId=site_bakery', '--paginate', '--jsonl']);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(45);
    expect(JSON.parse(lines[0])).toMatchObject({ sendId: expect.any(String) });
  });

  it('refuses --jsonl without --paginate, and --include with it', async () => {
    expect((await api(['list_workspaces', '--jsonl'])).code).toBe(2);
    expect((await api(['list_workspaces', '--paginate', '--include'])).code).toBe(2);
  });
});

describe('tools and openapi', () => {
  it('tools lists the methods the token can use', async () => {
    const full = await run(['tools'], { env, clock });
    expect(full.code).toBe(0);
    expect(full.stdout).toMatch(/^restart_site_email_domain_verification\tconfig:write\tdestructive\t/m);
    const readonly = JSON.parse(
      (await run(['tools', '--json'], { env: { ...env, SITEBUILDER_TOKEN: DEMO_TOKENS.readonly }, clock })).stdout,
    );
    const names = readonly.map((t: { name: string }) => t.name);
    expect(names).toContain('list_sites');
    expect(names).not.toContain('set_secret');
    expect(emu.emulator.log.list().every((e) => !e.counted)).toBe(true);
  });

  it('openapi prints the OpenAPI document, even without a token', async () => {
    const res = await run(['openapi'], { env: { SITEBUILDER_BASE_URL: emu.baseUrl }, clock });
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout);
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/v1/list_sites');
    expect(doc).not.toHaveProperty('success');
  });
});
