// One scheduler for every call of a process that works on many sites (docs/scripting.md "Many
// sites at once"). It is the client's gate (call.ts CallGate): each attempt of each call waits
// here for its turn, so that
//   - no run is read twice within the poll floor (POLL_TIMING.floorMs), counted from when the
//     read actually went out, retries included;
//   - polls are served fairly: the run read longest ago goes first;
//   - starts (and the calls that prepare them) go before polls, and polls never spend the
//     minute's last calls (SCHEDULE.pollReserve) that a start may need;
//   - the token stays within its minute as the service reports it (X-RateLimit-Remaining and
//     -Reset, in client.budget): when the work left needs more calls than the minute has spare,
//     the calls left are spread over the rest of the minute. Two processes on one token each see
//     the other's calls in Remaining and slow down together: each spaces its calls by what is
//     left, so together they approach the end of the minute without passing it;
//   - a 429 from the minute's budget (its Retry-After) holds every call of the process, not only
//     the one that met it, until the wait it asks for is over.
// Without X-RateLimit-* headers it keeps its own calls within the limit in any minute of its
// own (docs/real-service.md "Many sites at once"). Time comes from the injected clock.
import type { Clock } from '../clock.js';
import type { CallGate, CallOver, CallTicket, RateBudget } from './call.js';
import { LIMITS } from './limits.js';
import { POLL_TIMING } from './poller.js';

export const SCHEDULE = {
  /** The minute's calls polls leave to starts. */
  pollReserve: 4,
  /** The minute's calls never spent, for what another process on the token may have sent meanwhile. */
  reserve: 1,
  /** Once the minute should be over, a little more before a new one is taken to have started. */
  resetMarginMs: 250,
  minuteMs: 60_000,
} as const;

export interface SchedulerOptions {
  clock: Clock;
  /** The client's view of the minute (X-RateLimit-*), read at every decision. */
  budget: () => RateBudget | undefined;
  /**
   * Calls the work still needs, at least (a site not started: its start and one read). While
   * the minute has twice that to spare, calls go at once; otherwise they are spread over it.
   */
  demand?: () => number;
  /** The per-run floor (tests); POLL_TIMING.floorMs by default. */
  floorMs?: number;
}

interface Waiter {
  ticket: CallTicket;
  seq: number;
  resolve: (over: CallOver) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** The minute as this process sees it now: calls left (less its own calls not yet answered) and when it ends. */
export interface MinuteView {
  remaining: number;
  endsAt: number;
}

export class CallScheduler implements CallGate {
  /** Calls granted, and the 429s among their answers. */
  calls = 0;
  rateLimited = 0;
  private readonly waiters: Waiter[] = [];
  private readonly lanes = new Map<string, number>();
  private inFlight = 0;
  private lastGrantAt = Number.NEGATIVE_INFINITY;
  private seq = 0;
  private wake?: AbortController;
  private wakeAt = Number.POSITIVE_INFINITY;
  private readonly floorMs: number;
  /** When the calls of the last minute were granted, oldest first. */
  private readonly recent: number[] = [];
  /** The longest minute the service reported (X-RateLimit-Reset at a minute's start); 60 s until one is seen. */
  private longestReset?: number;
  /** No call goes before this: the Retry-After of a 429 from the minute's budget. */
  private heldUntil = Number.NEGATIVE_INFINITY;

  constructor(private readonly o: SchedulerOptions) {
    this.floorMs = o.floorMs ?? POLL_TIMING.floorMs;
  }

  acquire(ticket: CallTicket, signal?: AbortSignal): Promise<CallOver> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const w: Waiter = { ticket, seq: this.seq++, resolve, reject, signal };
      if (signal) {
        w.onAbort = () => {
          const i = this.waiters.indexOf(w);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
          this.pump();
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.waiters.push(w);
      this.pump();
    });
  }

  /** Polls of runs waiting for their turn, and calls waiting. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * How long a minute of the budget lasts: 60 s, or less where the service's minute is shorter (an
   * emulator at --speed reports its own seconds): the longest X-RateLimit-Reset seen.
   */
  get minuteMs(): number {
    return Math.min(SCHEDULE.minuteMs, this.longestReset ?? SCHEDULE.minuteMs);
  }

  /** The margin after a minute's reported end: SCHEDULE.resetMarginMs, less for a short minute (an emulator at --speed). */
  private get resetMarginMs(): number {
    return Math.min(SCHEDULE.resetMarginMs, this.minuteMs / 100);
  }

