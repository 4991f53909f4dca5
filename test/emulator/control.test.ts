// Rule 8: the control API over HTTP — tokens, credits, plan and site limit, the clock, faults,
// reset and the request log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, send, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(async () => {
  expect((await h.control('POST', 'reset')).status).toBe(200);
});
afterAll(() => h.close());

describe('control API', () => {
  it('lists its routes', async () => {
    const res = await h.control('GET', '');
    expect(res.body.data.routes).toEqual(
      expect.arrayContaining(['POST /_emulator/tokens', 'POST /_emulator/faults', 'GET /_emulator/log']),
    );
  });

  it('creates tokens with scopes, workspaces, expiry and revoked, and changes them later', async () => {
    const created = await h.control('POST', 'tokens', {
      name: 'ci',
      scopes: ['workspaces:read'],
      workspaces: ['ws_free'],
    });
    expect(created.status).toBe(200);
    const token = created.body.data.token as string;
    expect(token).toMatch(/^sbt_/);
    const ws = await h.call('list_workspaces', {}, { token });
    expect(ws.body.data.map((w: { _id: string }) => w._id)).toEqual(['ws_free']);
    expect((await h.call('list_sites', { workspaceId: 'ws_free' }, { token })).status).toBe(403);

    await h.control('POST', 'tokens/ci', { scopes: ['workspaces:read', 'sites:read'] });
    expect((await h.call('list_sites', { workspaceId: 'ws_free' }, { token })).status).toBe(200);
    await h.control('POST', 'tokens/ci', { revoked: true });
    expect((await h.call('list_sites', { workspaceId: 'ws_free' }, { token })).status).toBe(401);
    await h.control('POST', 'tokens/ci', { revoked: false, expiresAt: '2000-01-01T00:00:00Z' });
    expect((await h.call('list_sites', { workspaceId: 'ws_free' }, { token })).body.message).toMatch(/expired/);

    expect((await h.control('POST', 'tokens', { scopes: ['bogus'] })).status).toBe(400);
    expect((await h.control('POST', 'tokens/nobody', { revoked: true })).status).toBe(404);
  });

  it('sets credits, plan, site limit and members', async () => {
    await h.control('POST', 'workspaces/ws_demo', { credits: 0 });
    expect((await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'x' })).status).toBe(402);
    await h.control('POST', 'workspaces/ws_demo', { credits: 5, siteLimit: 3, plan: 'free' });
    const refused = await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'x' });
    expect(refused.body.data).toEqual({ reason: 'site-limit-reached', sitesCount: 3, siteLimit: 3 });
    const ws = (await h.control('GET', 'workspaces/ws_demo')).body.data;
    expect(ws).toMatchObject({ plan: 'free', siteLimit: 3, credits: 5 });
    await h.control('POST', 'workspaces/ws_demo/members', { userId: 'usr_dana', role: 'viewer' });
    expect((await h.call('list_sites', { workspaceId: 'ws_demo' })).body.data).toMatchObject({
      reason: 'no-api-access',
    });
    expect((await h.control('POST', 'workspaces/ws_demo', { plan: 'gold' })).status).toBe(400);
    expect((await h.control('POST', 'workspaces/ws_nope', { credits: 1 })).status).toBe(404);
  });

  it('adds sites in bulk', async () => {
    const res = await h.control('POST', 'workspaces/ws_demo/sites', { count: 1000 });
    expect(res.body.data.added).toBe(1000);
    expect((await h.call('list_sites', { workspaceId: 'ws_demo', limit: 1 })).body.count).toBe(1003);
  });

  it('reads and sets the clock speed, and jumps it forward', async () => {
    const before = (await h.control('GET', 'clock')).body.data;
    expect(before.speed).toBe(1);
    const after = (await h.control('POST', 'clock', { speed: 50, advanceMs: 3_600_000 })).body.data;
    expect(after.speed).toBe(50);
    expect(after.nowMs - before.nowMs).toBeGreaterThanOrEqual(3_600_000);
    expect((await h.control('POST', 'clock', { speed: 0 })).status).toBe(400);
    await h.control('POST', 'clock', { speed: 1 });
  });

  it('injects a status for the next N calls of a method', async () => {
    const added = await h.control('POST', 'faults', { method: 'list_workspaces', status: 503, times: 2 });
    expect(added.body.data).toMatchObject({ method: 'list_workspaces', status: 503, times: 2, when: 'before' });
    expect((await h.call('list_workspaces')).status).toBe(503);
    expect((await h.call('list_sites', { workspaceId: 'ws_demo' })).status).toBe(200);
    expect((await h.call('list_workspaces')).status).toBe(503);
    expect((await h.call('list_workspaces')).status).toBe(200);
    expect((await h.control('GET', 'faults')).body.data).toEqual([]);
  });

  it('a fault "after": the write took effect although the answer says 500', async () => {
    await h.control('POST', 'faults', { method: 'create_site', status: 500, when: 'after' });
    const res = await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'Made anyway' });
    expect(res.status).toBe(500);
    expect(h.emu.state.core.sites.some((s) => s.name === 'Made anyway')).toBe(true);
  });

  it('a fault "before": nothing took effect', async () => {
    await h.control('POST', 'faults', { method: 'create_site', status: 500 });
    await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'Never made' });
    expect(h.emu.state.core.sites.some((s) => s.name === 'Never made')).toBe(false);
  });

  it('adds latency', async () => {
    await h.control('POST', 'faults', { method: '*', latencyMs: 150 });
    const t0 = Date.now();
    expect((await h.call('list_workspaces')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('drops the connection in the middle of the answer, after the write', async () => {
    await h.control('POST', 'faults', { method: 'create_site', drop: true });
    await expect(h.call('create_site', { workspaceId: 'ws_demo', prompt: 'Dropped' })).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    expect(h.emu.state.core.sites.some((s) => s.name === 'Dropped')).toBe(true);
    expect((await h.call('list_workspaces')).status).toBe(200);
  });

  it('reads the body of the next call at a given bandwidth, and logs the fault it met', async () => {
    const added = await h.control('POST', 'faults', { method: 'upload_storage_file', bytesPerSecond: 1_000_000 });
    expect(added.body.data).toMatchObject({ method: 'upload_storage_file', bytesPerSecond: 1_000_000, times: 1 });
    // Another fault on the same method is not used up by the slow body, nor the slow body by it.
    await h.control('POST', 'faults', { method: 'upload_storage_file', status: 503 });
    const content = Buffer.alloc(300_000, 7).toString('base64'); // 400,000 bytes of body
    const args = { projectId: 'site_bakery', fileName: 'slow.bin', contentBase64: content };
    const t0 = Date.now();
    expect((await h.call('upload_storage_file', args)).status).toBe(503);
    // 400 KB at 1 MB/s cannot be read in less than 0.4 s, however idle the machine.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(380);
    const t1 = Date.now();
    expect((await h.call('upload_storage_file', args)).status).toBe(200);
    expect(Date.now() - t1).toBeLessThan(Date.now() - t0); // the fault was used up by one call
    const log = (await h.control('GET', 'log?method=upload_storage_file')).body.data;
    expect(log.map((e: any) => e.fault?.bytesPerSecond ?? null)).toEqual([1_000_000, null]);
    expect(log[0].fault.status).toBe(503);
    expect((await h.control('GET', 'faults')).body.data).toEqual([]);
  });

  it('refuses a bandwidth fault mixed with other effects or out of bounds', async () => {
    for (const bad of [
      { method: 'upload_storage_file', bytesPerSecond: 0 },
      { method: 'upload_storage_file', bytesPerSecond: 1.5 },
      { method: 'upload_storage_file', bytesPerSecond: '100' },
      { method: 'upload_storage_file', bytesPerSecond: 100, status: 500 },
      { method: 'upload_storage_file', bytesPerSecond: 100, when: 'after' },
    ]) {
      const res = await h.control('POST', 'faults', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toMatch(/bytesPerSecond/);
    }
    expect((await h.control('GET', 'faults')).body.data).toEqual([]);
  });

  it('refuses a fault without an effect, and clears faults', async () => {
    expect((await h.control('POST', 'faults', { method: 'create_site' })).status).toBe(400);
    await h.control('POST', 'faults', { method: 'create_site', status: 500, times: 5 });
    await h.control('DELETE', 'faults');
    expect((await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'ok' })).status).toBe(200);
  });

  it('the request log has time, method, idempotency key and status of each call', async () => {
    await h.call(
      'create_site',
      { workspaceId: 'ws_demo', prompt: 'Logged' },
      { headers: { 'idempotency-key': 'log-key' } },
    );
    await h.call('list_sites', {});
    await h.get('/v1/token');
    const log = (await h.control('GET', 'log')).body.data;
    expect(log.map((e: any) => [e.method, e.idempotencyKey, e.status])).toEqual([
      ['create_site', 'log-key', 200],
      ['list_sites', null, 400],
      [null, null, 200],
    ]);
    expect(Date.parse(log[0].time)).not.toBeNaN();
    expect(log[0]).toMatchObject({ token: 'demo-full', args: { workspaceId: 'ws_demo', prompt: 'Logged' } });
    const only = (await h.control('GET', 'log?method=list_sites')).body.data;
    expect(only).toHaveLength(1);
    await h.control('DELETE', 'log');
    expect((await h.control('GET', 'log')).body.data).toEqual([]);
  });

  it('reset brings the seeded state back', async () => {
    await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'Gone after reset' });
    await h.control('POST', 'reset');
    expect(h.emu.state.core.sites.some((s) => s.name === 'Gone after reset')).toBe(false);
    await h.control('POST', 'reset', { seed: false });
    expect(h.emu.state.core.workspaces).toEqual([]);
  });

  it('unknown control routes answer 404; the state can be read whole', async () => {
    expect((await h.control('GET', 'nothing')).status).toBe(404);
    const state = await h.control('GET', 'state');
    expect(state.body.data.format).toBe('sitebuilder-emulator-state');
    expect((await send(h.emu.baseUrl, '/_emulator/tokens', { verb: 'POST', body: '[1]' })).status).toBe(400);
  });
});
