// A clock that runs `speed` times faster than the wall clock, shared by the CLI and an emulator
// in one process: many runs that wait at once (a batch of sites) all see the same emulated time,
// which a FakeClock (whose every sleep moves time forward at once) cannot give. Tests built on
// it assert what happened, never how long it took.
import type { Clock } from '../../src/clock.js';

export class ScaledClock implements Clock {
  private readonly wallStart = Date.now();
  constructor(
    /** Not `speed` (src/clock.ts): an emulator sharing this clock counts its seconds, so the client reads them as they come. */
    private readonly rate: number,
    private readonly start = Date.UTC(2026, 10, 22, 12, 0, 0),
  ) {}

  now(): number {
    return this.start + (Date.now() - this.wallStart) * this.rate;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms / this.rate),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
