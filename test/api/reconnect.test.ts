// Staying alive across a lost service (src/api/poll.ts Reconnect): which failures are waited
// out, the waits between tries (doubling, never under the poll floor, bounded), what is said,
// and pollUntil reading through an outage. On a FakeClock: the waits are read, not waited.
import { describe, expect, it } from 'vitest';
import { ConnectionLostError, mayRecover, pollUntil, RECONNECT, Reconnect } from '../../src/api/poll.js';
import { POLL_TIMING } from '../../src/api/poller.js';
import { FakeClock } from '../../src/clock.js';
import { ApiError, AuthError, NetworkError, UsageError } from '../../src/errors.js';

const refused = () => new NetworkError('Could not connect.', { code: 'ECONNREFUSED' });
const http = (status: number) => new ApiError({ status, method: 'get_job', message: '' }, `HTTP ${status}`);

function reconnect(clock: FakeClock, forMs?: number) {
  const said: string[] = [];
  const shown: Array<string | undefined> = [];
  const r = new Reconnect({ clock, forMs, say: (l) => said.push(l), show: (l) => shown.push(l) });
  return { r, said, shown };
}

describe('Reconnect', () => {
  it('waits out the network and the service’s 5xx, 408 and 429; refusals that will not change are thrown back', async () => {
    for (const err of [refused(), http(500), http(502), http(503), http(408), http(429)])
      expect(mayRecover(err)).toBe(true);
    for (const err of [
      http(400),
      http(404),
      http(409),
      new AuthError({ status: 401, method: 'get_job', message: '' }, 'no'),
      new UsageError('bad'),
    ])
      expect(mayRecover(err)).toBe(false);
    const clock = new FakeClock();
    const { r, said } = reconnect(clock);
    const forbidden = new AuthError({ status: 403, method: 'get_job', message: '' }, 'Forbidden.');
    await expect(r.failed(forbidden, { readAt: clock.now() })).rejects.toBe(forbidden);
    expect(said).toEqual([]);
    expect(clock.sleeps).toEqual([]);
  });

  it('says the loss once, tries again after doubling waits that never go under the floor, and gives up after forMs', async () => {
    const clock = new FakeClock();
    const { r, said, shown } = reconnect(clock, 2 * 60_000);
    const lostAt = clock.now();
    const verdicts: string[] = [];
    for (;;) {
      const readAt = clock.now();
      clock.advance(300); // the failed try took a while
      const v = await r.failed(refused(), { readAt });
      verdicts.push(v);
      if (v !== 'retry') break;
    }
    expect(verdicts.at(-1)).toBe('give-up');
    expect(said).toEqual(['Connection lost (connection refused); retrying for up to 2 min.']);
    // 2, 4, 8, 16, 30, 30… seconds after each failed try, the last one cut to end at the two minutes.
    expect(clock.sleeps.slice(0, 6)).toEqual([2000, 4000, 8000, 16000, 30000, 30000]);
    for (const ms of clock.sleeps) expect(ms + 300).toBeGreaterThanOrEqual(POLL_TIMING.floorMs);
    expect(clock.now() - lostAt).toBeGreaterThanOrEqual(2 * 60_000);
    expect(clock.now() - lostAt).toBeLessThan(2 * 60_000 + 1_000);
    expect(shown[0]).toBe('No connection (next try in 2 s)');
    const err = r.givenUp();
    expect(err).toBeInstanceOf(ConnectionLostError);
    expect(err.exitCode).toBe(8);
    expect(err.message).toBe('No connection to the service for 2 min (connection refused).');
  });

  it('says the connection is back once, and a later loss is said again', async () => {
    const clock = new FakeClock();
    const { r, said, shown } = reconnect(clock);
    await r.failed(http(503), { readAt: clock.now() });
    await r.failed(http(503), { readAt: clock.now() });
    r.succeeded();
    r.succeeded();
    expect(said).toEqual([
      'Connection lost (HTTP 503); retrying for up to 5 min.',
      'Connection back after 6 s; going on.',
    ]);
    expect(shown.at(-1)).toBeUndefined();
    expect(r.callOptions()).toEqual({ retryFloorMs: POLL_TIMING.floorMs });
    await r.failed(refused(), { readAt: clock.now() });
    expect(r.callOptions()).toEqual({ retryFloorMs: POLL_TIMING.floorMs, maxAttempts: 1 });
    expect(said).toHaveLength(3);
  });

  it('--reconnect-for 0 gives up at the first failure; a --timeout reached while waiting is a deadline', async () => {
    const clock = new FakeClock();
    const none = reconnect(clock, 0);
    expect(await none.r.failed(refused(), { readAt: clock.now() })).toBe('give-up');
    expect(none.said).toEqual(['Connection lost (connection refused).']);
    const { r } = reconnect(clock);
    const t0 = clock.now();
    expect(await r.failed(refused(), { readAt: t0, stopAt: t0 + 1_000 })).toBe('deadline');
    expect(clock.now()).toBe(t0 + 1_000);
    expect(RECONNECT.forMs).toBe(5 * 60_000);
  });
});

describe('pollUntil through an outage', () => {
  it('reads on once the service is back; never two reads within the floor', async () => {
    const clock = new FakeClock();
    const said: string[] = [];
    const reads: number[] = [];
    let n = 0;
    const res = await pollUntil({
      clock,
      timeoutMs: 10 * 60_000,
      reconnect: new Reconnect({ clock, say: (l) => said.push(l) }),
      read: async (call) => {
        reads.push(clock.now());
        n++;
        if (n >= 2 && n <= 5) {
          expect(call.maxAttempts).toBe(n === 2 ? undefined : 1);
          throw refused();
        }
        return n;
      },
      done: (v) => v >= 7,
    });
    expect(res).toMatchObject({ value: 7, timedOut: false });
    expect(said).toEqual([
      'Connection lost (connection refused); retrying for up to 5 min.',
      'Connection back after 30 s; going on.',
    ]);
    for (let i = 1; i < reads.length; i++) expect(reads[i] - reads[i - 1]).toBeGreaterThanOrEqual(POLL_TIMING.floorMs);
  });

  it('throws ConnectionLostError (exit 8) when the service stays away', async () => {
    const clock = new FakeClock();
    await expect(
      pollUntil({
        clock,
        timeoutMs: 60 * 60_000,
        reconnect: new Reconnect({ clock, forMs: 30_000, say: () => {} }),
        read: async () => {
          throw http(502);
        },
        done: () => false,
      }),
    ).rejects.toBeInstanceOf(ConnectionLostError);
    expect(clock.now() - Date.UTC(2026, 10, 22, 12, 0, 0)).toBeGreaterThanOrEqual(30_000);
  });
});
