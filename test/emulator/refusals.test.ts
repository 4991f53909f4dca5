// One test (at least) for every row of the service's error table (docs/emulator.md "Errors"),
// over real HTTP.
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { harness, send, type Harness, type RawAnswer } from './helpers.js';
import { waitFor } from '../helpers/wait-for.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.emu.control.reset());
afterAll(() => h.close());

function expectRefusal(res: RawAnswer, status: number, message?: RegExp): void {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, code: status });
  expect(typeof res.body.message).toBe('string');
  expect(res.body.version).toMatch(/^\d+(\.\d+)*$/);
  if (message) expect(res.body.message).toMatch(message);
}

describe('400', () => {
  it('refuses invalid JSON and bodies that are not objects', async () => {
    expectRefusal(await h.call('list_workspaces', undefined, { body: '{"a":' }), 400, /not valid JSON/);
    for (const body of ['[]', '"text"', '42', 'null'])
      expectRefusal(await h.call('list_workspaces', undefined, { body }), 400, /JSON object/);
    expectRefusal(await h.call('list_workspaces', undefined, { body: '' }), 400);
  });

  it('refuses nesting over 64 levels and a list over 10,000 items (without recursion)', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 64; i++) deep = { a: deep };
    expectRefusal(await h.call('list_workspaces', { deep }), 400, /nested more than 64/);
    let veryDeep = '"x"';
    for (let i = 0; i < 100_000; i++) veryDeep = `[${veryDeep}]`;
    expectRefusal(
      await h.call('list_workspaces', undefined, { body: `{"a":${veryDeep}}` }),
      400,
      /nested more than 64/,
    );
    expectRefusal(await h.call('list_workspaces', { list: new Array(10_001).fill(1) }), 400, /10,001 items.*10,000/);
  });

  it('refuses an unknown argument, naming it', async () => {
    expectRefusal(await h.call('list_sites', { workspaceId: 'ws_demo', colour: 'red' }), 400, /`colour`/);
  });

  it('refuses a required argument missing, null or empty', async () => {
    expectRefusal(await h.call('list_sites', {}), 400, /`workspaceId` is required/);
    expectRefusal(
      await h.call('list_sites', { workspaceId: null }),
      400,
      /`workspaceId` is required and cannot be null/,
    );
    expectRefusal(
      await h.call('list_sites', { workspaceId: '' }),
      400,
      /`workspaceId` is required and cannot be empty/,
    );
  });

  it('refuses a wrong type: a number for text, a fraction for an integer', async () => {
    expectRefusal(await h.call('list_sites', { workspaceId: 42 }), 400, /`workspaceId` must be text/);
    expectRefusal(
      await h.call('list_sites', { workspaceId: 'ws_demo', offset: 1.5 }),
      400,
      /`offset` must be a whole number/,
    );
  });

  it('refuses text or a list over the method’s bound', async () => {
    expectRefusal(
      await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'x'.repeat(500_001) }),
      400,
      /`prompt` is longer than 500,000/,
    );
    const paths = Array.from({ length: 201 }, (_, i) => `f${i}`);
    expectRefusal(
      await h.call('restore_storage_backup', { projectId: 'site_bakery', backupId: 'b', mode: 'selected', paths }),
      400,
      /`paths` holds more than 200/,
    );
  });

  it('refuses a value not allowed, listing the allowed values', async () => {
    expectRefusal(
      await h.call('send_message', { projectId: 'site_bakery', prompt: 'hi', mode: 'fast' }),
      400,
      /build, plan/,
    );
  });

  it('refuses a nested mismatch, giving the path', async () => {
    expectRefusal(
      await h.call('create_site', { workspaceId: 'ws_demo', prompt: 'p', importSource: { SourceUrl: 7 } }),
      400,
      /`importSource.SourceUrl`/,
    );
  });

  it('refuses an Idempotency-Key that is not 1 to 255 visible characters', async () => {
    for (const key of ['has space', 'k'.repeat(256), 'tab\there', 'é']) {
      const res = await h.call('list_workspaces', {}, { headers: { 'idempotency-key': key } }).catch(() => null);
      // Node refuses to send a few of these bytes in a header at all; the ones it sends are refused.
      if (res) expectRefusal(res, 400, /Idempotency-Key/);
    }
    expectRefusal(
      await h.call('list_workspaces', {}, { headers: { 'idempotency-key': 'k'.repeat(256) } }),
      400,
      /1 to 255 visible/,
    );
    expectRefusal(await h.call('list_workspaces', {}, { headers: { 'idempotency-key': '' } }), 400, /1 to 255 visible/);
  });

  it('refuses an access token in the address, even a valid one', async () => {
    expectRefusal(
      await send(h.emu.baseUrl, `/v1/list_workspaces?access_token=${DEMO_TOKENS.full}`, { verb: 'POST', body: {} }),
      400,
      /token.*address/,
    );
    expectRefusal(await send(h.emu.baseUrl, '/v1/tools?token=abc', { token: DEMO_TOKENS.full }), 400, /address/);
    expectRefusal(
      await send(h.emu.baseUrl, `/v1/list_workspaces?x=${DEMO_TOKENS.full}`, {
        verb: 'POST',
        body: {},
        token: DEMO_TOKENS.full,
      }),
      400,
    );
  });
});