  /** The minute as seen now; a minute that is over (or never reported) is taken as a whole new one. */
  minute(now = this.o.clock.now()): MinuteView & { limit: number } {
    const b = this.o.budget();
    const limit = b?.limit ?? LIMITS.callsPerMinute;
    if (b?.resetSeconds !== undefined && b.resetSeconds > 0)
      this.longestReset = Math.max(this.longestReset ?? 0, b.resetSeconds * 1000);
    const endsAt = b && b.remaining !== undefined ? b.at + (b.resetSeconds ?? 60) * 1000 : Number.NEGATIVE_INFINITY;
    if (!b || b.remaining === undefined || now >= endsAt + this.resetMarginMs)
      return { limit, remaining: limit - this.inFlight, endsAt: now + this.minuteMs };
    return { limit, remaining: b.remaining - this.inFlight, endsAt };
  }

  /** Waiters in the order they are served: starts and calls first, then polls of the run read longest ago. */
  private ordered(): Waiter[] {
    const rank = (w: Waiter) => (w.ticket.kind === 'poll' ? 1 : 0);
    const last = (w: Waiter) =>
      w.ticket.lane === undefined
        ? Number.NEGATIVE_INFINITY
        : (this.lanes.get(w.ticket.lane) ?? Number.NEGATIVE_INFINITY);
    return [...this.waiters].sort((a, b) => rank(a) - rank(b) || last(a) - last(b) || a.seq - b.seq);
  }

  /** Grants every call that may go now, and sets a timer for the next moment one may. */
  private pump(): void {
    for (;;) {
      const now = this.o.clock.now();
      const minute = this.minute(now);
      const minuteMs = this.minuteMs;
      while (this.recent.length > 0 && (this.recent[0] as number) <= now - minuteMs) this.recent.shift();
      let next = Number.POSITIVE_INFINITY;
      let granted: Waiter | undefined;
      if (now < this.heldUntil) {
        this.sleepUntil(this.heldUntil);
        return;
      }
      for (const w of this.ordered()) {
        const poll = w.ticket.kind === 'poll';
        const lastRead = w.ticket.lane === undefined ? undefined : this.lanes.get(w.ticket.lane);
        if (poll && lastRead !== undefined && lastRead + this.floorMs > now) {
          next = Math.min(next, lastRead + this.floorMs);
          continue;
        }
        const reserve = poll ? SCHEDULE.pollReserve : SCHEDULE.reserve;
        const spare = minute.remaining - reserve;
        if (spare <= 0) {
          next = Math.min(next, minute.endsAt + this.resetMarginMs);
          continue;
        }
        // Nor more than the minute's calls within any minute of this process's own, however the
        // service's minutes fall.
        if (this.recent.length >= minute.limit - reserve) {
          next = Math.min(next, (this.recent[this.recent.length - (minute.limit - reserve)] as number) + minuteMs);
          continue;
        }
        const demand = this.o.demand?.() ?? 0;
        const spacing = Math.max(Math.max(0, minute.endsAt - now) / spare, minuteMs / minute.limit);
        const at = demand * 2 > spare ? this.lastGrantAt + spacing : now;
        if (at > now) {
          next = Math.min(next, at);
          break;
        }
        granted = w;
        break;
      }
      if (!granted) {
        this.sleepUntil(next);
        return;
      }
      this.grant(granted, now);
    }
  }

  private grant(w: Waiter, now: number): void {
    this.waiters.splice(this.waiters.indexOf(w), 1);
    if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
    this.inFlight++;
    this.calls++;
    this.lastGrantAt = now;
    this.recent.push(now);
    if (w.ticket.lane !== undefined) this.lanes.set(w.ticket.lane, now);
    let over = false;
    w.resolve((status, retryAfterMs) => {
      if (over) return;
      over = true;
      this.inFlight--;
      if (status === 429) this.rateLimited++;
      if (status === 429 && retryAfterMs !== undefined)
        this.heldUntil = Math.max(this.heldUntil, this.o.clock.now() + retryAfterMs);
      this.pump();
    });
  }

  private sleepUntil(at: number): void {
    if (at === this.wakeAt && this.wake) return;
    this.wake?.abort();
    this.wake = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
    if (!Number.isFinite(at) || this.waiters.length === 0) return;
    this.wakeAt = at;
    const wake = new AbortController();
    this.wake = wake;
    this.o.clock.sleep(Math.max(1, at - this.o.clock.now()), wake.signal).then(
      () => {
        if (this.wake !== wake) return;
        this.wake = undefined;
        this.wakeAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      () => {},
    );
  }
}
