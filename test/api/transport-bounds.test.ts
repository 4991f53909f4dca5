// The transport's hard bounds against small hostile servers on 127.0.0.1 (docs/scripting.md
// "How calls are made"): a dripping body ends at the deadline, a huge body at the cap, a
// redirect is refused, a malformed envelope is an error, Retry-After is clamped, and a first
// call still in flight is waited out. Waits run on a FakeClock; only the per-request deadline
// is real time (sockets), so the tests give it a fraction of a second.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerList, answerRecord } from '../../src/api/answer.js';
import { ApiClient } from '../../src/api/client.js';
import { parseRetryAfter } from '../../src/api/headers.js';
import { TRANSPORT_BOUNDS } from '../../src/api/transport.js';
import { FakeClock } from '../../src/clock.js';
import { ApiError, NetworkError, RateLimitError } from '../../src/errors.js';
import { envelope, startScriptServer, type ScriptServer } from '../helpers/script-server.js';
import { waitFor } from '../helpers/wait-for.js';

let server: ScriptServer;
let clock: FakeClock;
let notices: string[];
const TOKEN = 'sb_test_0123456789abcdef';
const MiB = 1024 * 1024;

function client(extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  return new ApiClient({
    baseUrl: server.baseUrl,
    token: TOKEN,
    clock,
    random: () => 0.5,
    notice: (l) => notices.push(l),
    ...extra,
  });
}

async function failure(p: Promise<unknown>): Promise<any> {
  return p.then(
    (v) => {
      throw new Error(`expected a failure, got ${JSON.stringify(v).slice(0, 200)}`);
    },
    (e) => e,
  );
}

beforeEach(async () => {
  server = await startScriptServer();
  clock = new FakeClock();
  notices = [];
});
afterEach(() => server.close());

describe('the total deadline', () => {
  it('ends a body dripped byte by byte at the deadline, not at an idle timer, and tries once more', async () => {
    const drip = { drip: { chunk: '1,', everyMs: 20 } };
    server.script = [drip, drip];
    const c = client({ timeoutMs: 300 });
    const err = await failure(c.call('list_workspaces', {}));
    c.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/^list_workspaces got no complete answer from http:\/\/127\.0\.0\.1:\d+ within 300 ms/);
    expect(err.message).toContain('after 2 attempts');
    expect(server.requests).toHaveLength(2);
    // Each drip kept sending until the client hung up; both connections are closed now.
    expect(server.bytesSent.every((n) => n > 0)).toBe(true);
    await waitFor(() => server.open() === 0, { what: 'the client to hang up on both drips' });
    expect(notices).toEqual([
      expect.stringMatching(/^No complete answer from .* within 300 ms; trying list_workspaces/),
    ]);
  });

  it('gives a write that timed out twice its key: it may still take effect', async () => {
    server.script = [{ hang: true }, { hang: true }];
    const c = client({ timeoutMs: 200 });
    const err = await failure(c.call('publish_site', { projectId: 'site_1' }));
    c.close();
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toContain(`publish_site may still take effect; its idempotency key is ${keys[0]}.`);
    expect(err.details).toMatchObject({ idempotencyKey: keys[0], outcome: 'unknown' });
  });

  it('says nothing of an unknown outcome when the connection was refused (nothing was sent)', async () => {
    const port = new URL(server.baseUrl).port;
    await server.close();
    const c = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, clock, random: () => 0.5 });
    const err = await failure(c.call('publish_site', { projectId: 'site_1' }));
    c.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('connection refused');
    expect(err.message).not.toContain('may still take effect');
    expect(err.details.outcome).toBeUndefined();
    server = await startScriptServer(); // for afterEach
  });
});

