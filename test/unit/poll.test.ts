import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../src/api/poll.js';
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
    expect(clock.sleeps).toEqual([4500, 5000, 5000, 5000]);
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