describe('401', () => {
  it('no token: the message says to send it as Bearer, with WWW-Authenticate', async () => {
    const res = await h.call('list_workspaces', {}, { token: null });
    expectRefusal(res, 401, /access token is required.*Bearer/);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    const basic = await h.call(
      'list_workspaces',
      {},
      { token: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    );
    expectRefusal(basic, 401, /Bearer/);
  });

  it('invalid, revoked and expired tokens', async () => {
    for (const [token, message] of [
      ['sbt_nope', /not valid/],
      [DEMO_TOKENS.revoked, /revoked/],
      [DEMO_TOKENS.expired, /expired/],
    ] as const) {
      const res = await h.call('list_workspaces', {}, { token });
      expectRefusal(res, 401, message);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
    }
  });

  it('a token expires when its time comes on the emulated clock', async () => {
    const t = h.emu.control.createToken({ name: 'short', expiresInSeconds: 30 });
    expect((await h.call('list_workspaces', {}, { token: t.token })).status).toBe(200);
    h.emu.control.setClock({ advanceMs: 31_000 });
    expectRefusal(await h.call('list_workspaces', {}, { token: t.token }), 401, /expired/);
  });
});

describe('402', () => {
  it('an empty credit balance: nothing runs, nothing is created', async () => {
    const before = h.emu.state.core.sites.length;
    const res = await h.call('create_site', { workspaceId: 'ws_broke', prompt: 'A shop' });
    expectRefusal(res, 402, /no AI credits/);
    expect(h.emu.state.core.sites.length).toBe(before);
  });
});

describe('403', () => {
  it('a missing scope, named', async () => {
    const res = await h.call(
      'create_site',
      { workspaceId: 'ws_demo', prompt: 'A site' },
      { token: DEMO_TOKENS.readonly },
    );
    expectRefusal(res, 403, /sites:create/);
    expect(res.body.data).toMatchObject({ scope: 'sites:create' });
  });

  it('a workspace outside the token’s narrowing', async () => {
    const res = await h.call('list_sites', { workspaceId: 'ws_free' }, { token: DEMO_TOKENS.narrow });
    expectRefusal(res, 403, /cannot reach/);
    expect((await h.call('list_sites', { workspaceId: 'ws_demo' }, { token: DEMO_TOKENS.narrow })).status).toBe(200);
    const site = await h.call('get_job', { projectId: 'site_blog', jobId: 'j' }, { token: DEMO_TOKENS.narrow });
    expectRefusal(site, 403, /cannot reach/);
  });

  it('a workspace the user is not a member of', async () => {
    expectRefusal(await h.call('list_sites', { workspaceId: 'ws_private' }), 403, /not reachable/);
  });

  it('a role without the API access permission', async () => {
    const res = await h.call('list_sites', { workspaceId: 'ws_client' });
    expectRefusal(res, 403, /API access/);
    expect(res.body.data).toMatchObject({ reason: 'no-api-access', role: 'viewer' });
  });

  it('create_site: site-limit-reached with sitesCount and siteLimit', async () => {
    const res = await h.call('create_site', { workspaceId: 'ws_free', prompt: 'A third site' });
    expectRefusal(res, 403);
    expect(res.body.data).toEqual({ reason: 'site-limit-reached', sitesCount: 2, siteLimit: 2 });
  });

  it('create_site: credits-limit-reached', async () => {
    const res = await h.call('create_site', { workspaceId: 'ws_capped', prompt: 'A site' });
    expectRefusal(res, 403);
    expect(res.body.data).toMatchObject({ reason: 'credits-limit-reached' });
  });

  it('a site locked because the workspace is over its plan’s site limit', async () => {
    h.emu.control.updateWorkspace('ws_demo', { siteLimit: 1 });
    const locked = await h.call('send_message', { projectId: 'site_docs', prompt: 'Change the title' });
    expectRefusal(locked, 403, /locked/);
    expect(locked.body.data).toMatchObject({ reason: 'site-locked', siteLimit: 1, sitesCount: 3 });
    const list = await h.call('list_sites', { workspaceId: 'ws_demo' });
    expect(list.body.data.map((s: { locked: boolean }) => s.locked)).toEqual([false, true, true]);
  });
});

describe('404', () => {
  it('an unknown method: no tool by that name, pointing to GET /v1/tools', async () => {
    const res = await h.call('make_coffee', {});
    expectRefusal(res, 404, /no tool named "make_coffee".*GET \/v1\/tools/i);
  });

  it('an id that does not exist', async () => {
    expectRefusal(await h.call('list_sites', { workspaceId: 'ws_nope' }), 404, /ws_nope/);
    expectRefusal(await h.call('get_job', { projectId: 'site_nope', jobId: 'x' }), 404, /site_nope/);
  });
});

describe('405', () => {
  it('a method address called with anything but POST', async () => {
    for (const verb of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await send(h.emu.baseUrl, '/v1/list_workspaces', { verb, token: h.emu.token });
      expectRefusal(res, 405, /POST/);
      expect(res.headers.allow).toBe('POST');
    }
    const res = await send(h.emu.baseUrl, '/v1/token', { verb: 'POST', token: h.emu.token, body: {} });
    expectRefusal(res, 405);
    expect(res.headers.allow).toBe('GET');
  });
});

describe('409', () => {
  it('an Idempotency-Key call still in flight', async () => {
    h.emu.control.addFault({ method: 'create_site', latencyMs: 300 });
    const headers = { 'idempotency-key': 'in-flight-1' };
    const args = { workspaceId: 'ws_demo', prompt: 'Slow site' };
    const first = h.call('create_site', args, { headers });
    // The fault is used up once the first call has claimed its key and started its delay.
    await waitFor(() => h.emu.control.faults().length === 0, { what: 'the first call to be in flight' });
    const second = await h.call('create_site', args, { headers });
    expectRefusal(second, 409, /Idempotency-Key.*in flight/);
    expect((await first).status).toBe(200);
  });
});

describe('413', () => {
  it('decides from Content-Length before reading the body', async () => {
    const res = await new Promise<RawAnswer>((resolve, reject) => {
      const req = request(`${h.emu.baseUrl}/v1/list_workspaces`, {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${h.emu.token}`,
          'content-type': 'application/json',
          'content-length': String(151 * 1024 * 1024),
        },
      });
      req.on('response', (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: r.statusCode!, headers: r.headers, text, body: JSON.parse(text) });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('{"a":'); // only a few bytes of the announced 151 MB are ever sent
    });
    expectRefusal(res, 413, /150 MB/);
  });

  it('while streaming without Content-Length, without holding the body', async () => {
    const small = await harness({ bodyLimit: 1024 * 1024 });
    try {
      const res = await new Promise<RawAnswer>((resolve, reject) => {
        const req = request(`${small.emu.baseUrl}/v1/list_workspaces`, {
          method: 'POST',
          agent: false,
          headers: {
            authorization: `Bearer ${small.emu.token}`,
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
          },
        });
        req.on('response', (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: r.statusCode!, headers: r.headers, text, body: JSON.parse(text) });
            req.destroy();
          });
        });
        req.on('error', (err) => (err as NodeJS.ErrnoException).code !== 'ECONNRESET' && reject(err));
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 3 * 1024 * 1024) {
            sent += chunk.length;
            if (!req.write(chunk)) return req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
      expectRefusal(res, 413);
    } finally {
      await small.close();
    }
  });

  it('the real limit is 150 MB, decided while streaming too', async () => {
    // 150 MB + 1 byte of whitespace through a chunked body: refused as soon as it passes the limit.
    const res = await new Promise<RawAnswer>((resolve, reject) => {
      const req = request(`${h.emu.baseUrl}/v1/list_workspaces`, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${h.emu.token}`, 'transfer-encoding': 'chunked' },
      });
      let done = false;
      req.on('response', (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          done = true;
          const text = Buffer.concat(chunks).toString();
          resolve({ status: r.statusCode!, headers: r.headers, text, body: JSON.parse(text) });
          req.destroy();
        });
      });
      req.on('error', (err) => !done && (err as NodeJS.ErrnoException).code !== 'ECONNRESET' && reject(err));
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (!done && sent <= 151 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return req.once('drain', pump);
        }
        if (!done) req.end();
      };
      pump();
    });
    expectRefusal(res, 413, /150 MB/);
  });
});

