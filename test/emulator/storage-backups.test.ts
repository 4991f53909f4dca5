// Storage backups and the two-call storage restore, over real HTTP: the plan, its confirm,
// 409 with a new plan when the storage changed, full and selected restores, and every refusal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator } from '../../src/emulator/index.js';
import { harness, send, type Harness, type RawAnswer } from './helpers.js';

const SITE = 'site_bakery';
const clock = new FakeClock();
let h: Harness;
let ids: Record<string, string>;

beforeAll(async () => {
  h = await harness({ clock });
});
beforeEach(async () => {
  h.emu.control.reset();
  const list = await h.call('list_storage_backups', { projectId: SITE });
  ids = Object.fromEntries(list.body.data.items.map((b: any) => [b.label, b.backupId]));
});
afterAll(() => h.close());

const files = async (site = SITE) =>
  (await h.control('GET', `sites/${site}/storage-files`)).body.data as Array<{
    path: string;
    visibility: string;
    size: number;
  }>;
const plan = (args: Record<string, unknown>) => h.call('restore_storage_backup', { projectId: SITE, ...args });
const expectRefusal = (res: RawAnswer, status: number, message: string | RegExp) => {
  expect(res.status).toBe(status);
  expect(res.body.success).toBe(false);
  if (typeof message === 'string') expect(res.body.message).toBe(message);
  else expect(res.body.message).toMatch(message);
};

describe('listing, browsing, reading', () => {
  it('lists backups newest first with status, size and whether they can be restored', async () => {
    const res = await h.call('list_storage_backups', { projectId: SITE });
    expect(res.body.count).toBe(4);
    expect(res.body.data).toMatchObject({ page: 1, totalPages: 1, hasMore: false });
    const byLabel = Object.fromEntries(res.body.data.items.map((b: any) => [b.label, b]));
    expect(res.body.data.items.map((b: any) => b.label)).toEqual([
      'Before the menu update',
      'Daily backup',
      'Weekly backup',
      'Legacy backup',
    ]);
    expect(byLabel['Weekly backup']).toMatchObject({
      status: 'ready',
      restorable: true,
      files: 6,
      sizeBytes: 10_750,
      format: 2,
    });
    expect(byLabel['Daily backup']).toMatchObject({
      status: 'failed',
      restorable: false,
      notRestorableReason: 'failed',
    });
    expect(byLabel['Legacy backup']).toMatchObject({
      status: 'ready',
      restorable: false,
      notRestorableReason: 'older format',
      format: 1,
    });
  });

  it('browses one folder or the whole tree; a file held public and private shows both', async () => {
    const top = await h.call('browse_storage_backup', { projectId: SITE, backupId: ids['Weekly backup'] });
    expect(top.body.data.items.map((i: any) => `${i.type}:${i.path}`)).toEqual([
      'folder:docs/',
      'folder:images/',
      'folder:orders/',
    ]);
    expect(top.body.data.items[1]).toMatchObject({ files: 3, size: 6_100 });
    const images = await h.call('browse_storage_backup', {
      projectId: SITE,
      backupId: ids['Weekly backup'],
      path: 'images',
    });
    expect(images.body.data.items.map((i: any) => i.name)).toEqual(['hero.jpg', 'logo.png', 'old-banner.png']);
    const all = await h.call('browse_storage_backup', {
      projectId: SITE,
      backupId: ids['Weekly backup'],
      recursive: true,
    });
    expect(all.body.data.items).toHaveLength(6);
    const daily = (await h.call('list_storage_backups', { projectId: SITE })).body.data.items[0].backupId;
    const docs = await h.call('browse_storage_backup', { projectId: SITE, backupId: daily, path: 'docs/' });
    expect(docs.body.data.items[0]).toMatchObject({ path: 'docs/menu.pdf', visibility: 'both', size: 6_000 });
    expectRefusal(
      await h.call('browse_storage_backup', { projectId: SITE, backupId: ids['Weekly backup'], path: 'nope/' }),
      404,
      /no folder "nope\/"/,
    );
    expectRefusal(
      await h.call('browse_storage_backup', { projectId: SITE, backupId: ids['Daily backup'] }),
      422,
      /failed/,
    );
    expectRefusal(
      await h.call('browse_storage_backup', { projectId: SITE, backupId: 'sbk_999999' }),
      404,
      /No storage backup/,
    );
  });

  it('reads one file, its private copy on request', async () => {
    const res = await h.call('read_storage_backup_file', {
      projectId: SITE,
      backupId: ids['Weekly backup'],
      path: 'orders/2026-10.csv',
    });
    expect(res.body.data).toMatchObject({
      path: 'orders/2026-10.csv',
      visibility: 'private',
      size: 350,
      encoding: 'base64',
    });
    expect(Buffer.from(res.body.data.content, 'base64').toString('utf8')).toMatch(/^orders\/2026-10.csv v1\n/);
    const menu = ids['Before the menu update'];
    expect(
      (
        await h.call('read_storage_backup_file', {
          projectId: SITE,
          backupId: menu,
          path: 'docs/menu.pdf',
          visibility: 'private',
        })
      ).body.data.visibility,
    ).toBe('private');
    expectRefusal(
      await h.call('read_storage_backup_file', { projectId: SITE, backupId: menu, path: 'images/x.png' }),
      404,
      /no file at "images\/x.png"/,
    );
  });
});

