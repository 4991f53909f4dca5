// The publish domain over real HTTP: publish_site → running → ready on the emulated clock, logs
// with offset and count, deployments, the published site and uploaded files served at their
// addresses, upload checks, and the three code-hosting refusals switched on per site.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { CODE_HOSTING_REFUSALS } from '../../src/emulator/domains/code-hosting/domain.js';
import { harness, send, type Harness } from './helpers.js';

const SITE = 'site_portfolio';
const clock = new FakeClock();
let h: Harness;

beforeAll(async () => {
  h = await harness({ clock });
});
beforeEach(() => h.emu.control.reset());
afterAll(() => h.close());

const status = async (site = SITE) => (await h.call('get_publish_status', { projectId: site })).body.data;

describe('publish_site and get_publish_status', () => {
  it('answers at once with running true, then reports ready once the publish is done', async () => {
    expect(await status()).toMatchObject({ running: false, status: 'unpublished', url: null });
    const res = await h.call('publish_site', { projectId: SITE });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ running: true, status: 'queued', url: `${h.emu.baseUrl}/sites/${SITE}/` });
    clock.advance(1_000);
    expect(await status()).toMatchObject({ running: true, status: 'building' });
    clock.advance(3_000);
    expect(await status()).toMatchObject({ running: true, status: 'deploying' });
    clock.advance(1_000);
    const done = await status();
    expect(done).toMatchObject({
      running: false,
      status: 'ready',
      deploymentId: res.body.data.deploymentId,
      live: true,
      error: null,
    });
    expect(done.finishedAt).toBe(new Date(Date.parse(done.startedAt) + 5_000).toISOString());
  });

  it('refuses a second publish while one runs, with 409 naming it', async () => {
    const first = await h.call('publish_site', { projectId: SITE });
    const second = await h.call('publish_site', { projectId: SITE });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/already being published/);
    expect(second.body.data).toEqual({ activePublish: first.body.data.deploymentId });
    clock.advance(5_000);
    expect((await h.call('publish_site', { projectId: SITE })).status).toBe(200);
  });

  it('fails when the control API says so, keeping the previous version live', async () => {
    await h.call('publish_site', { projectId: SITE });
    clock.advance(5_000);
    const ctl = await h.control('POST', `sites/${SITE}/publish-failure`, {
      message: 'Page /menu could not be rendered.',
    });
    expect(ctl.status).toBe(200);
    const failing = await h.call('publish_site', { projectId: SITE });
    clock.advance(5_000);
    expect(await status()).toMatchObject({
      running: false,
      status: 'failed',
      error: { message: 'Page /menu could not be rendered.' },
    });
    const deployments = await h.call('list_deployments', { projectId: SITE });
    expect(deployments.body.count).toBe(2);
    expect(deployments.body.data.map((d: any) => [d.status, d.live])).toEqual([
      ['failed', false],
      ['ready', true],
    ]);
    const page = await send(h.emu.baseUrl, `/sites/${SITE}/`);
    expect(page.headers['x-deployment-id']).not.toBe(failing.body.data.deploymentId);
  });

  it('honours the duration set through the control API', async () => {
    expect((await h.control('POST', 'publish', { durationMs: 60_000 })).body.data).toEqual({ durationMs: 60_000 });
    await h.call('publish_site', { projectId: SITE });
    clock.advance(30_000);
    expect((await status()).running).toBe(true);
    clock.advance(30_000);
    expect((await status()).status).toBe('ready');
    expect((await h.control('POST', 'publish', { durationMs: 0 })).status).toBe(400);
  });

  it('seeds two published sites', async () => {
    expect(await status('site_bakery')).toMatchObject({ running: false, status: 'ready' });
    expect((await send(h.emu.baseUrl, '/sites/site_bakery/')).status).toBe(200);
  });
});

describe('get_publish_logs and list_deployments', () => {
  it('grows the log as the publish goes, paged by offset with the total in count', async () => {
    await h.call('publish_site', { projectId: SITE });
    const early = await h.call('get_publish_logs', { projectId: SITE });
    expect(early.body.count).toBe(1);
    expect(early.body.data.items[0]).toMatchObject({
      level: 'info',
      message: expect.stringMatching(/^Publish dep_\d+ requested by Dana Demo\.$/),
    });
    clock.advance(5_000);
    const all = await h.call('get_publish_logs', { projectId: SITE });
    const total = all.body.count;
    expect(total).toBeGreaterThan(4);
    expect(all.body.data.items.at(-1).message).toBe(`Live at ${h.emu.baseUrl}/sites/${SITE}/`);
    const page2 = await h.call('get_publish_logs', { projectId: SITE, offset: 2, limit: 2 });
    expect(page2.body.count).toBe(total);
    expect(page2.body.data.items).toEqual(all.body.data.items.slice(2, 4));
    const unknown = await h.call('get_publish_logs', { projectId: SITE, deploymentId: 'dep_nope' });
    expect(unknown.status).toBe(404);
  });

  it('lists deployments newest first with offset and count', async () => {
    for (let i = 0; i < 3; i++) {
      await h.call('publish_site', { projectId: SITE });
      clock.advance(5_000);
    }
    const res = await h.call('list_deployments', { projectId: SITE, offset: 1, limit: 1 });
    expect(res.body.count).toBe(3);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ status: 'ready', live: false });
  });
});

