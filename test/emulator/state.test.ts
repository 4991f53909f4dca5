// Rule 6: workspaces, sites, tokens; seeded data; list_workspaces, list_sites, create_site; save and load.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator } from '../../src/emulator/index.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.emu.control.reset());
afterAll(() => h.close());

describe('seeded data', () => {
  it('has workspaces on both plans, members with roles and permissions, sites and tokens', () => {
    const { core } = h.emu.state;
    expect(core.workspaces.map((w) => [w._id, w.plan])).toContainEqual(['ws_free', 'free']);
    expect(core.workspaces.map((w) => [w._id, w.plan])).toContainEqual(['ws_demo', 'paid']);
    const demo = core.workspaces.find((w) => w._id === 'ws_demo')!;
    expect(demo.members).toContainEqual({ userId: 'usr_sam', role: 'editor', permissions: ['apiAccess'] });
    expect(core.sites.filter((s) => s.workspaceId === 'ws_demo')).toHaveLength(3);
    expect(core.tokens.map((t) => t.name)).toEqual([
      'demo-full',
      'demo-narrow',
      'demo-readonly',
      'demo-teammate',
      'demo-expired',
      'demo-revoked',
    ]);
    expect(h.emu.tokens[0]).toMatchObject({ name: 'demo-full', token: DEMO_TOKENS.full });
  });
});

describe('list_workspaces', () => {
  it('lists the workspaces the token reaches, each with _id', async () => {
    const res = await h.call('list_workspaces', {});
    expect(res.body.data.map((w: { _id: string }) => w._id)).toEqual(['ws_demo', 'ws_free', 'ws_capped', 'ws_broke']);
    expect(res.body.data[0]).toMatchObject({
      _id: 'ws_demo',
      plan: 'paid',
      role: 'owner',
      siteLimit: 25,
      sitesCount: 3,
      credits: 1000,
    });
    const narrow = await h.call('list_workspaces', {}, { token: DEMO_TOKENS.narrow });
    expect(narrow.body.data.map((w: { _id: string }) => w._id)).toEqual(['ws_demo']);
  });
});

describe('list_sites', () => {
  it('pages with offset (and limit), with the total in count', async () => {
    h.emu.control.addSites('ws_demo', { count: 117 });
    const first = await h.call('list_sites', { workspaceId: 'ws_demo' });
    expect(first.body.count).toBe(120);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data[0]._id).toBe('site_bakery');
    const last = await h.call('list_sites', { workspaceId: 'ws_demo', offset: 100 });
    expect(last.body.data).toHaveLength(20);
    const some = await h.call('list_sites', { workspaceId: 'ws_demo', offset: 1, limit: 2 });
    expect(some.body.data.map((s: { _id: string }) => s._id)).toEqual(['site_portfolio', 'site_docs']);
    const past = await h.call('list_sites', { workspaceId: 'ws_demo', offset: 500 });
    expect(past.body).toMatchObject({ success: true, data: [], count: 120 });
  });
});

describe('create_site', () => {
  it('creates the site, starts its first build (a job that succeeds) and charges the workspace', async () => {
    const prompt = 'A bakery in Lyon. A menu, opening hours, a gallery of breads and a contact form, in warm colours.';
    const res = await h.call('create_site', { workspaceId: 'ws_demo', prompt });
    expect(res.status).toBe(200);
    const { site, jobId } = res.body.data;
    expect(site).toMatchObject({ name: 'A bakery in Lyon', workspaceId: 'ws_demo', locked: false });
    expect(typeof jobId).toBe('string');
    const listed = await h.call('list_sites', { workspaceId: 'ws_demo' });
    expect(listed.body.count).toBe(4);
    const started = await h.call('get_job', { projectId: site._id, jobId, cursor: 0 });
    expect(['running', 'succeeded']).toContain(started.body.data.state);
    // The run follows the emulated clock: jump it instead of waiting.
    h.emu.control.setClock({ advanceMs: 30 * 60_000 });
    const job = await h.call('get_job', { projectId: site._id, jobId, cursor: 0 });
    expect(job.body.data).toMatchObject({ jobId, state: 'succeeded' });
    expect(job.body.data.creditsCharged).toBeGreaterThan(0);
    const ws = h.emu.control.findWorkspace('ws_demo');
    expect(ws.credits).toBe(1000 - job.body.data.creditsCharged);
  });

  it('with importSource, names the site after the page it rebuilds', async () => {
    const res = await h.call('create_site', {
      workspaceId: 'ws_demo',
      prompt: 'Same, but brighter',
      importSource: { SourceUrl: 'https://www.example.com/about' },
    });
    expect(res.body.data.site).toMatchObject({
      name: 'example.com',
      importSource: { SourceUrl: 'https://www.example.com/about' },
    });
  });

  it('refuses past the site limit, then works again once the limit is raised', async () => {
    expect((await h.call('create_site', { workspaceId: 'ws_free', prompt: 'Third' })).status).toBe(403);
    h.emu.control.updateWorkspace('ws_free', { siteLimit: 3 });
    expect((await h.call('create_site', { workspaceId: 'ws_free', prompt: 'Third' })).status).toBe(200);
  });

  it('an empty balance refuses with 402 until credits are added', async () => {
    expect((await h.call('create_site', { workspaceId: 'ws_broke', prompt: 'A shop' })).status).toBe(402);
    h.emu.control.updateWorkspace('ws_broke', { credits: 10 });
    expect((await h.call('create_site', { workspaceId: 'ws_broke', prompt: 'A shop' })).status).toBe(200);
  });
});

describe('--state: save and load', () => {
  it('a saved state loads again with the same sites, tokens and counters', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sb-emu-')), 'state.json');
    const first = await startEmulator();
    const created = first.control.createToken({ name: 'saved', scopes: ['workspaces:read'] });
    first.control.addSites('ws_demo', { count: 2, name: 'Saved' });
    await first.saveState(file);
    await first.close();

    const second = await startEmulator({ stateFile: file });
    try {
      expect(second.state.core.sites.filter((s) => s.name.startsWith('Saved'))).toHaveLength(2);
      expect(second.control.findToken('saved').token).toBe(created.token);
      const next = second.control.addSites('ws_demo', { count: 1, name: 'Next' });
      expect(next[0]._id).toBe('site_000003');
    } finally {
      await second.close();
    }
  });

  it('a missing file starts fresh; a foreign file is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-emu-'));
    const fresh = await startEmulator({ stateFile: join(dir, 'none.json') });
    expect(fresh.state.core.sites.length).toBeGreaterThan(0);
    await fresh.close();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'bad.json'), '{"hello":1}');
    await expect(startEmulator({ stateFile: join(dir, 'bad.json') })).rejects.toThrow(/not an emulator state file/);
  });

  it('starts empty with seed false', async () => {
    const empty = await startEmulator({ seed: false });
    expect(empty.state.core.sites).toEqual([]);
    expect(empty.tokens).toEqual([]);
    await empty.close();
  });
});
