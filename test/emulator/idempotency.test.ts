// Rule 4: Idempotency-Key — replay (not counted), 422, 409 in flight, keys per token, and the
// "after" fault that proves a retry with the same key creates nothing twice.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { harness, type Harness } from './helpers.js';
import { waitFor } from '../helpers/wait-for.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.emu.control.reset());
afterAll(() => h.close());

const args = { workspaceId: 'ws_demo', prompt: 'A flower shop' };
const sitesNamed = (name: string) => h.emu.state.core.sites.filter((s) => s.name === name).length;

describe('Idempotency-Key', () => {
  it('a repeat with the same key, method and body answers the earlier result and creates nothing', async () => {
    const headers = { 'idempotency-key': 'create-1' };
    const first = await h.call('create_site', args, { headers });
    const second = await h.call('create_site', { prompt: args.prompt, workspaceId: args.workspaceId }, { headers });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['x-original-request-id']).toBe(first.headers['x-request-id']);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(sitesNamed('A flower shop')).toBe(1);
    expect(h.emu.control.log({ method: 'create_site' }).map((e) => [e.idempotencyKey, e.replayed, e.counted])).toEqual([
      ['create-1', false, true],
      ['create-1', true, false],
    ]);
  });

  it('a refusal is answered again from the key too', async () => {
    const headers = { 'idempotency-key': 'refused-1' };
    const first = await h.call('create_site', { workspaceId: 'ws_free', prompt: 'x' }, { headers });
    expect(first.status).toBe(403);
    h.emu.control.updateWorkspace('ws_free', { siteLimit: 5 });
    const again = await h.call('create_site', { workspaceId: 'ws_free', prompt: 'x' }, { headers });
    expect(again.status).toBe(403);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('the same key with another body or another method → 422', async () => {
    const headers = { 'idempotency-key': 'k-422' };
    await h.call('create_site', args, { headers });
    expect((await h.call('create_site', { ...args, prompt: 'Other' }, { headers })).status).toBe(422);
    expect((await h.call('list_workspaces', {}, { headers })).status).toBe(422);
    expect(sitesNamed('Other')).toBe(0);
  });

  it('a repeat while the first call still runs → 409, then the replay once it finished', async () => {
    h.emu.control.addFault({ method: 'create_site', latencyMs: 250 });
    const headers = { 'idempotency-key': 'k-409' };
    const first = h.call('create_site', args, { headers });
    // The fault is used up once the first call has claimed its key and started its delay.
    await waitFor(() => h.emu.control.faults().length === 0, { what: 'the first call to be in flight' });
    const during = await h.call('create_site', args, { headers });
    expect(during.status).toBe(409);
    expect(during.body.message).toMatch(/Idempotency-Key/);
    expect(during.body.message).toMatch(/in flight/);
    const done = await first;
    const after = await h.call('create_site', args, { headers });
    expect(after.body).toEqual(done.body);
    expect(sitesNamed('A flower shop')).toBe(1);
  });

  it('keys belong to their token', async () => {
    const headers = { 'idempotency-key': 'shared-key' };
    const a = await h.call('create_site', args, { headers });
    const b = await h.call('create_site', args, { headers, token: DEMO_TOKENS.narrow });
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.data.site._id).not.toBe(a.body.data.site._id);
    expect(sitesNamed('A flower shop')).toBe(2);
  });

  it('a 500 injected after the write took effect: the retry with the same key replays the real result', async () => {
    h.emu.control.addFault({ method: 'create_site', status: 500, when: 'after' });
    const headers = { 'idempotency-key': 'after-fault' };
    const failed = await h.call('create_site', args, { headers });
    expect(failed.status).toBe(500);
    expect(sitesNamed('A flower shop')).toBe(1);
    const retry = await h.call('create_site', args, { headers });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data.site.name).toBe('A flower shop');
    expect(sitesNamed('A flower shop')).toBe(1);
  });

  it('without a key, the same retry creates the site twice (why clients send one)', async () => {
    h.emu.control.addFault({ method: 'create_site', status: 500, when: 'after' });
    await h.call('create_site', args);
    await h.call('create_site', args);
    expect(sitesNamed('A flower shop')).toBe(2);
  });
});
