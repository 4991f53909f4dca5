// A write slower than the per-request deadline never leads to a second effect (issue: a 34 s
// send_message timed out, its retry met 409 "in flight" and gave up; re-running duplicated it).
// Against the real emulator with its latency fault, scaled down: the first attempt outlives a
// 250 ms deadline, its retry meets 409, the client waits the first call out and uses the
// replayed answer. Then, against a server that stays "in flight", the give-up prints the exact
// command that re-runs it with the same key.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { FakeClock, scaledClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { run } from '../helpers/run.js';
import { envelope, startScriptServer, type ScriptServer } from '../helpers/script-server.js';

describe('a write slower than the deadline, against the emulator', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  afterAll(() => emu.close());

  it.each([
    ['send_message', { projectId: 'site_bakery', prompt: 'Add a page about our sourdough, please' }],
    ['publish_site', { projectId: 'site_bakery' }],
  ])('%s: one effect, the replayed answer used', async (method, args) => {
    emu.control.reset();
    // The 34 s / 30 s case of the issue, scaled: latency 700 ms, deadline 250 ms; the client's
    // waits between its tries (1 s, 2 s…) ten times shorter. The sockets' times stay real.
    emu.control.addFault({ method, latencyMs: 700 });
    const notices: string[] = [];
    const c = new ApiClient({
      baseUrl: emu.baseUrl,
      token: DEMO_TOKENS.full,
      clock: scaledClock(10),
      timeoutMs: 250,
      notice: (l) => notices.push(l),
    });
    const res = await c.call(method, args);
    c.close();
    expect(res.status).toBe(200);
    expect(res.envelope.success).toBe(true);
    const log = emu.control.log({ method });
    // Every attempt carried the same key; exactly one ran the method, the last was a replay.
    expect(new Set(log.map((e) => e.idempotencyKey))).toEqual(new Set([res.idempotencyKey]));
    const ran = log.filter((e) => !e.replayed && e.status === 200);
    expect(ran).toHaveLength(1);
    expect(log.filter((e) => e.status === 409).length).toBeGreaterThanOrEqual(1);
    expect(log.at(-1)!.replayed).toBe(true);
    expect(notices[0]).toMatch(new RegExp(`^No complete answer from .* within 250 ms; trying ${method} once more\\.$`));
    expect(notices[1]).toBe(`${method} is still running from the first attempt; waiting up to 2 min for its answer.`);
    if (method === 'send_message') {
      const history = await fetch(`${emu.baseUrl}/v1/list_messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO_TOKENS.full}`, 'content-type': 'application/json' },
        body: JSON.stringify({ projectId: 'site_bakery' }),
      }).then((r) => r.json() as Promise<any>);
      const text = JSON.stringify(history.data);
      expect(text.split('Add a page about our sourdough, please').length - 1).toBe(1);
    }
  });
});

describe('giving up on a first call still in flight: the command to re-run with the same key', () => {
  let server: ScriptServer;
  const clock = new FakeClock();
  const inFlight = {
    status: 409,
    body: envelope(
      { reason: 'idempotency-in-flight' },
      409,
      'A request with this Idempotency-Key is still in flight; retry once it has finished.',
    ),
  };
  beforeEach(async () => {
    server = await startScriptServer();
    // The writes stay in flight; reads (chat first reads the history) get an empty page.
    server.answerFor = (req) =>
      /^\/v1\/(send_message|publish_site|resume_queue)$/.test(req.url)
        ? inFlight
        : { body: envelope({ items: [], hasMore: false }) };
  });
  afterEach(() => server.close());
  const cli = (argv: string[]) =>
    run(argv, { clock, env: { SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: 'sb_test_token_123456' } });
  const sentKey = (method: string) =>
    server.requests.find((r) => r.url === `/v1/${method}`)?.headers['idempotency-key'] as string;

  it('publish: adds --idempotency-key with the key it used', async () => {
    const r = await cli(['publish', 'site_x', '--no-wait']);
    expect(r.code).toBe(1);
    const key = sentKey('publish_site');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toContain('publish_site may still take effect');
    expect(r.stderr.trim()).toMatch(
      new RegExp(`run it again with the same key: sitebuilder publish site_x --no-wait --idempotency-key ${key}$`),
    );
    expect(r.stdout).toBe('');
  });

  it('chat: the same, the token never echoed; under --json the key is in the error document', async () => {
    const r = await cli(['--token', 'sb_secret_token_987654', 'chat', 'site_x', "it's late", '--no-follow', '--json']);
    expect(r.code).toBe(1);
    const key = sentKey('send_message');
    const doc = JSON.parse(r.stderr).error;
    expect(doc).toMatchObject({ idempotencyKey: key, outcome: 'unknown', exitCode: 1 });
    expect(doc.message).toContain(
      `sitebuilder chat site_x 'it'\\''s late' --no-follow --json --idempotency-key ${key}`,
    );
    expect(r.stderr).not.toContain('sb_secret_token_987654');
  });

  it('a key given on the command line: run the same command again', async () => {
    const r = await cli(['publish', 'site_x', '--no-wait', '--idempotency-key', 'deploy-42']);
    expect(r.code).toBe(1);
    expect(sentKey('publish_site')).toBe('deploy-42');
    expect(r.stderr).toContain('its idempotency key is deploy-42.');
    expect(r.stderr).toContain('Run the same command again to get its answer');
  });

  it('api: the key goes in -H', async () => {
    const r = await cli(['api', 'publish_site', '-f', 'projectId=site_x']);
    expect(r.code).toBe(1);
    const key = sentKey('publish_site');
    expect(r.stderr).toContain(
      `run it again with the same key: sitebuilder api publish_site -f projectId=site_x -H 'Idempotency-Key: ${key}'`,
    );
  });

  it('a command without a key flag: check before running it again', async () => {
    const r = await cli(['queue', 'resume', 'site_x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('resume_queue may still take effect');
    expect(r.stderr).toContain('Check whether it took effect before running the command again.');
  });
});
