// Time and sleeping are injected so polling and backoff are tested without waiting
// (docs/architecture.md).

export interface Clock {
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
