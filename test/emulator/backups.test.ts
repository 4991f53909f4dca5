// Site backups and code backups over real HTTP: what restore_backup replaces and leaves alone,
// the Pre-restore Backup, code backups after each run, restore_code_backup's effects on the
// chat (history deleted, queue discarded, files reverted), its three 409s verbatim, and the
// code-hosting refusals of both restores.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { harness, type Harness, type RawAnswer } from './helpers.js';

const SITE = 'site_bakery';
const clock = new FakeClock();
let h: Harness;

beforeAll(async () => {
  h = await harness({ clock });
});
beforeEach(() => h.emu.control.reset());
afterAll(() => h.close());

const expectRefusal = (res: RawAnswer, status: number, message: string | RegExp) => {
  expect(res.status).toBe(status);
  expect(res.body.success).toBe(false);
  if (typeof message === 'string') expect(res.body.message).toBe(message);
  else expect(res.body.message).toMatch(message);
};
const data = async (verb: string, path: string, body?: unknown) => (await h.control(verb, path, body)).body.data;

describe('site backups', () => {
  it('lists backups with both ids and restores by either, taking a Pre-restore Backup, leaving the rest alone', async () => {
    const list = (await h.call('list_backups', { projectId: SITE })).body;
    expect(list.count).toBe(2);
    const [daily, older] = list.data.items;
    expect(daily).toMatchObject({ type: 'daily', label: 'Daily backup', pages: 3 });
    expect(older).toMatchObject({ type: 'manual', label: 'Before the menu redesign', pages: 2 });
    expect(older._id).not.toBe(older.BackupId);

    const storageBefore = await data('GET', `sites/${SITE}/storage-files`);
    const filesBefore = await data('GET', `sites/${SITE}/files`);
    const deploymentsBefore = (await h.call('list_deployments', { projectId: SITE })).body.count;

    const res = await h.call('restore_backup', { projectId: SITE, backupId: older.BackupId });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      restored: true,
      published: false,
      preRestoreBackup: { type: 'automatic', label: 'Pre-restore Backup', pages: 3 },
    });
    const content = await data('GET', `sites/${SITE}/content`);
    expect(content.pages.map((p: any) => p.title)).toEqual(['Home', 'Menu']);
    expect(content.settings.theme).toBe('classic');
    expect(await data('GET', `sites/${SITE}/storage-files`)).toEqual(storageBefore);
    expect(await data('GET', `sites/${SITE}/files`)).toEqual(filesBefore);
    expect((await h.call('list_deployments', { projectId: SITE })).body.count).toBe(deploymentsBefore);

    const after = (await h.call('list_backups', { projectId: SITE })).body.data.items;
    expect(after[0]).toMatchObject({ type: 'automatic', label: 'Pre-restore Backup' });
    // The Pre-restore Backup undoes it, named by its _id this time.
    expect((await h.call('restore_backup', { projectId: SITE, backupId: after[0]._id })).status).toBe(200);
    expect((await data('GET', `sites/${SITE}/content`)).pages).toHaveLength(3);
    expectRefusal(
      await h.call('restore_backup', { projectId: SITE, backupId: 'nope' }),
      404,
      /No backup has the id "nope"/,
    );
    expectRefusal(
      await h.call('restore_backup', { projectId: SITE, backupId: after[0]._id }, { token: DEMO_TOKENS.readonly }),
      403,
      /sites:write/,
    );
  });
});

