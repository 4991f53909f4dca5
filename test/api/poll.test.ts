import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../src/api/poll.js';
import { AdaptivePoller, POLL_TIMING } from '../../src/api/poller.js';
import { FakeClock } from '../../src/clock.js';

describe('pollUntil', () => {
  it('reads until done, waiting longer while nothing changes', async () => {
    const clock = new FakeClock();
    const values = ['a', 'a', 'a', 'b', 'done'];
    const res = await pollUntil({
      clock,
      timeoutMs: 60_000,
      read: async () => values.shift()!,
      done: (v) => v === 'done',
    });
    expect(res).toEqual({ value: 'done', timedOut: false, polls: 5 });
    expect(clock.sleeps).toEqual([4800, 5000, 5000, 5000]);
  });

  it('checks a value already in hand before reading', async () => {
    const clock = new FakeClock();
    let reads = 0;
    const res = await pollUntil({
      clock,
      timeoutMs: 1000,
      initial: 'done',
      read: async () => `${reads++}`,
      done: (v) => v === 'done',
    });
    expect(res).toEqual({ value: 'done', timedOut: false, polls: 0 });
    expect(reads).toBe(0);
  });

  it('stops at the timeout without sleeping past it', async () => {
    const clock = new FakeClock();
    const res = await pollUntil({
      clock,
      timeoutMs: 5000,
      read: async () => 'busy',
      done: () => false,
      changed: () => true,
    });
    expect(res.timedOut).toBe(true);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(5000);
  });
});

/** Reads at these clock times: no two closer than the floor. */
function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]);
}

describe('the polling rule (poll no more often than every few seconds)', () => {
  it('never reads twice within the floor, whatever the deadline', async () => {
    for (let timeoutMs = 1_000; timeoutMs <= 12_000; timeoutMs += 250) {
      const clock = new FakeClock();
      const reads: number[] = [];
      const res = await pollUntil({
        clock,
        timeoutMs,
        read: async () => reads.push(clock.now()),
        done: () => false,
        changed: () => true,
      });
      expect(res.timedOut).toBe(true);
      expect(Math.min(...gaps(reads))).toBeGreaterThanOrEqual(POLL_TIMING.floorMs);
      expect(reads.at(-1)! - reads[0]).toBeLessThanOrEqual(timeoutMs);
    }
  });

  it('callers cannot ask for less than the floor', () => {
    const clock = new FakeClock();
    const p = new AdaptivePoller({ clock, fastMs: 500, idleMs: 900 });
    expect(p.next(true)).toBe(POLL_TIMING.floorMs);
    expect(p.next(false)).toBe(POLL_TIMING.floorMs);
    p.markRead();
    clock.advance(500);
    expect(p.untilAllowed()).toBe(POLL_TIMING.floorMs - 500);
    clock.advance(5_000);
    expect(p.untilAllowed()).toBe(0);
  });

  it('about every 3 s while busy (21 reads a minute), at most 13 in an idle minute', async () => {
    const perMinute = async (changed: boolean) => {
      const clock = new FakeClock();
      const end = clock.now() + 60_000;
      let reads = 0;
      await pollUntil({
        clock,
        timeoutMs: 60_000,
        read: async () => reads++,
        done: () => clock.now() >= end,
        changed: () => changed,
      });
      return reads;
    };
    expect(await perMinute(true)).toBe(21);
    const idle = await perMinute(false);
    expect(idle).toBeLessThanOrEqual(13);
    expect(idle).toBeGreaterThanOrEqual(10);
  });
});