describe('422', () => {
  it('an Idempotency-Key reused with another body or another method', async () => {
    const headers = { 'idempotency-key': 'reuse-1' };
    expect((await h.call('list_sites', { workspaceId: 'ws_demo' }, { headers })).status).toBe(200);
    expectRefusal(await h.call('list_sites', { workspaceId: 'ws_free' }, { headers }), 422, /Idempotency-Key/);
    expectRefusal(await h.call('list_workspaces', {}, { headers }), 422, /different method or body/);
  });
});

describe('429', () => {
  it('the per-minute budget: the message says to wait N seconds, with Retry-After', async () => {
    for (let i = 0; i < 240; i++) expect((await h.call('list_workspaces')).status).toBe(200);
    const res = await h.call('list_workspaces');
    expectRefusal(res, 429, /^Too many tool calls, wait \d+ seconds\.$/i);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  });
});

describe('500', () => {
  it('a failure on the service side, retried with the same key, runs again', async () => {
    h.emu.control.addFault({ method: 'create_site', status: 500, when: 'before' });
    const headers = { 'idempotency-key': 'retry-500' };
    const args = { workspaceId: 'ws_demo', prompt: 'Retry me' };
    const before = h.emu.state.core.sites.length;
    expectRefusal(await h.call('create_site', args, { headers }), 500);
    expect(h.emu.state.core.sites.length).toBe(before);
    expect((await h.call('create_site', args, { headers })).status).toBe(200);
    expect(h.emu.state.core.sites.length).toBe(before + 1);
  });
});