describe('the answer size cap', () => {
  it('cuts a huge streamed answer at the cap, holding nothing past it, and does not retry', async () => {
    server.script = [{ hugeBytes: 200 * MiB }];
    const c = client({ maxAnswerBytes: 4 * MiB });
    const err = await failure(c.call('list_workspaces', {}));
    c.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe(
      'The answer to list_workspaces is larger than 4,194,304 bytes (HTTP 200); it was cut off and not read. Check that the base URL points at the service. (request req_1)',
    );
    expect(server.requests).toHaveLength(1);
    await waitFor(() => server.open() === 0, { what: 'the client to hang up' });
    // The server stopped writing soon after the cap (what socket buffers hold), far from 200 MiB.
    expect(server.bytesSent[0]).toBeLessThan(40 * MiB);
  });

  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    server.script = [{ hugeBytes: 200 * MiB, declareLength: true }];
    const c = client();
    const err = await failure(c.call('list_workspaces', {}));
    c.close();
    expect(err.message).toContain(`larger than 67,108,864 bytes`);
    await waitFor(() => server.open() === 0, { what: 'the client to hang up' });
    expect(server.bytesSent[0]).toBeLessThan(TRANSPORT_BOUNDS.answerMaxBytes);
  });

  it('reads answers up to the cap, and file answers up to the larger one', () => {
    expect(TRANSPORT_BOUNDS.answerMaxBytes).toBe(64 * MiB);
    expect(TRANSPORT_BOUNDS.fileAnswerMaxBytes).toBe(160 * MiB);
    // 100 MiB uploaded, read back as base64, fits the file cap.
    expect(Math.ceil((100 * MiB) / 3) * 4).toBeLessThan(TRANSPORT_BOUNDS.fileAnswerMaxBytes);
  });
});

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])(
    'refuses a %i with a JSON success body, naming the status and Location',
    async (status) => {
      server.script = [
        {
          status,
          headers: { location: 'https://elsewhere.example/v1/publish_site' },
          body: envelope({ started: true, _id: 'site_x' }),
        },
      ];
      const c = client();
      const err = await failure(c.call('publish_site', { projectId: 'site_x' }));
      c.close();
      expect(err).toBeInstanceOf(ApiError);
      expect(err.exitCode).toBe(1);
      expect(err.message).toBe(
        `The service answered publish_site with a redirect (HTTP ${status} to "https://elsewhere.example/v1/publish_site"); a redirect is never followed and nothing was taken from it. Check the base URL (--base-url / SITEBUILDER_BASE_URL). (request req_1)`,
      );
      expect(server.requests).toHaveLength(1);
    },
  );
});

describe('envelopes', () => {
  it.each([
    [{}, 'it has no `success` field'],
    [{ data: [{ _id: 'ws_1' }] }, 'it has no `success` field'],
    [{ success: 'true', data: [] }, 'its `success` is "true", not true'],
    [{ success: 1, data: [] }, 'its `success` is 1, not true'],
    [{ success: true, message: 'ok' }, 'it has no `data` field'],
  ])('refuses the 2xx answer %j: %s', async (body, missing) => {
    server.script = [{ body }];
    const c = client();
    const err = await failure(c.call('list_workspaces', {}));
    c.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe(
      `The answer to list_workspaces is not a valid answer of the service: ${missing}; nothing was taken from it. (request req_1)`,
    );
  });

  it('takes a 2xx with success false as the refusal it says it is', async () => {
    server.script = [{ body: { success: false, message: 'Nope.', data: null, code: 400 } }];
    const c = client();
    const err = await failure(c.call('list_workspaces', {}));
    c.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('Nope. (request req_1)');
  });

  it('gives a write whose answer is malformed its key: the write may have happened', async () => {
    server.script = [{ body: {} }];
    const c = client();
    const err = await failure(c.call('publish_site', { projectId: 's' }, { idempotencyKey: 'deploy-1' }));
    c.close();
    expect(err.message).toContain('publish_site may still take effect; its idempotency key is deploy-1.');
  });

  it('leaves what data must hold to the command, with a helper that names what is missing', async () => {
    const c = client();
    const answers: [unknown, string][] = [
      [{}, 'an object with no fields'],
      ['sites', 'text'],
      [null, 'null'],
      [{ total: 3, next: null }, 'an object with the fields total, next'],
    ];
    for (const [data] of answers) server.script.push({ body: envelope(data) });
    for (const [, described] of answers) {
      const res = await c.call('list_sites', { workspaceId: 'ws_1' });
      const err = await failure(Promise.resolve().then(() => answerList('list_sites', res)));
      expect(err).toBeInstanceOf(ApiError);
      expect(err.message).toMatch(
        new RegExp(
          `^The answer to list_sites holds no list of records \\(its data is ${described}\\); nothing was taken from it\\. \\(request req_\\d\\)$`,
        ),
      );
    }
    server.script = [{ body: envelope([]) }, { body: envelope({ items: [{ _id: 'a' }], nextCursor: null }) }];
    expect(answerList('list_sites', await c.call('list_sites', { workspaceId: 'ws_1' }))).toEqual([]);
    expect(answerList('list_site_cron_runs', await c.call('list_site_cron_runs', { projectId: 's' }))).toEqual([
      { _id: 'a' },
    ]);
    server.script = [{ body: envelope('running') }, { body: envelope({ running: false }) }];
    const status = await c.call('get_publish_status', { projectId: 's' });
    expect(() => answerRecord('get_publish_status', status)).toThrow(
      'The answer to get_publish_status holds no record (its data is text)',
    );
    expect(answerRecord('get_publish_status', await c.call('get_publish_status', { projectId: 's' }))).toEqual({
      running: false,
    });
    c.close();
  });
});

