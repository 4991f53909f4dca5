// The per-token minute: 240 counted method calls. The minute starts with the first counted
// call after the previous minute ran out (not on a fixed grid). Measured on the emulated
// clock; the seconds reported to clients are source (wall) seconds, so a client that waits
// Retry-After finds the budget back whatever the speed.
import { LIMITS } from '../api/limits.js';
import type { EmulatorClock } from './clock.js';

const MINUTE_MS = 60_000;

interface Window {
  start: number;
  used: number;
}

export interface BudgetView {
  limit: number;
  remaining: number;
  /** Source seconds until the minute ends (a whole minute when none is running). */
  resetSeconds: number;
}

export class RateBudgets {
  private windows = new Map<string, Window>();
  limit: number = LIMITS.callsPerMinute;

  constructor(private readonly clock: EmulatorClock) {}

  private current(tokenId: string, now: number): Window | undefined {
    const w = this.windows.get(tokenId);
    if (w && now < w.start + MINUTE_MS) return w;
    return undefined;
  }

  view(tokenId: string | undefined): BudgetView {
    const now = this.clock.now();
    const w = tokenId === undefined ? undefined : this.current(tokenId, now);
    if (!w) return { limit: this.limit, remaining: this.limit, resetSeconds: this.seconds(MINUTE_MS) };
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - w.used),
      resetSeconds: this.seconds(w.start + MINUTE_MS - now),
    };
  }

  /** Counts one call; false (nothing counted) when the minute's budget is spent. */
  take(tokenId: string): boolean {
    const now = this.clock.now();
    let w = this.current(tokenId, now);
    if (!w) {
      w = { start: now, used: 0 };
      this.windows.set(tokenId, w);
    }
    if (w.used >= this.limit) return false;
    w.used++;
    return true;
  }

  /** Every minute cleared, and the service's limit back. */
  reset(): void {
    this.windows.clear();
    this.limit = LIMITS.callsPerMinute;
  }

  private seconds(emulatedMs: number): number {
    return Math.max(1, Math.ceil(this.clock.toSourceMs(emulatedMs) / 1000));
  }
}
