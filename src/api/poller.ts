// How often one thing is read, under the service's rule "poll no more often than every few
// seconds" (docs/real-service.md "Polling"): never two reads of the same thing less than
// POLL_TIMING.floorMs apart, about busyMs while it changes, stretching to idleMs while nothing
// does, and longer still when the minute's budget runs low. Time comes from the injected clock.
import type { Clock } from '../clock.js';
import type { RateBudget } from './call.js';

export const POLL_TIMING = {
  /** No two reads of one run (or publish, or restore) closer than this, whatever happens. */
  floorMs: 2_000,
  /** The wait after a read that brought something new. */
  busyMs: 3_000,
  /** The wait reached while nothing changes (at most 13 reads in an idle minute). */
  idleMs: 5_000,
  /** Growth of the wait for each quiet read. */
  factor: 1.6,
  /** Calls left for other work before the wait starts stretching over the rest of the minute. */
  reserve: 20,
} as const;

export interface PollerOptions {
  clock: Clock;
  /** Current budget of the minute (the client's X-RateLimit-* view). */
  budget?: () => RateBudget | undefined;
  /** Wait right after a change (never below the floor). */
  fastMs?: number;
  /** Wait reached while nothing changes (never below the floor). */
  idleMs?: number;
  /** Growth of the wait for each quiet read. */
  factor?: number;
  /** Calls the poller leaves for other work before it starts stretching its interval. */
  reserve?: number;
}

export class AdaptivePoller {
  private delay: number;
  private lastReadAt?: number;
  private readonly o: Required<Omit<PollerOptions, 'budget'>> & Pick<PollerOptions, 'budget'>;

  constructor(options: PollerOptions) {
    const floor = POLL_TIMING.floorMs;
    this.o = {
      fastMs: POLL_TIMING.busyMs,
      idleMs: POLL_TIMING.idleMs,
      factor: POLL_TIMING.factor,
      reserve: POLL_TIMING.reserve,
      ...options,
    };
    this.o.fastMs = Math.max(floor, this.o.fastMs);
    this.o.idleMs = Math.max(this.o.fastMs, this.o.idleMs);
    this.delay = this.o.fastMs;
  }

  /** Call when a read starts: the floor counts from there. */
  markRead(): void {
    this.lastReadAt = this.o.clock.now();
  }

  /** How long until the next read is allowed by the floor (0 when it is). */
  untilAllowed(): number {
    if (this.lastReadAt === undefined) return 0;
    return Math.max(0, this.lastReadAt + POLL_TIMING.floorMs - this.o.clock.now());
  }

  /** The wait before the next read, given whether the last one brought anything new. */
  next(changed: boolean): number {
    this.delay = changed ? this.o.fastMs : Math.min(this.o.idleMs, Math.round(this.delay * this.o.factor));
    return Math.max(this.delay + this.budgetPenalty(), this.untilAllowed());
  }

  /** Sleeps for next(changed); rejects when the signal aborts. */
  async wait(changed: boolean, signal?: AbortSignal): Promise<number> {
    const ms = this.next(changed);
    await this.o.clock.sleep(ms, signal);
    return ms;
  }

  private budgetPenalty(): number {
    const b = this.o.budget?.();
    if (!b || b.remaining === undefined) return 0;
    if (b.remaining > this.o.reserve) return 0;
    const resetMs = Math.max(0, (b.resetSeconds ?? 60) * 1000 - (this.o.clock.now() - b.at));
    // Spread the calls left over the rest of the minute, keeping a reserve for real work.
    if (b.remaining <= 2) return resetMs;
    return Math.round(resetMs / Math.max(1, b.remaining - 2));
  }
}
