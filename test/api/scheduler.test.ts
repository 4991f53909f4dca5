// The call scheduler of batch commands (src/api/scheduler.ts) on a manual clock: the per-run
// floor from when a read went out, starts before polls and the calls polls leave them, fair
// polls, and the minute's budget against a simulated service that counts as the service does
// (a minute starts with the first call after the last one ran out): one process of 200 sites,
// and two processes on one token, with no 429 and within the budget-bound time.
import { describe, expect, it } from 'vitest';
import type { RateBudget } from '../../src/api/call.js';
import { pollUntil } from '../../src/api/poll.js';
import { CallScheduler, SCHEDULE } from '../../src/api/scheduler.js';
import type { Clock } from '../../src/clock.js';

/** Time moves only when the test says; sleepers wake in order. */
class ManualClock implements Clock {
  t = 0;
  private timers: Array<{ at: number; seq: number; resolve: () => void }> = [];
  private seq = 0;
  now(): number {
    return this.t;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((x) => x !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }
  /** Runs until `done` settles: lets every ready task run, then jumps to the next timer. */
  async run<T>(done: Promise<T>, limitMs = 3_600_000): Promise<T> {
    let settled = false;
    const result = done.finally(() => {
      settled = true;
    });
    for (;;) {
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      if (settled) return result;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift();
      if (!next) throw new Error('nothing left to wait for, and the work is not done');
      if (next.at > limitMs) throw new Error(`still running at ${limitMs} ms`);
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
  }
}

/** The service's minute: 240 calls, the minute starting with the first call after the last one ran out. */
class Service {
  windows: number[] = [];
  rateLimited = 0;
  private start = Number.NEGATIVE_INFINITY;
  private used = 0;
  constructor(private readonly clock: ManualClock) {}
  call(): { status: number; budget: RateBudget } {
    const now = this.clock.now();
    if (now >= this.start + 60_000) {
      this.start = now;
      this.used = 0;
      this.windows.push(0);
    }
    const reset = Math.max(1, Math.ceil((this.start + 60_000 - now) / 1000));
    if (this.used >= 240) {
      this.rateLimited++;
      return { status: 429, budget: { limit: 240, remaining: 0, resetSeconds: reset, at: now } };
    }
    this.used++;
    this.windows[this.windows.length - 1]++;
    return { status: 200, budget: { limit: 240, remaining: 240 - this.used, resetSeconds: reset, at: now } };
  }
}

/** One process: its scheduler, and a call through it to the service (no latency). */
function process(clock: ManualClock, service: Service, demand?: () => number) {
  let budget: RateBudget | undefined;
  const scheduler = new CallScheduler({ clock, budget: () => budget, demand });
  const starts: number[] = [];
  const call = async (kind: 'start' | 'call' | 'poll', lane?: string) => {
    for (;;) {
      const over = await scheduler.acquire({ kind, lane });
      if (kind === 'start') starts.push(clock.now());
      const answer = service.call();
      budget = answer.budget;
      over(answer.status);
      if (answer.status !== 429) return;
      await clock.sleep(answer.budget.resetSeconds! * 1000);
    }
  };
  return { scheduler, call, starts };
}

/** A publish of 5 s per site, started and then polled until done, `concurrency` at a time. */
async function fleet(clock: ManualClock, service: Service, sites: number, concurrency = 50) {
  let next = 0;
  let active = 0;
  const p = process(clock, service, () => 2 * (sites - next) + active);
  const worker = async () => {
    while (next < sites) {
      const site = next++;
      active++;
      await p.call('start');
      const doneAt = clock.now() + 5_000;
      await pollUntil({
        clock,
        timeoutMs: 600_000,
        lane: `site${site}`,
        initial: false,
        read: async () => {
          await p.call('poll', `site${site}`);
          return clock.now() >= doneAt;
        },
        done: (v) => v,
        changed: (_v, polls) => polls <= 1,
      });
      active--;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { calls: p.scheduler.calls, finishedAt: clock.now(), starts: p.starts };
}

describe('the call scheduler', () => {
  it('never grants two reads of one run within the floor, from when each went out', async () => {
    const clock = new ManualClock();
    const s = new CallScheduler({ clock, budget: () => undefined });
    const times: number[] = [];
    const read = async () => {
      const over = await s.acquire({ kind: 'poll', lane: 'job_1' });
      times.push(clock.now());
      over(200);
    };
    await clock.run(Promise.all([read(), read(), read()]));
    expect(times).toEqual([0, 2_000, 4_000]);
    // Another run is not held by it.
    const other = s.acquire({ kind: 'poll', lane: 'job_2' });
    await clock.run(other);
    expect(clock.now()).toBe(4_000);
  });

  it('lets starts use the calls polls leave them, and holds polls until the minute ends', async () => {
    const clock = new ManualClock();
    const budget: RateBudget = { limit: 240, remaining: SCHEDULE.pollReserve, resetSeconds: 30, at: 0 };
    const s = new CallScheduler({ clock, budget: () => budget });
    const order: string[] = [];
    const poll = s.acquire({ kind: 'poll', lane: 'a' }).then((over) => {
      order.push(`poll@${clock.now()}`);
      over(200);
    });
    const start = s.acquire({ kind: 'start' }).then((over) => {
      order.push(`start@${clock.now()}`);
      over(200);
    });
    await clock.run(Promise.all([poll, start]));
    expect(order).toEqual(['start@0', `poll@${30_000 + SCHEDULE.resetMarginMs}`]);
  });

  it('serves the run read longest ago first', async () => {
    const clock = new ManualClock();
    let budget: RateBudget | undefined;
    const s = new CallScheduler({ clock, budget: () => budget });
    for (const lane of ['c', 'a', 'b']) {
      (await s.acquire({ kind: 'poll', lane }))(200);
      clock.t += 100;
    }
    // The minute's calls are down to the reserve: the three wait together until it ends, then
    // go in the order their runs were last read.
    budget = { limit: 240, remaining: SCHEDULE.pollReserve, resetSeconds: 10, at: clock.t };
    const served: string[] = [];
    const waits = ['a', 'b', 'c'].map((lane) =>
      s.acquire({ kind: 'poll', lane }).then((over) => {
        served.push(lane);
        over(200);
      }),
    );
    await clock.run(Promise.all(waits));
    expect(served).toEqual(['c', 'a', 'b']);
  });

  it('stops waiting when its signal aborts', async () => {
    const clock = new ManualClock();
    const s = new CallScheduler({ clock, budget: () => undefined });
    (await s.acquire({ kind: 'poll', lane: 'a' }))(200);
    const abort = new AbortController();
    const held = s.acquire({ kind: 'poll', lane: 'a' }, abort.signal);
    abort.abort(new Error('Ctrl-C'));
    await expect(held).rejects.toThrow('Ctrl-C');
    expect(s.waiting).toBe(0);
  });

  it('never lets polls starve a start: a start asked for after forty polls goes next', async () => {
    const clock = new ManualClock();
    // A minute with room for all, but work enough that calls are spaced over it.
    let budget: RateBudget = { limit: 240, remaining: 200, resetSeconds: 60, at: 0 };
    const s = new CallScheduler({ clock, budget: () => budget, demand: () => 1_000 });
    const order: string[] = [];
    const take = (kind: 'poll' | 'start', lane?: string) =>
      s.acquire({ kind, lane }).then((over) => {
        order.push(kind);
        budget = {
          ...budget,
          remaining: (budget.remaining ?? 0) - 1,
          resetSeconds: 60 - clock.now() / 1000,
          at: clock.now(),
        };
        over(200);
      });
    const polls = Array.from({ length: 40 }, (_, i) => take('poll', `run${i}`));
    const start = take('start');
    await clock.run(Promise.all([...polls, start]));
    // The first poll went at once; every other waited its turn, and the start took the next one.
    expect(order.slice(0, 3)).toEqual(['poll', 'start', 'poll']);
    expect(order).toHaveLength(41);
  });

  it('spreads the calls the minute has left over the rest of it (X-RateLimit-Remaining and -Reset)', async () => {
    const clock = new ManualClock();
    // 11 calls left, the minute ends at 20 s, and the work needs far more. Each answer reports
    // the minute as the service would.
    let budget: RateBudget = { limit: 240, remaining: 11, resetSeconds: 20, at: 0 };
    const s = new CallScheduler({ clock, budget: () => budget, demand: () => 100 });
    const granted: number[] = [];
    const waits = Array.from({ length: 12 }, () =>
      s.acquire({ kind: 'start' }).then((over) => {
        const now = clock.now();
        granted.push(now);
        budget =
          now < 20_000
            ? {
                limit: 240,
                remaining: (budget.remaining ?? 0) - 1,
                resetSeconds: Math.ceil((20_000 - now) / 1000),
                at: now,
              }
            : { limit: 240, remaining: 239, resetSeconds: 60, at: now };
        over(200);
      }),
    );
    await clock.run(Promise.all(waits));
    // At most ten within the minute (the reserve of one kept), spread over it rather than at
    // once; the rest once it is over.
    const inMinute = granted.filter((t) => t < 20_000);
    expect(inMinute.length).toBeGreaterThanOrEqual(9);
    expect(inMinute.length).toBeLessThanOrEqual(10);
    for (let i = 1; i < inMinute.length; i++) expect(inMinute[i] - inMinute[i - 1]).toBeGreaterThanOrEqual(1_000);
    expect(inMinute.at(-1)).toBeGreaterThan(15_000);
    expect(granted[10]).toBeGreaterThanOrEqual(20_000);
    expect(granted).toHaveLength(12);
  });

  it('holds every call, not only the one that met it, for the Retry-After of a 429', async () => {
    const clock = new ManualClock();
    const s = new CallScheduler({ clock, budget: () => undefined });
    const over = await s.acquire({ kind: 'start' });
    over(429, 7_000);
    const granted: Array<[string, number]> = [];
    const later = [
      s.acquire({ kind: 'poll', lane: 'a' }).then((o) => {
        granted.push(['poll', clock.now()]);
        o(200);
      }),
      s.acquire({ kind: 'start' }).then((o) => {
        granted.push(['start', clock.now()]);
        o(200);
      }),
    ];
    await clock.run(Promise.all(later));
    expect(granted).toEqual([
      ['start', 7_000],
      ['poll', 7_000],
    ]);
    expect(s.rateLimited).toBe(1);
    // A 429 of a quota (no Retry-After) holds nothing.
    const quota = await s.acquire({ kind: 'start' });
    quota(429);
    await clock.run(s.acquire({ kind: 'start' }).then((o) => o(200)));
    expect(clock.now()).toBe(7_000);
  });

  it('without rate-limit headers, keeps its own calls within the limit in any minute of its own', async () => {
    const clock = new ManualClock();
    const s = new CallScheduler({ clock, budget: () => undefined, demand: () => 1_000 });
    const granted: number[] = [];
    const waits = Array.from({ length: 300 }, () =>
      s.acquire({ kind: 'call' }).then((over) => {
        granted.push(clock.now());
        over(200);
      }),
    );
    await clock.run(Promise.all(waits));
    for (let i = 0; i < granted.length; i++) {
      const inMinute = granted.filter((t) => t >= granted[i] && t < granted[i] + 60_000).length;
      expect(inMinute).toBeLessThanOrEqual(240);
    }
    expect(granted.at(-1)).toBeGreaterThanOrEqual(60_000);
  });

  it('publishes 200 sites with no 429, no minute over 240, within 1.2 × the budget-bound ideal', async () => {
    const clock = new ManualClock();
    const service = new Service(clock);
    const r = await clock.run(fleet(clock, service, 200));
    expect(service.rateLimited).toBe(0);
    expect(Math.max(...service.windows)).toBeLessThanOrEqual(240);
    // Two calls a site, a start and one final read: 400 calls at 240 a minute is 100 s.
    expect(r.calls).toBeLessThanOrEqual(440);
    // Spread over the minute, not all at once.
    expect(r.starts[99]).toBeGreaterThan(10_000);
    expect(r.finishedAt).toBeLessThanOrEqual(1.2 * 100_000);
  });

  it('shares the token with a second process: both finish, neither meets a 429, at about the same time', async () => {
    const clock = new ManualClock();
    const service = new Service(clock);
    const [a, b] = await clock.run(Promise.all([fleet(clock, service, 200), fleet(clock, service, 200)]));
    expect(service.rateLimited).toBe(0);
    expect(Math.max(...service.windows)).toBeLessThanOrEqual(240);
    expect(Math.abs(a.finishedAt - b.finishedAt)).toBeLessThanOrEqual(0.15 * Math.max(a.finishedAt, b.finishedAt));
    // 800 calls need 200 s of the budget; together they stay near it.
    expect(Math.max(a.finishedAt, b.finishedAt)).toBeLessThanOrEqual(1.3 * 200_000);
  });

  it('goes at once when the work is small for the minute', async () => {
    const clock = new ManualClock();
    const service = new Service(clock);
    const r = await clock.run(fleet(clock, service, 5));
    expect(r.starts).toEqual([0, 0, 0, 0, 0]);
    // Polled at the run's own pace (2 s, 2 s, then 3.2 s), not spread over the minute.
    expect(r.finishedAt).toBeLessThanOrEqual(7_200);
  });
});