describe('restore_storage_backup: the plan and its confirm', () => {
  it('answers the plan without restoring anything', async () => {
    const before = await files();
    const res = await plan({ backupId: ids['Weekly backup'], mode: 'full' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Nothing was restored, this is the plan.');
    expect(res.body.data).toMatchObject({
      started: false,
      plan: {
        filesAdded: 2,
        filesReplaced: 2,
        filesUnchanged: 1,
        filesRemoved: 4,
        bytesWritten: 900 + 350 + 2_800 + 4_000,
        bytesRemoved: 2_200 + 3_000 + 800 + 400,
        safetyBackup: true,
        filesSkipped: ['docs/price list: 2025.pdf'],
      },
    });
    expect(res.body.data.confirm).toMatch(/^rc_[0-9a-f]{16}$/);
    expect(await files()).toEqual(before);
  });

  it('plan → storage changed → 409 with a new plan → the new confirm starts it → completed', async () => {
    const first = (await plan({ backupId: ids['Weekly backup'], mode: 'full' })).body.data;
    await h.control('POST', `sites/${SITE}/storage-files`, { path: 'images/late.png', size: 50 });
    const refused = await plan({ backupId: ids['Weekly backup'], mode: 'full', confirm: first.confirm });
    expectRefusal(
      refused,
      409,
      'The storage changed since this plan was made, so this confirmation no longer matches. Check the new plan and confirm again!',
    );
    expect(refused.body.data.plan.filesRemoved).toBe(5);
    expect(refused.body.data.confirm).not.toBe(first.confirm);
    expect((await files()).some((f) => f.path === 'images/late.png')).toBe(true);

    const started = await plan({ backupId: ids['Weekly backup'], mode: 'full', confirm: refused.body.data.confirm });
    expect(started.status).toBe(200);
    const row = started.body.data.restore;
    expect(started.body.data.started).toBe(true);
    expect(row).toMatchObject({ status: 'running', backupId: ids['Weekly backup'], mode: 'full' });
    expect(row._id).toBe(row.restoreId);
    const status = () => h.call('get_storage_restore_status', { projectId: SITE, restoreId: row._id });
    expect((await status()).body.data.status).toBe('running');
    clock.advance(60_000);
    expect((await status()).body.data).toMatchObject({
      status: 'completed',
      safetyBackupId: expect.stringMatching(/^sbk_/),
    });
    expect((await files()).map((f) => `${f.visibility}:${f.path}:${f.size}`)).toEqual([
      'public:docs/menu.pdf:2800',
      'public:images/hero.jpg:4000',
      'public:images/logo.png:1200',
      'public:images/old-banner.png:900',
      'private:orders/2026-10.csv:350',
    ]);
    const list = (await h.call('list_storage_backups', { projectId: SITE })).body.data.items;
    expect(list[0]).toMatchObject({
      label: 'Before restore',
      type: 'before-restore',
      status: 'ready',
      restorable: true,
      files: 8,
      restoreId: row._id,
    });
  });

  it('does not notice a file rewritten to the same size and visibility', async () => {
    const first = (await plan({ backupId: ids['Weekly backup'], mode: 'full' })).body.data;
    await h.control('POST', `sites/${SITE}/storage-files`, { path: 'images/logo.png', content: 'x'.repeat(1_200) });
    const res = await plan({ backupId: ids['Weekly backup'], mode: 'full', confirm: first.confirm });
    expect(res.status).toBe(200);
    expect(res.body.data.started).toBe(true);
  });

  it('selected with a folder path restores the folder, deleting nothing else', async () => {
    const res = await plan({ backupId: ids['Weekly backup'], mode: 'selected', paths: ['images/'] });
    expect(res.body.data.plan).toMatchObject({
      filesAdded: 1,
      filesReplaced: 1,
      filesUnchanged: 1,
      filesRemoved: 0,
      safetyBackup: true,
      filesSkipped: [],
    });
    const start = await plan({
      backupId: ids['Weekly backup'],
      mode: 'selected',
      paths: ['images/'],
      confirm: res.body.data.confirm,
    });
    clock.advance(60_000);
    await h.call('get_storage_restore_status', { projectId: SITE, restoreId: start.body.data.restore._id });
    const now = (await files()).map((f) => `${f.visibility}:${f.path}:${f.size}`);
    expect(now).toContain('public:images/old-banner.png:900');
    expect(now).toContain('public:images/hero.jpg:4000');
    expect(now).toContain('public:images/new-banner.png:800');
    expect(now).toContain('private:orders/2026-11.csv:400');
  });

  it('selected deletes only the other public or private copy of a restored file', async () => {
    const res = await plan({ backupId: ids['Weekly backup'], mode: 'selected', paths: ['/docs/menu.pdf'] });
    expect(res.body.data.plan).toMatchObject({
      filesReplaced: 1,
      filesRemoved: 1,
      removedFiles: [{ path: 'docs/menu.pdf', visibility: 'private', size: 3_000 }],
    });
    await plan({
      backupId: ids['Weekly backup'],
      mode: 'selected',
      paths: ['/docs/menu.pdf'],
      confirm: res.body.data.confirm,
    });
    clock.advance(60_000);
    await h.call('list_storage_backups', { projectId: SITE });
    expect((await files()).filter((f) => f.path === 'docs/menu.pdf')).toEqual([
      expect.objectContaining({ visibility: 'public', size: 2_800 }),
    ]);
  });

  it('takes no Before restore backup when nothing is overwritten or deleted', async () => {
    await h.control('DELETE', `sites/${SITE}/storage-files?path=images/logo.png&visibility=public`);
    const res = await plan({
      backupId: ids['Weekly backup'],
      mode: 'selected',
      paths: ['images/logo.png', 'images/old-banner.png'],
    });
    expect(res.body.data.plan).toMatchObject({ filesAdded: 2, filesReplaced: 0, filesRemoved: 0, safetyBackup: false });
    const start = await plan({
      backupId: ids['Weekly backup'],
      mode: 'selected',
      paths: ['images/logo.png', 'images/old-banner.png'],
      confirm: res.body.data.confirm,
    });
    expect(start.body.data.restore.safetyBackupId).toBeNull();
  });
});

describe('state', () => {
  it('a restore still running when the state is saved completes after it is loaded', async () => {
    const p = (await plan({ backupId: ids['Weekly backup'], mode: 'full' })).body.data;
    const row = (await plan({ backupId: ids['Weekly backup'], mode: 'full', confirm: p.confirm })).body.data.restore;
    const saved = JSON.parse(JSON.stringify(h.emu.emulator.snapshot()));
    const other = await startEmulator({ port: 0, clock, state: saved });
    try {
      clock.advance(60_000);
      const res = await send(other.baseUrl, '/v1/get_storage_restore_status', {
        token: other.token,
        body: { projectId: SITE, restoreId: row._id },
      });
      expect(res.body.data.status).toBe('completed');
      const files = (await send(other.baseUrl, `/_emulator/sites/${SITE}/storage-files`)).body.data.map(
        (f: any) => f.path,
      );
      expect(files).toContain('images/old-banner.png');
      expect(files).not.toContain('images/new-banner.png');
    } finally {
      await other.close();
    }
  });
});

describe('restore_storage_backup refusals', () => {
  it('refuses bad selections with 400', async () => {
    const b = ids['Weekly backup'];
    expectRefusal(await plan({ backupId: b, mode: 'selected' }), 400, /`paths` is required/);
    expectRefusal(
      await plan({ backupId: b, mode: 'selected', paths: ['images'] }),
      400,
      /end the path with a slash \("images\/"\)/,
    );
    expectRefusal(
      await plan({ backupId: b, mode: 'selected', paths: Array.from({ length: 201 }, (_, i) => `f${i}`) }),
      400,
      /200/,
    );
    expectRefusal(await plan({ backupId: b, mode: 'everything' }), 400, /full, selected/);
  });

  it('one restore per site: a second is refused with activeRestore; create and clear are refused with 409', async () => {
    const p = (await plan({ backupId: ids['Weekly backup'], mode: 'full' })).body.data;
    const row = (await plan({ backupId: ids['Weekly backup'], mode: 'full', confirm: p.confirm })).body.data.restore;
    const again = await plan({ backupId: ids['Before the menu update'], mode: 'full' });
    expectRefusal(again, 409, 'A restore of this storage is already running!');
    expect(again.body.data.activeRestore).toMatchObject({ _id: row._id, status: 'running' });
    expectRefusal(
      await h.call('create_storage_backup', { projectId: SITE }),
      409,
      /restore of this storage is running/,
    );
    expectRefusal(
      await h.call('clear_storage_backups', { projectId: SITE }),
      409,
      /restore of this storage is running/,
    );
    expect((await h.call('clear_storage_backups', { projectId: SITE, backupIds: [ids['Weekly backup']] })).status).toBe(
      409,
    );
    clock.advance(60_000);
    expect((await h.call('create_storage_backup', { projectId: SITE })).status).toBe(200);
  });

  it('refuses backups that failed, are in an older format, or are still being archived', async () => {
    expectRefusal(
      await plan({ backupId: ids['Daily backup'], mode: 'full' }),
      422,
      'This backup failed, so it cannot be restored!',
    );
    expectRefusal(
      await plan({ backupId: ids['Legacy backup'], mode: 'full' }),
      422,
      'This backup is in an older format, so it cannot be restored!',
    );
    const portfolio = (await h.call('list_storage_backups', { projectId: 'site_portfolio' })).body.data.items;
    const [archiving, weekly] = portfolio;
    expect(archiving.status).toBe('archiving');
    expectRefusal(
      await h.call('restore_storage_backup', {
        projectId: 'site_portfolio',
        backupId: archiving.backupId,
        mode: 'full',
      }),
      409,
      /still being archived/,
    );
    // Another backup of the same storage still archiving: the plan is answered, the start is refused.
    const p = await h.call('restore_storage_backup', {
      projectId: 'site_portfolio',
      backupId: weekly.backupId,
      mode: 'full',
    });
    expect(p.status).toBe(200);
    const start = await h.call('restore_storage_backup', {
      projectId: 'site_portfolio',
      backupId: weekly.backupId,
      mode: 'full',
      confirm: p.body.data.confirm,
    });
    expectRefusal(start, 409, /still being archived, so a restore cannot start/);
  });

  it('needs a paid plan and the Delete projects permission, for both calls', async () => {
    const blog = (await h.call('list_storage_backups', { projectId: 'site_blog' })).body.data.items[0].backupId;
    const free = await h.call('restore_storage_backup', { projectId: 'site_blog', backupId: blog, mode: 'full' });
    expectRefusal(free, 403, /paid plan/);
    expect(free.body.data.reason).toBe('paid-plan-required');
    const teammate = await h.call(
      'restore_storage_backup',
      { projectId: SITE, backupId: ids['Weekly backup'], mode: 'full', confirm: 'rc_0' },
      { token: DEMO_TOKENS.teammate },
    );
    expectRefusal(teammate, 403, /Delete projects/);
    const noScope = await h.call(
      'restore_storage_backup',
      { projectId: SITE, backupId: ids['Weekly backup'], mode: 'full' },
      { token: DEMO_TOKENS.readonly },
    );
    expectRefusal(noScope, 403, /data:write/);
  });
});

describe('create and clear', () => {
  it('creates a backup that is archived in the background, then clears named and all', async () => {
    const created = await h.call('create_storage_backup', { projectId: SITE, label: 'Before launch' });
    expect(created.body.data).toMatchObject({
      label: 'Before launch',
      status: 'archiving',
      restorable: false,
      files: 7,
    });
    clock.advance(10_000);
    const list = (await h.call('list_storage_backups', { projectId: SITE })).body.data.items;
    expect(list[0]).toMatchObject({ backupId: created.body.data.backupId, status: 'ready', restorable: true });
    const one = await h.call('clear_storage_backups', { projectId: SITE, backupIds: [created.body.data.backupId] });
    expect(one.body.data).toEqual({ deleted: 1, backupIds: [created.body.data.backupId] });
    expectRefusal(
      await h.call('clear_storage_backups', { projectId: SITE, backupIds: ['sbk_999999'] }),
      404,
      /No storage backup/,
    );
    expectRefusal(
      await h.call('clear_storage_backups', { projectId: SITE }, { token: DEMO_TOKENS.teammate }),
      403,
      /Delete projects/,
    );
    expect((await h.call('clear_storage_backups', { projectId: SITE })).body.data.deleted).toBe(4);
    expect((await h.call('list_storage_backups', { projectId: SITE })).body.count).toBe(0);
  });

  it('pages through more than one page', async () => {
    for (let i = 0; i < 20; i++) await h.control('POST', `sites/${SITE}/storage-backups`, { label: `extra ${i}` });
    const p1 = await h.call('list_storage_backups', { projectId: SITE });
    expect(p1.body.data).toMatchObject({ page: 1, totalPages: 2, hasMore: true });
    expect(p1.body.data.items).toHaveLength(20);
    const p2 = await h.call('list_storage_backups', { projectId: SITE, page: 2 });
    expect(p1.body.data.items[0].label).toBe('extra 19');
    expect(p2.body.data.items.map((b: any) => b.label)).toEqual([
      'Before the menu update',
      'Daily backup',
      'Weekly backup',
      'Legacy backup',
    ]);
    expect(p2.body.data.hasMore).toBe(false);
  });
});