describe('the published site', () => {
  it('is served at the address publish answers, and 404 before the first publish', async () => {
    expect((await send(h.emu.baseUrl, `/sites/${SITE}/`)).status).toBe(404);
    const { url } = (await h.call('publish_site', { projectId: SITE })).body.data;
    expect((await send(url, url)).text).toContain('not been published yet');
    clock.advance(5_000);
    const page = await send(url, url);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toMatch(/<html/);
    const bare = await send(h.emu.baseUrl, `/sites/${SITE}`);
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe(`/sites/${SITE}/`);
    expect((await send(h.emu.baseUrl, `/sites/${SITE}/no-such-page`)).status).toBe(404);
  });
});

describe('upload_storage_file', () => {
  it('stores a public file and serves it at its permanent address', async () => {
    const content = Buffer.from('PNG-ish bytes \u0000\u0001');
    const res = await h.call('upload_storage_file', {
      projectId: SITE,
      fileName: 'images/team photo.png',
      contentBase64: content.toString('base64'),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      url: `${h.emu.baseUrl}/storage/${SITE}/images/team%20photo.png`,
      path: 'images/team photo.png',
      size: content.length,
      contentType: 'image/png',
      visibility: 'public',
    });
    const served = await send(res.body.data.url, res.body.data.url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.from(served.text, 'utf8')).toEqual(content);
  });

  it('refuses bad names and bad base64 with 400', async () => {
    for (const fileName of ['/abs.png', 'a/../b.png', 'a//b.png', 'back\\slash.png']) {
      const res = await h.call('upload_storage_file', { projectId: SITE, fileName, contentBase64: 'aGk=' });
      expect(res.status, fileName).toBe(400);
    }
    const bad = await h.call('upload_storage_file', {
      projectId: SITE,
      fileName: 'a.txt',
      contentBase64: 'not base64!',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/base64/);
  });
});

describe('code-hosting refusals', () => {
  const set = (state: string, site = SITE) => h.control('POST', `sites/${site}/code-hosting`, { state });

  it('refuses publish_site in each of the three cases with its own message, changing nothing', async () => {
    const cases = [
      ['moving', 409],
      ['access-lost', 422],
      ['own-account', 403],
    ] as const;
    for (const [state, code] of cases) {
      // own-account refuses only on the Free plan: site_blog is in the Free workspace.
      const site = state === 'own-account' ? 'site_blog' : SITE;
      expect((await set(state, site)).status).toBe(200);
      const res = await h.call('publish_site', { projectId: site });
      expect(res.status, state).toBe(code);
      expect(res.body.message).toBe(CODE_HOSTING_REFUSALS[state].message);
      expect(res.body.data.code).toBe(CODE_HOSTING_REFUSALS[state].code);
      expect((await status(site)).status).toBe('unpublished');
    }
    expect(new Set(cases.map(([s]) => CODE_HOSTING_REFUSALS[s].message)).size).toBe(3);
  });

  it('refuses send_message, restore_backup and restore_code_backup in the same three cases', async () => {
    const items = (body: any) => (Array.isArray(body.data) ? body.data : body.data.items);
    const backupId = items((await h.call('list_backups', { projectId: SITE })).body)[0]._id;
    const codeBackupId = items((await h.call('list_code_backups', { projectId: SITE })).body)[0].codeBackupId;
    const calls: Array<[string, Record<string, unknown>]> = [
      [
        'send_message',
        { projectId: SITE, prompt: 'Add a gallery page with twelve photos from the last wedding shoot.' },
      ],
      ['restore_backup', { projectId: SITE, backupId }],
      ['restore_code_backup', { projectId: SITE, codeBackupId }],
    ];
    await h.control('POST', `workspaces/ws_demo`, { plan: 'free' });
    for (const state of ['moving', 'access-lost', 'own-account'] as const) {
      await set(state);
      for (const [method, args] of calls) {
        const res = await h.call(method, args);
        expect(res.status, `${method} ${state}`).toBe(CODE_HOSTING_REFUSALS[state].status);
        expect(res.body.message).toBe(CODE_HOSTING_REFUSALS[state].message);
      }
    }
  });

  it('lets a workspace on a paid plan publish code from its own account', async () => {
    await set('own-account');
    expect((await h.call('publish_site', { projectId: SITE })).status).toBe(200);
  });

  it('is read and cleared through the control API, and refuses unknown states', async () => {
    await set('moving');
    expect((await h.control('GET', `sites/${SITE}/code-hosting`)).body.data).toMatchObject({ state: 'moving' });
    await set('connected');
    expect((await h.call('publish_site', { projectId: SITE })).status).toBe(200);
    expect((await set('sideways')).status).toBe(400);
    expect((await h.control('POST', 'sites/site_nope/code-hosting', { state: 'moving' })).status).toBe(404);
  });
});
