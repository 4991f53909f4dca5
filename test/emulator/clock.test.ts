// The emulated clock: speed, jumps, timers, on a fake time source but for the one wall timer.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { EmulatorClock } from '../../src/emulator/clock.js';
import { waitFor } from '../helpers/wait-for.js';

describe('EmulatorClock', () => {
  it('follows its source at the configured speed, and re-anchors when the speed changes', () => {
    const source = new FakeClock(1_000_000);
    const clock = new EmulatorClock(source, 10);
    expect(clock.now()).toBe(1_000_000);
    source.advance(1_000);
    expect(clock.now()).toBe(1_010_000);
    clock.setSpeed(1);
    source.advance(1_000);
    expect(clock.now()).toBe(1_011_000);
    expect(clock.toSourceMs(60_000)).toBe(60_000);
    clock.setSpeed(4);
    expect(clock.toSourceMs(60_000)).toBe(15_000);
  });

  it('starts at a given emulated time (a loaded state resumes from its savedAt)', () => {
    const source = new FakeClock(5_000);
    const clock = new EmulatorClock(source, 1, 123_456);
    source.advance(10);
    expect(clock.now()).toBe(123_466);
  });

  it('jumps forward, and fires due timers in order', () => {
    const source = new FakeClock(0);
    const clock = new EmulatorClock(source);
    const fired: string[] = [];
    clock.schedule(2_000, () => fired.push('b'));
    clock.schedule(1_000, () => fired.push('a'));
    const cancel = clock.schedule(1_500, () => fired.push('cancelled'));
    cancel();
    clock.advance(1_000);
    expect(fired).toEqual(['a']);
    source.advance(5_000);
    clock.runDue();
    expect(fired).toEqual(['a', 'b']);
    expect(() => clock.advance(-1)).toThrow();
    expect(() => clock.setSpeed(0)).toThrow();
  });

  it('arms a wall timer with the real clock', async () => {
    const clock = new EmulatorClock(Date, 100);
    let fired = false;
    clock.schedule(clock.now() + 1_000, () => {
      fired = true;
    });
    try {
      // 1 emulated second = 10 ms at speed 100.
      await waitFor(() => fired, { what: 'the timer to fire', deadlineMs: 2_000 });
    } finally {
      clock.stop();
    }
    expect(fired).toBe(true);
  });
});
