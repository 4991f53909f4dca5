// Time and sleeping are injected so polling and backoff are tested without waiting
// (docs/architecture.md).
import { UsageError } from './errors.js';

export interface Clock {
  /** How many times faster than the wall clock it runs (a scaled clock); 1 or absent: real time. */
  readonly speed?: number;
  now(): number;
  /** Resolves after ms, or at once (rejecting with the signal's reason) when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * The wall clock run `speed` times faster, from now on: for scripts tested against the emulator at
 * the same --speed (SITEBUILDER_CLOCK_SPEED, docs/emulator.md), so the CLI's waits (the poll floor,
 * backoff, --timeout) shrink with the emulator's. The API client allows it on loopback only.
 */
export function scaledClock(speed: number): Clock {
  const start = Date.now();
  return {
    speed,
    now: () => start + (Date.now() - start) * speed,
    sleep: (ms, signal) => systemClock.sleep(ms / speed, signal),
  };
}

/** SITEBUILDER_CLOCK_SPEED, when set: a number from 1 to 1000. */
export function clockFromEnv(env: Record<string, string | undefined>): Clock {
  const raw = env.SITEBUILDER_CLOCK_SPEED?.trim();
  if (!raw) return systemClock;
  const speed = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || speed < 1 || speed > 1000)
    throw new UsageError(
      'SITEBUILDER_CLOCK_SPEED must be a number from 1 to 1000 (the emulator’s --speed); unset it for real time.',
    );
  return speed === 1 ? systemClock : scaledClock(speed);
}

/** A clock for tests: sleep advances the time at once and records what was asked. */
export class FakeClock implements Clock {
  sleeps: number[] = [];
  constructor(private t = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.t += ms;
    await Promise.resolve();
  }
}
