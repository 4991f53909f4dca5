import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkBaseUrl, isLoopbackHost } from '../../src/api/base-url.js';
import { ApiClient } from '../../src/api/client.js';
import { clockFromEnv, FakeClock, systemClock } from '../../src/clock.js';
import { ApiError, AuthError, NetworkError, RateLimitError, UsageError } from '../../src/errors.js';
import { envelope, startScriptServer, type ScriptServer } from '../helpers/script-server.js';
import { waitFor } from '../helpers/wait-for.js';

let server: ScriptServer;
let clock: FakeClock;
const TOKEN = 'sb_test_0123456789abcdef';
const debugLines: string[] = [];

function client(extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  return new ApiClient({
    baseUrl: server.baseUrl,
    token: TOKEN,
    clock,
    random: () => 0.5,
    debug: (l) => debugLines.push(l),
    ...extra,
  });
}

beforeEach(async () => {
  server = await startScriptServer();
  clock = new FakeClock();
  debugLines.length = 0;
});
afterEach(() => server.close());

describe('ApiClient', () => {
  it('posts JSON with the Bearer token in a header, never in the address', async () => {
    server.script = [{ body: envelope([{ _id: 'ws_1' }]) }];
    const c = client();
    const res = await c.call('list_workspaces', {});
    c.close();
    expect(res.envelope.data).toEqual([{ _id: 'ws_1' }]);
    const [req] = server.requests;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/list_workspaces');
    expect(req.url).not.toContain(TOKEN);
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.headers['idempotency-key']).toBeUndefined(); // a read carries none
    expect(JSON.parse(req.body)).toEqual({});
    expect(debugLines.join('\n')).not.toContain(TOKEN);
    expect(debugLines[0]).toMatch(/POST list_workspaces → 200 in \d+ms request=req_1 remaining=239/);
  });

  it("ends a call that hangs when its signal aborts (Ctrl-C), with the signal's reason and no retry", async () => {
    server.script = [{ hang: true }, { body: envelope([]) }];
    const c = client();
    const controller = new AbortController();
    const pending = c.call('list_workspaces', {}, { signal: controller.signal });
    await waitFor(() => server.requests.length > 0, { what: 'the call to reach the server' });
    const reason = new Error('interrupted');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    // Aborted before it was sent: nothing goes out.
    const early = new AbortController();
    early.abort(reason);
    await expect(c.call('list_workspaces', {}, { signal: early.signal })).rejects.toBe(reason);
    c.close();
    expect(server.requests).toHaveLength(1);
  });

  it('retries a write after a 500 with the same Idempotency-Key', async () => {
    server.script = [{ status: 500, body: envelope(null, 500, 'boom') }, { body: envelope({ started: true }) }];
    const c = client();
    const res = await c.call('publish_site', { projectId: 'site_1' });
    c.close();
    expect(res.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    const [k1, k2] = server.requests.map((r) => r.headers['idempotency-key']);
    expect(k1).toMatch(/^[0-9a-f-]{36}$/);
    expect(k2).toBe(k1);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('uses a given idempotency key', async () => {
    server.script = [{ body: envelope({}) }];
    const c = client();
    await c.call('publish_site', { projectId: 's' }, { idempotencyKey: 'deploy-42' });
    c.close();
    expect(server.requests[0].headers['idempotency-key']).toBe('deploy-42');
  });

  it('waits out Retry-After on a 429, then succeeds', async () => {
    server.script = [
      {
        status: 429,
        headers: { 'retry-after': '7' },
        body: envelope(null, 429, 'too many tool calls, wait 7 seconds'),
      },
      { body: envelope([]) },
    ];
    const c = client();
    await c.call('list_workspaces', {});
    c.close();
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(7000);
    expect(clock.sleeps[0]).toBeLessThan(7500);
  });

  it('gives up on a 429 whose wait passes the cap, with exit 7', async () => {
    server.script = [
      {
        status: 429,
        headers: { 'retry-after': '600' },
        body: envelope(null, 429, 'too many tool calls, wait 600 seconds'),
      },
    ];
    const c = client({ maxRateLimitWaitMs: 60_000 });
    const err = await c.call('list_workspaces', {}).catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toContain('(request req_1)');
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a quota 429 without Retry-After', async () => {
    server.script = [{ status: 429, body: envelope(null, 429, 'The site queue already holds 20 waiting messages') }];
    const c = client();
    const err = await c.call('send_message', { projectId: 's', prompt: 'hi' }).catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 409 in flight, not another 409', async () => {
    server.script = [
      { status: 409, body: envelope(null, 409, 'A request with this Idempotency-Key is still in flight') },
      { body: envelope({ ok: 1 }) },
      {
        status: 409,
        body: envelope(null, 409, 'AI is currently generating. Stop it before restoring this code backup!'),
      },
    ];
    const c = client();
    await c.call('publish_site', { projectId: 's' });
    const err = await c.call('restore_code_backup', { projectId: 's', codeBackupId: 'c' }).catch((e) => e);
    c.close();
    expect(server.requests).toHaveLength(3);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(409);
    expect(err.message).toContain('AI is currently generating');
    expect(err.message).toContain('(request req_3)');
  });

  it('maps 401 to AuthError with a hint to log in', async () => {
    server.script = [
      {
        status: 401,
        headers: { 'www-authenticate': 'Bearer' },
        body: envelope(null, 401, 'The access token is invalid'),
      },
    ];
    const c = client();
    const err = await c.call('list_workspaces', {}).catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(AuthError);
    expect(err.exitCode).toBe(4);
    expect(err.message).toBe(
      'The access token is invalid. Run `sitebuilder auth login` with a valid token. (request req_1)',
    );
  });

  it('names SITEBUILDER_TOKEN in the 401 hint when the token came from it', async () => {
    server.script = [{ status: 401, body: envelope(null, 401, 'The access token is invalid') }];
    const c = client({ tokenOrigin: 'env' });
    const err = await c.call('list_workspaces', {}).catch((e) => e);
    c.close();
    expect(err.message).toContain('SITEBUILDER_TOKEN holds this token');
  });

  it('adds no generic hint to a refusal that already says what to do', async () => {
    server.script = [
      {
        status: 409,
        body: envelope(null, 409, 'AI is currently generating. Stop it before restoring this code backup!'),
      },
      {
        status: 403,
        body: envelope(null, 403, 'Email domains are paused until the workspace is on a paid plan again!'),
      },
      { status: 403, body: envelope(null, 403, 'This token cannot reach workspace ws_private') },
    ];
    const c = client();
    const a = await c.call('restore_code_backup', { projectId: 's', codeBackupId: 'c' }).catch((e) => e);
    const b = await c.call('restart_site_email_domain_verification', { projectId: 's', domainId: 'd' }).catch((e) => e);
    const d = await c.call('list_sites', { workspaceId: 'ws_private' }).catch((e) => e);
    c.close();
    expect(a.message).toBe('AI is currently generating. Stop it before restoring this code backup! (request req_1)');
    expect(b.message).toBe('Email domains are paused until the workspace is on a paid plan again! (request req_2)');
    expect(d.message).toBe(
      'This token cannot reach workspace ws_private. Use a token that reaches this workspace. (request req_3)',
    );
  });

  it('tries a timed-out read only once more, and says so', async () => {
    server.script = [{ hang: true }, { hang: true }, { body: envelope([]) }];
    const notices: string[] = [];
    const c = client({ timeoutMs: 100, notice: (l) => notices.push(l) });
    const err = await c.call('list_workspaces', {}).catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('after 2 attempts');
    expect(server.requests).toHaveLength(2);
    expect(notices).toEqual([
      expect.stringMatching(
        /^No complete answer from 127\.0\.0\.1:\d+ within 100 ms; trying list_workspaces once more\.$/,
      ),
    ]);
  });

  it('reports a non-JSON answer clearly', async () => {
    server.script = [{ status: 502, raw: '<html><body>Bad gateway</body></html>' }];
    const c = client();
    const err = await c.call('list_workspaces', {}).catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toContain('not JSON (HTTP 502, text/html)');
  });

  it('keeps unknown envelope fields and tolerates missing optional ones', async () => {
    server.script = [{ body: { success: true, data: { x: 1 }, extraField: 'kept' } }];
    const c = client();
    const res = await c.call('list_workspaces', {});
    c.close();
    expect(res.envelope).toMatchObject({ success: true, code: 200, message: '', data: { x: 1 }, extraField: 'kept' });
  });

  it('validates arguments before sending', async () => {
    const c = client();
    const err = await c.call('send_message', { projectId: 's', prompt: 'x'.repeat(500_001) }).catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe('Not sent: The argument `prompt` is longer than 500,000 characters.');
    expect(server.requests).toHaveLength(0);
  });

  it('retries a dropped connection on a read and gives up with a clear network error', async () => {
    server.script = [{ drop: true }, { drop: true }, { drop: true }, { drop: true }];
    const c = client();
    const err = await c.call('list_workspaces', {}).catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('after 4 attempts');
    expect(server.requests).toHaveLength(4);
  });

  it('tracks the rate budget from the headers', async () => {
    server.script = [{ body: envelope([]) }];
    const c = client();
    await c.call('list_workspaces', {});
    c.close();
    expect(c.budget).toMatchObject({ limit: 240, remaining: 239, resetSeconds: 42 });
  });

  it('with a clock run faster (SITEBUILDER_CLOCK_SPEED) reads the service’s seconds as wall seconds', async () => {
    const fast = Object.assign(new FakeClock(), { speed: 20 });
    server.script = [
      {
        status: 429,
        headers: { 'retry-after': '2', 'x-ratelimit-reset': '2' },
        body: envelope(null, 429, 'Slow down'),
      },
      { body: envelope([]), headers: { 'x-ratelimit-reset': '2' } },
    ];
    const c = client({ clock: fast });
    await c.call('list_workspaces', {});
    c.close();
    // 2 wall seconds are 40 of a clock 20 times faster: the wait, and the minute's end.
    expect(fast.sleeps).toEqual([40_000]);
    expect(c.budget).toMatchObject({ resetSeconds: 40 });
  });

  it('refuses a clock run faster against anything but a loopback address', () => {
    const fast = Object.assign(new FakeClock(), { speed: 20 });
    expect(() => new ApiClient({ baseUrl: 'https://api.example.com', token: TOKEN, clock: fast })).toThrow(
      /SITEBUILDER_CLOCK_SPEED is for the emulator on a loopback address, not api\.example\.com/,
    );
    expect(() => new ApiClient({ baseUrl: server.baseUrl, token: TOKEN, clock: fast })).not.toThrow();
  });
});

describe('SITEBUILDER_CLOCK_SPEED', () => {
  it('is real time unset or at 1, a scaled clock up to 1000, and refused otherwise', async () => {
    expect(clockFromEnv({})).toBe(systemClock);
    expect(clockFromEnv({ SITEBUILDER_CLOCK_SPEED: '1' })).toBe(systemClock);
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 22) });
    try {
      const fast = clockFromEnv({ SITEBUILDER_CLOCK_SPEED: '50' });
      expect(fast.speed).toBe(50);
      // Its sleep of 5 s is a timer of 100 ms, after which its time has moved 5 s.
      const before = fast.now();
      let woke = false;
      const sleeping = fast.sleep(5_000).then(() => {
        woke = true;
      });
      await vi.advanceTimersByTimeAsync(99);
      expect(woke).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await sleeping;
      expect(fast.now() - before).toBe(5_000);
    } finally {
      vi.useRealTimers();
    }
    for (const bad of ['0', '0.5', '2000', 'fast', '-3', '1e3'])
      expect(() => clockFromEnv({ SITEBUILDER_CLOCK_SPEED: bad }), bad).toThrow(/from 1 to 1000/);
  });
});

describe('base URL rules', () => {
  it('refuses plain http to a non-loopback host before sending anything', () => {
    expect(() => new ApiClient({ baseUrl: 'http://example.com', token: TOKEN, clock: new FakeClock() })).toThrow(
      UsageError,
    );
    expect(() => checkBaseUrl('http://10.0.0.5:8080')).toThrow(/plain http/);
  });
  it('allows https anywhere and http on loopback', () => {
    expect(checkBaseUrl('https://api.example.com').host).toBe('api.example.com');
    for (const h of ['127.0.0.1', 'localhost', '[::1]', '127.1.2.3'])
      expect(() => checkBaseUrl(`http://${h}:9/`)).not.toThrow();
    expect(isLoopbackHost('127.0.0.1.evil.com')).toBe(false);
  });
  it('refuses credentials or a query in the address', () => {
    expect(() => checkBaseUrl('https://user:pw@api.example.com')).toThrow(UsageError);
    expect(() => checkBaseUrl('https://api.example.com/?token=x')).toThrow(UsageError);
  });
});
