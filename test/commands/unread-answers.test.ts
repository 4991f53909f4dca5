// Answers of shapes no alias list knows, against the commands that read them (a scripted server,
// test/helpers/method-server.ts): what the model reads is printed, what it cannot read is said,
// and a stdout contract (an address, an id) is never met with a stand-in: stdout stays empty
// and the exit code is not 0, so `X=$(…) && next` stops.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { type MethodServer, startMethodServer } from '../helpers/method-server.js';
import { run } from '../helpers/run.js';

const clock = new FakeClock();
let server: MethodServer;
beforeAll(async () => {
  server = await startMethodServer();
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const cli = (argv: string[]) =>
  run(argv, { env: { SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: 'sbt_test_0123456789abcdef' }, clock });

function files(...names: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'sb-unread-'));
  return names.map((n) => {
    const p = join(dir, n);
    writeFileSync(p, `content of ${n}`);
    return p;
  });
}

describe('upload: the address, or nothing in its place', () => {
  it('an address one level down is read', async () => {
    server.answers.upload_storage_file = { file: { url: 'https://cdn.example/logo.png', id: 7 } };
    const r = await cli(['upload', 'site_x', ...files('logo.png')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://cdn.example/logo.png\n');
  });

  it('an address it cannot read: stdout empty, exit 1, the files after it not sent', async () => {
    server.answers.upload_storage_file = { fileRef: { href: 'https://cdn.example/a.png' }, path: 'a.png' };
    const r = await cli(['upload', 'site_x', ...files('a.png', 'b.png')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('a.png was uploaded, but sitebuilder cannot read an address in the service’s answer');
    expect(r.stderr).toContain('the file after it was not sent');
    expect(server.sent('upload_storage_file')).toHaveLength(1);
  });

  it('two different addresses one level down are no address', async () => {
    server.answers.upload_storage_file = { a: { url: 'https://cdn.example/1' }, b: { url: 'https://cdn.example/2' } };
    const r = await cli(['upload', 'site_x', ...files('c.png')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });
});

describe('publish: the live address nested in the answer is found', () => {
  it('publish reads the address one level down, and the warning names none only when there is none', async () => {
    server.answers.publish_site = { running: false, status: 'ready', deployment: { url: 'https://bakery.example/' } };
    server.answers.get_publish_status = {
      running: false,
      status: 'ready',
      deployment: { url: 'https://bakery.example/' },
    };
    const r = await cli(['publish', 'site_x']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://bakery.example/\n');
    expect(r.stderr).not.toContain('named no address');
  });
});

describe('site create: the new site’s id is stdout’s contract', () => {
  it('an answer that names no site id: stdout empty, exit 1, where to find it', async () => {
    server.answers.create_site = { zq_site: { ref: 'x' }, jobId: 'job_1' };
    const r = await cli(['site', 'create', '--workspace', 'ws_1', '--prompt', 'A bakery', '--no-follow']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('did not name its id');
    expect(r.stderr).toContain('sitebuilder site list --workspace ws_1');
  });
});

describe('listings: a column no record fills is said, with where it was looked for', () => {
  it('message list: text it cannot read is left empty and said; records without a time keep the order', async () => {
    server.answers.list_messages = {
      items: [
        { role: 'user', text: [{ type: 'text', text: 'Add a page' }] },
        { role: 'agent', zq_body: { words: 'Done' } },
      ],
      hasMore: false,
    };
    const r = await cli(['message', 'list', 'site_x']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Add a page');
    expect(r.stdout).not.toContain('[object Object]');
    expect(r.stderr).toContain('The service sent the text of 1 message in a form sitebuilder cannot read');
    expect(r.stderr).toContain('in the order the service sent them');
  });

  it('workspace list names the paths looked at for a column it cannot fill', async () => {
    server.answers.list_workspaces = [{ _id: 'ws_1', zq_title: 'Studio' }];
    const r = await cli(['workspace', 'list']);
    expect(r.stdout).toMatch(/^ws_1\t/);
    expect(r.stderr).toContain('the service sent no NAME for these workspaces (looked for name, title, label).');
  });
});

describe('the storage restore plan: a count it states but does not give is never 0', () => {
  it('the plan says which counts are missing, and a plan missing them is not "nothing to restore"', async () => {
    server.answers.restore_storage_backup = {
      started: false,
      plan: { filesAdded: 1, safetyBackup: true },
      confirm: 'rc_1',
    };
    const r = await cli(['storage-restore', 'plan', 'site_x', '-b', 'sb_1', '-m', 'full']);
    expect(r.stdout).toMatch(/^Files removed\tnot given$/m);
    expect(r.stderr).toContain('The service’s plan did not give filesReplaced, filesUnchanged, filesRemoved');
    expect(r.stderr).not.toMatch(/nothing to restore/i);
  });
});

describe('email: a restart command is printed only with the domain it restarts', () => {
  it('a domain whose id cannot be read gets no restart command', async () => {
    server.answers.get_site_email_settings = {
      emailDomains: { items: [{ zq_ref: 'd1', domain: 'bakery.example', dkimStatus: 'failed', canRestart: true }] },
    };
    const r = await cli(['email', 'domains', 'site_x']);
    expect(r.stdout + r.stderr).not.toMatch(/email restart site_x\s*('')?$/m);
    expect(r.stdout + r.stderr).not.toContain("email restart site_x ''");
  });
});

describe('a storage restore’s status words (only `completed` is stated)', () => {
  it('completed ends it; a failure word ends it with exit 1; another word keeps following until --timeout', async () => {
    server.answers.get_storage_restore_status = { _id: 'rst_1', status: 'completed' };
    expect((await cli(['storage-restore', 'status', 'site_x', 'rst_1', '--wait'])).code).toBe(0);
    server.answers.get_storage_restore_status = { _id: 'rst_1', status: 'copy_failed' };
    expect((await cli(['storage-restore', 'status', 'site_x', 'rst_1', '--wait'])).code).toBe(1);
    server.answers.get_storage_restore_status = { _id: 'rst_1', status: 'reticulating' };
    const r = await cli(['storage-restore', 'status', 'site_x', 'rst_1', '--wait', '--timeout', '30s']);
    expect(r.code).toBe(8);
    expect(server.sent('get_storage_restore_status').length).toBeGreaterThan(3);
  });
});
