// Rule 2: every answer is the envelope, with the request id and the budget headers on every method call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, send, type Harness, type RawAnswer } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

function expectEnvelope(res: RawAnswer): void {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['success', 'message', 'data', 'code', 'version']));
  expect(res.body.code).toBe(res.status);
  expect(res.body.success).toBe(res.status < 400);
  expect(res.body.version).toMatch(/^\d+(\.\d+)+$/);
  expect(typeof res.body.message).toBe('string');
  expect(res.headers['x-request-id']).toMatch(/^req_/);
}

function expectBudgetHeaders(res: RawAnswer): void {
  expect(Number(res.headers['x-ratelimit-limit'])).toBe(240);
  expect(Number.isInteger(Number(res.headers['x-ratelimit-remaining']))).toBe(true);
  expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
}

describe('envelope and headers', () => {
  it('a success carries data, and count where a total is returned', async () => {
    const res = await h.call('list_sites', { workspaceId: 'ws_demo' });
    expectEnvelope(res);
    expectBudgetHeaders(res);
    expect(res.body.success).toBe(true);
    expect(res.body.count).toBe(3);
    expect(res.body.data).toHaveLength(3);
  });

  it('refusals of every kind carry the envelope and the headers', async () => {
    const answers = await Promise.all([
      h.call('list_sites', {}),
      h.call('list_sites', { workspaceId: 'ws_demo' }, { token: null }),
      h.call('no_such_method', {}),
      send(h.emu.baseUrl, '/v1/list_sites', { verb: 'GET', token: h.emu.token }),
      h.call('list_sites', { workspaceId: 'ws_nope' }),
    ]);
    for (const res of answers) {
      expectEnvelope(res);
      expectBudgetHeaders(res);
      expect(res.body.success).toBe(false);
    }
  });

  it('request ids are unique', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add(String((await h.call('list_workspaces')).headers['x-request-id']));
    expect(ids.size).toBe(20);
  });

  it('a method without an emulated handler answers clearly (501 not emulated yet)', async () => {
    h.emu.emulator.handlers.delete('get_job');
    try {
      const res = await h.call('get_job', { projectId: 'site_bakery', jobId: 'x' });
      expectEnvelope(res);
      expect(res.status).toBe(501);
      expect(res.body.message).toMatch(/not emulated yet/);
    } finally {
      const { chatDomain } = await import('../../src/emulator/domains/chat/domain.js');
      h.emu.emulator.handlers.set('get_job', chatDomain.handlers!.get_job!);
    }
  });

  it('an unexpected failure is a 500 envelope, and the key is released', async () => {
    const original = h.emu.emulator.handlers.get('list_workspaces')!;
    let fail = true;
    h.emu.emulator.handlers.set('list_workspaces', (call) => {
      if (fail) throw new Error('boom');
      return original(call);
    });
    try {
      const headers = { 'idempotency-key': 'crash-1' };
      const res = await h.call('list_workspaces', {}, { headers });
      expectEnvelope(res);
      expect(res.status).toBe(500);
      expect(h.emu.emulator.errors.at(-1)?.message).toMatch(/boom/);
      fail = false;
      expect((await h.call('list_workspaces', {}, { headers })).status).toBe(200);
    } finally {
      h.emu.emulator.handlers.set('list_workspaces', original);
    }
  });

  it('addresses outside /v1/ answer 404 in the envelope', async () => {
    const res = await send(h.emu.baseUrl, '/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 404 });
  });
});
