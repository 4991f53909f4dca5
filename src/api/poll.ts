// Adaptive polling for get_job, get_publish_status and the storage restore status: quick right
// after something changed, slowing to a few seconds while nothing does, slower still when the
// rate budget runs low, never a tight loop. Time comes from the injected clock.
import type { Clock } from '../clock.js';
import type { RateBudget } from './client.js';

export interface PollerOptions {
  clock: Clock;
  /** Current budget of the minute (the client's X-RateLimit-* view). */
  budget?: () => RateBudget | undefined;
  /** Delay right after a change. */
  fastMs?: number;
  /** Delay reached while nothing changes (the service asks for a poll every few seconds at most). */
  idleMs?: number;
  /** Growth of the delay for each quiet poll. */
  factor?: number;
  /** Calls the poller leaves for other work before it starts stretching its interval. */
  reserve?: number;
}

export class AdaptivePoller {
  private delay: number;
  private readonly o: Required<Omit<PollerOptions, 'budget'>> & Pick<PollerOptions, 'budget'>;

  constructor(options: PollerOptions) {
    this.o = { fastMs: 1_000, idleMs: 4_000, factor: 1.6, reserve: 20, ...options };
    this.delay = this.o.fastMs;
  }

  /** The delay before the next poll, given whether the last answer brought anything new. */
  next(changed: boolean): number {
    this.delay = changed ? this.o.fastMs : Math.min(this.o.idleMs, Math.round(this.delay * this.o.factor));
    return this.delay + this.budgetPenalty();
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

export interface PollUntilOptions<T> {
  clock: Clock;
  budget?: () => RateBudget | undefined;
  fastMs?: number;
  idleMs?: number;
  signal?: AbortSignal;
  timeoutMs: number;
  /** A value already in hand (the answer that started the work): checked before the first read. */
  initial?: T;
  read: () => Promise<T>;
  /** Called with each value read (show it; throw to stop, e.g. on a failure). */
  onRead?: (value: T, polls: number) => void;
  done: (value: T) => boolean;
  /** Whether the last read brought something new (polls: reads so far): the next wait is short then. */
  changed?: (value: T, polls: number) => boolean;
}

export interface PollUntilResult<T> {
  value: T;
  timedOut: boolean;
  polls: number;
}

/**
 * Reads until done or until timeoutMs has passed (the work goes on; the caller says so), waiting
 * adaptively between reads. An abort of the signal rejects with its reason.
 */
export async function pollUntil<T>(o: PollUntilOptions<T>): Promise<PollUntilResult<T>> {
  const deadline = o.clock.now() + o.timeoutMs;
  const poller = new AdaptivePoller({
    clock: o.clock,
    budget: o.budget,
    ...(o.fastMs !== undefined && { fastMs: o.fastMs }),
    ...(o.idleMs !== undefined && { idleMs: o.idleMs }),
  });
  let polls = 0;
  const read = async () => {
    const value = await o.read();
    polls++;
    o.onRead?.(value, polls);
    return value;
  };
  let value = o.initial !== undefined ? o.initial : await read();
  for (;;) {
    if (o.done(value)) return { value, timedOut: false, polls };
    const left = deadline - o.clock.now();
    if (left <= 0) return { value, timedOut: true, polls };
    await o.clock.sleep(Math.min(poller.next(o.changed?.(value, polls) ?? false), left), o.signal);
    value = await read();
  }
}
