// Rule 3: 240 method calls per token per minute; what is counted and what is not.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { harness, send, type Harness } from './helpers.js';

let h: Harness;
const clock = new FakeClock();
beforeAll(async () => {
  // The emulator reads the same fake time as the test: no test waits on the wall clock.
  h = await harness({ clock });
});
beforeEach(() => h.emu.control.reset());
afterAll(() => h.close());

const remaining = async (token = h.emu.token) => {
  const res = await h.get('/v1/token', { token });
  return res.body.data.rateLimit.remaining as number;
};

describe('the minute’s budget', () => {
  it('counts method calls and reports them in the headers and in GET /v1/token', async () => {
    const first = await h.call('list_workspaces');
    expect(first.headers['x-ratelimit-remaining']).toBe('239');
    expect(first.headers['x-ratelimit-reset']).toBe('60');
    await h.call('list_sites', { workspaceId: 'ws_demo' });
    expect(await remaining()).toBe(238);
    clock.advance(15_000);
    const later = await h.call('list_workspaces');
    expect(later.headers['x-ratelimit-reset']).toBe('45');
  });

  it('the 241st call is refused with 429 and Retry-After, runs nothing, and the minute ends on time', async () => {
    for (let i = 0; i < 240; i++) await h.call('list_workspaces');
    clock.advance(20_000);
    const sitesBefore = h.emu.state.core.sites.length;
    const refused = await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'Over budget' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.body.message).toBe('Too many tool calls, wait 40 seconds.');
    expect(h.emu.state.core.sites.length).toBe(sitesBefore);
    clock.advance(40_000);
    const again = await h.call('list_workspaces');
    expect(again.status).toBe(200);
    expect(again.headers['x-ratelimit-remaining']).toBe('239');
  });

  it('the minute starts with the first call after the previous one ran out', async () => {
    await h.call('list_workspaces');
    clock.advance(90_000); // the minute ran out 30 s ago; nothing is running now
    expect(await remaining()).toBe(240);
    clock.advance(5_000);
    const res = await h.call('list_workspaces');
    expect(res.headers['x-ratelimit-reset']).toBe('60');
    clock.advance(59_000);
    expect((await h.call('list_workspaces')).headers['x-ratelimit-remaining']).toBe('238');
    clock.advance(1_000);
    expect((await h.call('list_workspaces')).headers['x-ratelimit-remaining']).toBe('239');
  });

  it('does not count the three GETs, unknown methods, non-object bodies, or replays', async () => {
    await h.get('/v1/token');
    await h.get('/v1/tools');
    await send(h.emu.baseUrl, '/v1/openapi.json');
    await h.call('not_a_method', {});
    await h.call('list_workspaces', undefined, { body: '[1,2]' });
    await h.call('list_workspaces', undefined, { body: 'not json' });
    const headers = { 'idempotency-key': 'count-once' };
    await h.call('list_workspaces', {}, { headers });
    await h.call('list_workspaces', {}, { headers });
    await h.call('list_workspaces', {}, { headers });
    expect(await remaining()).toBe(239);
    const log = h.emu.control.log();
    expect(log.filter((e) => e.counted)).toHaveLength(1);
    expect(log.filter((e) => e.replayed)).toHaveLength(2);
  });

  it('counts refusals for a missing scope and for a bad argument', async () => {
    await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'x' }, { token: DEMO_TOKENS.readonly });
    await h.call('list_sites', { workspaceId: 'ws_demo', offset: -1 }, { token: DEMO_TOKENS.readonly });
    await h.call('list_sites', {}, { token: DEMO_TOKENS.readonly });
    expect(await remaining(DEMO_TOKENS.readonly)).toBe(237);
  });

  it('belongs to the token: another token has its own minute', async () => {
    for (let i = 0; i < 240; i++) await h.call('list_workspaces');
    expect((await h.call('list_workspaces')).status).toBe(429);
    expect((await h.call('list_workspaces', {}, { token: DEMO_TOKENS.narrow })).status).toBe(200);
  });

  it('a replay is answered even when the budget is spent', async () => {
    const headers = { 'idempotency-key': 'replay-when-spent' };
    const first = await h.call('list_workspaces', {}, { headers });
    for (let i = 0; i < 239; i++) await h.call('list_workspaces');
    expect((await h.call('list_workspaces')).status).toBe(429);
    const replay = await h.call('list_workspaces', {}, { headers });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
  });

  it('Retry-After is in wall seconds when the clock runs faster', async () => {
    h.emu.control.setClock({ speed: 10 });
    try {
      for (let i = 0; i < 240; i++) await h.call('list_workspaces');
      const res = await h.call('list_workspaces');
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('6');
      clock.advance(6_000);
      expect((await h.call('list_workspaces')).status).toBe(200);
    } finally {
      h.emu.control.setClock({ speed: 1 });
    }
  });
});