describe('code backups', () => {
  it('takes one after each run that changed files, newest first', async () => {
    const first = (await h.call('list_code_backups', { projectId: SITE })).body;
    expect(first.count).toBe(1);
    expect(first.data).toMatchObject({ page: 1, totalPages: 1, hasMore: false });
    await h.call('send_message', { projectId: SITE, prompt: 'Add a contact page' });
    clock.advance(10 * 60_000);
    const list = (await h.call('list_code_backups', { projectId: SITE })).body.data.items;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ label: 'Add a contact page', jobId: expect.stringMatching(/^job_/) });
    expect(list[0].files).toBeGreaterThan(list[1].files);
  });

  it('refuses while the agent generates (verbatim), changing nothing; cancelActiveJob stops it and restores', async () => {
    const [{ codeBackupId }] = (await h.call('list_code_backups', { projectId: SITE })).body.data.items;
    const original = await data('GET', `sites/${SITE}/code-backups`);
    await h.call('send_message', { projectId: SITE, prompt: 'Add a gallery page #long' });
    const queued = await h.call('send_message', { projectId: SITE, prompt: 'Then a blog' });
    expect(queued.body.data.queued).toBe(true);
    const messagesBefore = (await h.call('list_messages', { projectId: SITE })).body.data;
    const refused = await h.call('restore_code_backup', { projectId: SITE, codeBackupId });
    expectRefusal(refused, 409, 'AI is currently generating. Stop it before restoring this code backup!');
    expect((await h.call('list_messages', { projectId: SITE })).body.data).toEqual(messagesBefore);
    expect((await h.call('list_queued_messages', { projectId: SITE })).body.data.items).toHaveLength(1);

    const res = await h.call('restore_code_backup', { projectId: SITE, codeBackupId, cancelActiveJob: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      restored: true,
      cancelledJobId: expect.stringMatching(/^job_/),
      queuedMessagesDiscarded: 1,
      backupTaken: false,
      published: false,
    });
    expect(res.body.data.messagesDeleted).toBeGreaterThan(1);
    const job = await h.call('get_job', { projectId: SITE, jobId: res.body.data.cancelledJobId });
    expect(job.body.data.state).toBe('cancelled');
    const messages = (await h.call('list_messages', { projectId: SITE })).body.data;
    expect(messages.items).toHaveLength(0);
    const queue = (await h.call('list_queued_messages', { projectId: SITE })).body.data;
    expect(queue.items).toHaveLength(0);
    const files = Object.keys((await data('GET', `sites/${SITE}/files`)).files).sort();
    expect(files).toEqual(original[0].fileList);
    // No backup was taken first, not even of the cancelled run's writes.
    expect(await data('GET', `sites/${SITE}/code-backups`)).toHaveLength(1);
  });

  it('refuses a second restore while one is going on, and while the latest changes are still being saved', async () => {
    const [{ codeBackupId }] = (await h.call('list_code_backups', { projectId: SITE })).body.data.items;
    expect((await h.call('restore_code_backup', { projectId: SITE, codeBackupId })).status).toBe(200);
    expectRefusal(
      await h.call('restore_code_backup', { projectId: SITE, codeBackupId }),
      409,
      'Another code backup is already being restored for this site!',
    );
    clock.advance(6_000);
    await h.control('POST', `sites/${SITE}/code-saving`, { seconds: 45 });
    expectRefusal(
      await h.call('restore_code_backup', { projectId: SITE, codeBackupId }),
      409,
      'Your latest changes are still being saved. Try restoring again in a moment!',
    );
    clock.advance(20_000);
    // 25 s of saving left: the service waits for it instead of refusing.
    expect((await h.call('restore_code_backup', { projectId: SITE, codeBackupId })).status).toBe(200);
  });

  it('refuses unknown ids and tokens without sites:delete', async () => {
    expectRefusal(
      await h.call('restore_code_backup', { projectId: SITE, codeBackupId: 'cbk_999999' }),
      404,
      /No code backup/,
    );
    const [{ codeBackupId }] = (await h.call('list_code_backups', { projectId: SITE })).body.data.items;
    expectRefusal(
      await h.call('restore_code_backup', { projectId: SITE, codeBackupId }, { token: DEMO_TOKENS.readonly }),
      403,
      /sites:delete/,
    );
  });
});

describe('code-hosting refusals of restore_backup and restore_code_backup', () => {
  it('refuses while the code moves, when the repository is lost, and for an own account on the Free plan', async () => {
    const backupId = (await h.call('list_backups', { projectId: SITE })).body.data.items[0]._id;
    const codeBackupId = (await h.call('list_code_backups', { projectId: SITE })).body.data.items[0].codeBackupId;
    const cases: Array<[string, string, number, string]> = [
      [SITE, 'moving', 409, 'code_moving'],
      [SITE, 'access-lost', 422, 'repository_unavailable'],
    ];
    for (const [site, state, status, code] of cases) {
      await h.control('POST', `sites/${site}/code-hosting`, { state });
      for (const [method, args] of [
        ['restore_backup', { projectId: site, backupId }],
        ['restore_code_backup', { projectId: site, codeBackupId }],
      ] as const) {
        const res = await h.call(method, args);
        expect(res.status).toBe(status);
        expect(res.body.data.code).toBe(code);
      }
    }
    await h.control('POST', `sites/${SITE}/code-hosting`, { state: 'connected' });
    const blogBackup = (await h.call('list_backups', { projectId: 'site_blog' })).body.data.items[0]._id;
    await h.control('POST', 'sites/site_blog/code-hosting', { state: 'own-account' });
    const res = await h.call('restore_backup', { projectId: 'site_blog', backupId: blogBackup });
    expect(res.status).toBe(403);
    expect(res.body.data).toMatchObject({ code: 'own_account_requires_paid_plan', reason: 'paid-plan-required' });
  });
});