describe('Retry-After', () => {
  const limited = (retryAfter: string, extra: Record<string, string> = {}) => ({
    status: 429,
    headers: { 'retry-after': retryAfter, ...extra },
    body: envelope(null, 429, 'Too many tool calls.'),
  });

  it('parses seconds and HTTP dates, and nothing else', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 2.5 ', now)).toBe(2.5);
    expect(parseRetryAfter('-1', now)).toBe(-1);
    expect(parseRetryAfter(new Date(now + 10_000).toUTCString(), now)).toBe(10);
    for (const bad of ['', 'soon', '1e3', 'NaN', '0x10', '12abc'])
      expect(parseRetryAfter(bad, now), bad).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('never loops tightly on a negative or zero Retry-After: each wait is at least a second, the retries bounded', async () => {
    server.answerFor = () => limited('-1');
    const c = client();
    const err = await failure(c.call('list_workspaces', {}));
    c.close();
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.exitCode).toBe(7);
    expect(server.requests).toHaveLength(TRANSPORT_BOUNDS.rateLimitRetries + 1);
    expect(clock.sleeps).toEqual(Array(TRANSPORT_BOUNDS.rateLimitRetries).fill(1000));
    server.answerFor = undefined;
    server.script = [limited('0'), { body: envelope([]) }];
    clock.sleeps = [];
    const c2 = client();
    await c2.call('list_workspaces', {});
    c2.close();
    expect(clock.sleeps).toEqual([1000]);
  });

  it('waits a malformed Retry-After by X-RateLimit-Reset, or 5 s without one', async () => {
    server.script = [
      limited('soon', { 'x-ratelimit-reset': '7' }),
      { body: envelope([]) },
      limited('later', { 'x-ratelimit-reset': '-3' }),
      { body: envelope([]) },
    ];
    const c = client();
    await c.call('list_workspaces', {});
    await c.call('list_workspaces', {});
    c.close();
    expect(clock.sleeps).toEqual([7000, 5000]);
  });

  it.each([59, 60])('waits Retry-After: %i exactly (the cap is 60 s), then goes on', async (s) => {
    server.script = [limited(String(s)), { body: envelope([]) }];
    const c = client();
    const res = await c.call('list_workspaces', {});
    c.close();
    expect(res.attempts).toBe(2);
    expect(clock.sleeps).toEqual([s * 1000]);
  });

  it('gives up at once on a wait over the cap, huge or not, with exit 7 and a sane hint', async () => {
    for (const value of ['61', '99999999999999']) {
      server.script = [limited(value)];
      clock.sleeps = [];
      const c = client();
      const err = await failure(c.call('list_workspaces', {}));
      c.close();
      expect(err).toBeInstanceOf(RateLimitError);
      expect(clock.sleeps).toEqual([]);
      expect(err.message).toBe(
        value === '61'
          ? `Too many tool calls. Wait 61 seconds and try again. (request req_${server.requests.length})`
          : `Too many tool calls. Wait for the quota to free up, then try again. (request req_${server.requests.length})`,
      );
    }
  });

  it('waits an HTTP-date Retry-After until that time', async () => {
    server.script = [limited(new Date(clock.now() + 12_000).toUTCString()), { body: envelope([]) }];
    const c = client();
    await c.call('list_workspaces', {});
    c.close();
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('does not repeat the service’s own "wait N seconds" in the hint', async () => {
    server.script = [
      {
        status: 429,
        headers: { 'retry-after': '600' },
        body: envelope(null, 429, 'Too many tool calls, wait 600 seconds.'),
      },
    ];
    const c = client();
    const err = await failure(c.call('list_workspaces', {}));
    c.close();
    expect(err.message).toBe('Too many tool calls, wait 600 seconds. (request req_1)');
  });
});

describe('a first call still in flight (409 on our own key)', () => {
  const inFlight = {
    status: 409,
    body: envelope(
      { reason: 'idempotency-in-flight' },
      409,
      'A request with this Idempotency-Key is still in flight; retry once it has finished.',
    ),
  };

  it('is waited out with backoff, then its replayed answer is used', async () => {
    server.script = [inFlight, inFlight, inFlight, { body: envelope({ queued: false, jobId: 'job_1' }) }];
    const c = client();
    const res = await c.call('send_message', { projectId: 's', prompt: 'hi' }, { idempotencyKey: 'msg-1' });
    c.close();
    expect(res.envelope.data).toEqual({ queued: false, jobId: 'job_1' });
    expect(res.attempts).toBe(4);
    expect(clock.sleeps).toEqual([875, 1750, 3500]);
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(Array(4).fill('msg-1'));
    expect(notices).toEqual([
      'send_message is still running from the first attempt; waiting up to 2 min for its answer.',
    ]);
  });

  it('gives up after the bounded wait with the key, saying the call may still take effect', async () => {
    server.answerFor = () => inFlight;
    const c = client();
    const err = await failure(c.call('publish_site', { projectId: 's' }, { idempotencyKey: 'deploy-7' }));
    c.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err.exitCode).toBe(1);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(TRANSPORT_BOUNDS.inFlightWaitMs);
    expect(server.requests.length).toBeLessThan(25);
    expect(err.message).toBe(
      `The first publish_site call was still running after 2 min of waiting for it (HTTP 409 in flight). (request req_${server.requests.length}) publish_site may still take effect; its idempotency key is deploy-7.`,
    );
    expect(err.details).toMatchObject({ idempotencyKey: 'deploy-7', outcome: 'unknown' });
  });

  it('does not wait out another 409 (site busy)', async () => {
    server.script = [{ status: 409, body: envelope(null, 409, 'A scheduled job is already running on this site.') }];
    const c = client();
    const err = await failure(c.call('run_site_cron', { projectId: 's', cronId: 'c' }));
    c.close();
    expect(server.requests).toHaveLength(1);
    expect(err.message).not.toContain('may still take effect');
  });
});

describe('what stays as it was', () => {
  it('keeps one keep-alive connection for every call and never puts the token in an address', async () => {
    const c = client();
    for (let i = 0; i < 3; i++) await c.call('list_workspaces', {});
    c.close();
    expect(new Set(server.requests.map((r) => r.headers.connection))).toEqual(new Set(['keep-alive']));
    expect(new Set(server.requests.map((r) => r.remotePort)).size).toBe(1);
    for (const r of server.requests) {
      expect(r.url).not.toContain(TOKEN);
      expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    }
  });
});
